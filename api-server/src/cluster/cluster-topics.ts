/**
 * The topics of cluster mode, created when absent: the telemetry topic (time retention, the
 * broker's default), the state topic (`cleanup.policy=compact`: the latest record per key is
 * kept, so it holds every workload's latest analysis state and read view) and the control topic
 * (compacted, one partition) and the history topic (time retention as long as KPI history is
 * kept). Telemetry, state and history get the same partition count; an existing topic keeps its
 * own, and they must agree (a workload's records share a partition number).
 */
import { Admin } from '../kafka/kafka-client.js';
import { topicAlreadyExists } from '../kafka/kafka-errors.js';

/**
 * The state topic's `max.message.bytes`: a record batch (one partition's records of one produce
 * request) the broker takes. A state write is at most STATE_WRITE_BYTES of values (state-ledger.ts)
 * unless one state is larger: a workload's state grows with its pods (~10 KB each), so the
 * broker's default of 1 MB would refuse the state of a workload of ~100 pods at every checkpoint.
 * 8 MiB; an existing topic keeps its own (README, cluster mode).
 */
export const STATE_TOPIC_MAX_MESSAGE_BYTES = 8 * 1_048_576;

export interface TopicLayout {
  partitions: number;
}


export interface ClusterTopicNames {
  telemetry: string;
  state: string;
  control: string;
  history: string;
  /** retention of the history topic */
  historyRetentionMs: number;
}

export async function ensureClusterTopics(brokers: string[], names: ClusterTopicNames, partitions: number, clientId: string): Promise<TopicLayout> {
  const { telemetry: telemetryTopic, state: stateTopic, control: controlTopic, history: historyTopic } = names;
  const admin = new Admin({ clientId: `${clientId}-admin`, bootstrapBrokers: brokers, timeout: 10_000, retries: 3, retryDelay: 500 });
  try {
    const existing = new Set(await admin.listTopics().catch((e: unknown) => {
      throw new Error(`cluster: listing the topics on ${brokers.join(',')} failed: ${(e as Error).message}`);
    }));
    if (!existing.has(telemetryTopic)) {
      await admin.createTopics({ topics: [telemetryTopic], partitions, replicas: 1 }).catch((e: unknown) => {
        if (!topicAlreadyExists(e)) throw e;
      });
    }
    if (!existing.has(stateTopic)) {
      await admin
        .createTopics({ topics: [stateTopic], partitions, replicas: 1, configs: [{ name: 'cleanup.policy', value: 'compact' }, { name: 'max.message.bytes', value: String(STATE_TOPIC_MAX_MESSAGE_BYTES) }] })
        .catch((e: unknown) => {
          if (!topicAlreadyExists(e)) throw e;
        });
    }
    if (!existing.has(controlTopic)) {
      // one partition: every replica applies the control changes in one order
      await admin
        .createTopics({ topics: [controlTopic], partitions: 1, replicas: 1, configs: [{ name: 'cleanup.policy', value: 'compact' }] })
        .catch((e: unknown) => {
          if (!topicAlreadyExists(e)) throw e;
        });
    }
    if (!existing.has(historyTopic)) {
      await admin
        .createTopics({
          topics: [historyTopic],
          partitions,
          replicas: 1,
          configs: [
            { name: 'cleanup.policy', value: 'delete' },
            { name: 'retention.ms', value: String(Math.round(names.historyRetentionMs)) },
          ],
        })
        .catch((e: unknown) => {
          if (!topicAlreadyExists(e)) throw e;
        });
    }
    const metadata = await admin.metadata({ topics: [telemetryTopic, stateTopic, historyTopic] }).catch((e: unknown) => {
      throw new Error(`cluster: reading the metadata of ${telemetryTopic}, ${stateTopic} and ${historyTopic} failed: ${(e as Error).message}`);
    });
    const t = metadata.topics.get(telemetryTopic)?.partitionsCount;
    const s = metadata.topics.get(stateTopic)?.partitionsCount;
    const h = metadata.topics.get(historyTopic)?.partitionsCount;
    if (t === undefined || s === undefined || h === undefined) throw new Error(`cluster topics ${telemetryTopic} / ${stateTopic} / ${historyTopic} are not visible after creation`);
    if (t !== s) throw new Error(`cluster topics disagree: ${telemetryTopic} has ${t} partitions, ${stateTopic} has ${s}; they must match`);
    if (t !== h) throw new Error(`cluster topics disagree: ${telemetryTopic} has ${t} partitions, ${historyTopic} has ${h}; they must match`);
    return { partitions: t };
  } finally {
    await admin.close().catch(() => undefined);
  }
}
