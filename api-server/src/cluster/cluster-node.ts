/**
 * One replica's cluster mode, assembled: the topics, the telemetry producer (the ingest sink),
 * the read view and the partition owner. `startClusterNode` returns once the read view has
 * caught up with the state topic and the replica has joined the analysers' group.
 */
import type { AnalysisCore, StepOutput } from '../analysis/contract.js';
import type { WorkloadReads } from '../http/workload-reads.js';
import type { IngestPipeline } from '../pipeline/ingest-pipeline.js';
import type { IngestSink } from '../pipeline/ingest-sink.js';
import type { ControlPlane } from '../control/control-plane.js';
import { ReplicatedControl, type EmergencyStopTarget } from './replicated-control.js';
import { ClusterReads } from './cluster-reads.js';
import type { ClusterSettings } from './cluster-settings.js';
import { ensureClusterTopics } from './cluster-topics.js';
import { PartitionOwner } from './partition-owner.js';
import { ReadView } from './read-view.js';
import { TelemetryProducer } from './telemetry-producer.js';

export type EnabledClusterSettings = Extract<ClusterSettings, { enabled: true }>;

export interface ClusterLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export interface ClusterStatus {
  replica: string;
  /** partitions of the telemetry topic */
  partitions: number;
  /** the partitions this replica analyses */
  owned: number[];
  /** the workloads this replica analyses, sorted */
  analysed: string[];
  /** workloads in this replica's read view (every replica's) */
  viewed_workloads: number;
  /** partitions restored from the state topic since start */
  restores: number;
}

export interface ClusterNode {
  ingest: IngestSink;
  reads: WorkloadReads;
  /** Starts applying the control topic to `plane`; the returned writes go through the topic. */
  attachControl(plane: ControlPlane, stop: EmergencyStopTarget): Promise<ReplicatedControl>;
  /** hand every analyzer tick's output over (publishes owned workloads' views) */
  afterStep(output: StepOutput): Promise<void>;
  status(): ClusterStatus;
  stop(): Promise<void>;
}

export async function startClusterNode(
  settings: EnabledClusterSettings,
  core: AnalysisCore,
  pipeline: IngestPipeline,
  ports: { bucketMs: number; log: ClusterLog; dropped(reason: 'invalid' | 'queue_full' | 'unavailable', n: number): void },
): Promise<ClusterNode> {
  const clientId = `faultline-${settings.replicaId}`;
  const { partitions } = await ensureClusterTopics(settings.brokers, settings.telemetryTopic, settings.stateTopic, settings.controlTopic, settings.partitions, clientId);
  ports.log.info({ telemetry: settings.telemetryTopic, state: settings.stateTopic, partitions }, 'cluster: topics ready');
  const producer = new TelemetryProducer({
    brokers: settings.brokers,
    topic: settings.telemetryTopic,
    partitions,
    clientId: `${clientId}-ingest`,
    dropped: ports.dropped,
    warn: (f, m) => ports.log.warn(f, m),
  });
  const view = new ReadView({ brokers: settings.brokers, topic: settings.stateTopic, partitions, clientId, warn: (f, m) => ports.log.warn(f, m) });
  await view.start().catch((e: unknown) => {
    throw new Error(`cluster: reading the state topic ${settings.stateTopic} failed: ${(e as Error).message}`);
  });
  ports.log.info({ viewed_workloads: view.workloadKeys().length }, 'cluster: read view caught up with the state topic');
  const owner = new PartitionOwner(core, pipeline, {
    brokers: settings.brokers,
    group: settings.group,
    replicaId: settings.replicaId,
    telemetryTopic: settings.telemetryTopic,
    stateTopic: settings.stateTopic,
    partitions,
    checkpointMs: settings.checkpointMs,
    bucketMs: ports.bucketMs,
    log: ports.log,
    dropped: (reason, n) => ports.dropped(reason, n),
  });
  await owner.start().catch((e: unknown) => {
    throw new Error(`cluster: joining the group ${settings.group} on ${settings.telemetryTopic} failed: ${(e as Error).message}`);
  });
  ports.log.info({ replica: settings.replicaId, brokers: settings.brokers, partitions, viewed_workloads: view.workloadKeys().length }, 'cluster mode: joined');
  let control: ReplicatedControl | undefined;
  return {
    ingest: producer,
    attachControl: async (plane, stop) => {
      const replicated = new ReplicatedControl(plane, stop, { brokers: settings.brokers, topic: settings.controlTopic, clientId, warn: (f, m) => ports.log.warn(f, m) });
      await replicated.start().catch((e: unknown) => {
        throw new Error(`cluster: reading the control topic ${settings.controlTopic} failed: ${(e as Error).message}`);
      });
      control = replicated;
      return replicated;
    },
    reads: new ClusterReads(core, owner, view),
    afterStep: (output) => owner.afterStep(output),
    status: () => ({
      replica: settings.replicaId,
      partitions,
      owned: owner.ownedPartitions(),
      analysed: core.workloadKeys().filter((k) => owner.owns(k)).sort(),
      viewed_workloads: view.workloadKeys().length,
      restores: owner.restores,
    }),
    stop: async () => {
      await owner.stop();
      await control?.close();
      await view.close();
      await producer.close();
    },
  };
}
