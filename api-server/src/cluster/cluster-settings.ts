/**
 * The `cluster` section of the YAML file (issue 10). Absent or `enabled: false`: standalone, the
 * default, unchanged. Every problem is reported with its path (`cluster.brokers[0]: …`).
 *
 *   cluster:
 *     enabled: true
 *     brokers: [kafka-0:9092]          # host:port list
 *     replica_id: faultline-0          # default: $HOSTNAME (the pod name in a StatefulSet)
 *     group: faultline-analyzers       # the analysers' consumer group
 *     partitions: 12                   # when the topics are created; the upper bound of replicas
 *     checkpoint_seconds: 30           # how often owned workloads' state is written to the state topic
 *     action_timeout_seconds: 10       # how long a decision on an action waits for the workload's owner
 *     topics:
 *       telemetry: faultline.telemetry # normalised records keyed by workload key
 *       state: faultline.state         # compacted: analysis state, read view and actions per workload
 *       control: faultline.control     # compacted, 1 partition: suppressions, context, weights, decisions
 *       history: faultline.history     # KPI history points and explain records, kept as long as KPI history
 */
import { hostname } from 'node:os';
import { z } from 'zod';
import { sectionPath } from '../model/section-path.js';

const hostPort = z.string().regex(/^[A-Za-z0-9.\-_[\]:]+:\d{1,5}$/, 'must be host:port');
const topicName = z.string().regex(/^[A-Za-z0-9._-]{1,249}$/, 'must be a Kafka topic name: 1-249 of A-Z a-z 0-9 . _ -');

const clusterYamlSchema = z
  .object({
    enabled: z.boolean().default(false),
    brokers: z.array(hostPort).min(1, 'must list at least one broker').optional(),
    replica_id: z.string().regex(/^[A-Za-z0-9._-]{1,128}$/, 'must be 1-128 of A-Z a-z 0-9 . _ -').optional(),
    group: z.string().min(1, 'must not be empty').default('faultline-analyzers'),
    partitions: z.number().int('must be an integer').min(1, 'must be at least 1').max(1024, 'must be at most 1024').default(12),
    checkpoint_seconds: z.number().min(1, 'must be at least 1').max(3600, 'must be at most 3600').default(30),
    action_timeout_seconds: z.number().min(1, 'must be at least 1').max(300, 'must be at most 300').default(10),
    topics: z
      .object({
        telemetry: topicName.default('faultline.telemetry'),
        state: topicName.default('faultline.state'),
        control: topicName.default('faultline.control'),
        history: topicName.default('faultline.history'),
      })
      .strict()
      .default({ telemetry: 'faultline.telemetry', state: 'faultline.state', control: 'faultline.control', history: 'faultline.history' }),
  })
  .strict()
  .refine((v) => !v.enabled || v.brokers !== undefined, { message: 'cluster mode needs brokers', path: ['brokers'] })
  .refine((v) => v.topics.telemetry !== v.topics.state, { message: 'must differ from topics.telemetry', path: ['topics', 'state'] })
  .refine((v) => v.topics.control !== v.topics.state && v.topics.control !== v.topics.telemetry, { message: 'must differ from the other topics', path: ['topics', 'control'] })
  .refine((v) => ![v.topics.telemetry, v.topics.state, v.topics.control].includes(v.topics.history), { message: 'must differ from the other topics', path: ['topics', 'history'] });

export type ClusterSettings =
  | { enabled: false }
  | {
      enabled: true;
      brokers: string[];
      replicaId: string;
      group: string;
      partitions: number;
      checkpointMs: number;
      actionTimeoutMs: number;
      telemetryTopic: string;
      stateTopic: string;
      controlTopic: string;
      historyTopic: string;
    };

export const STANDALONE: ClusterSettings = { enabled: false };

/** Validates the raw YAML value; throws an Error whose message names the first bad field. */
export function parseClusterSettings(raw: unknown, env: NodeJS.ProcessEnv): ClusterSettings {
  if (raw === undefined || raw === null) return STANDALONE;
  const parsed = clusterYamlSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${sectionPath('cluster', issue?.path ?? [])}: ${issue?.message ?? 'invalid'}`);
  }
  const v = parsed.data;
  if (!v.enabled || v.brokers === undefined) return STANDALONE;
  const fallbackId = (env['HOSTNAME'] ?? hostname()).replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 128) || 'faultline';
  return {
    enabled: true,
    brokers: v.brokers,
    replicaId: v.replica_id ?? fallbackId,
    group: v.group,
    partitions: v.partitions,
    checkpointMs: v.checkpoint_seconds * 1000,
    actionTimeoutMs: v.action_timeout_seconds * 1000,
    telemetryTopic: v.topics.telemetry,
    stateTopic: v.topics.state,
    controlTopic: v.topics.control,
    historyTopic: v.topics.history,
  };
}
