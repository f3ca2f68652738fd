/**
 * One replica's cluster mode, assembled: the topics, the telemetry producer (the ingest sink),
 * the read view, the partition owner and the action engine's cluster side (its records in the
 * state topic, its scope: the workloads this replica owns, decisions routed to the owner).
 * `startClusterNode` returns once the read view has caught up with the state topic and the
 * replica has joined the analysers' group.
 */
import type { AnalysisCore, StepOutput } from '../analysis/contract.js';
import type { WorkloadReads } from '../reads/workload-reads.js';
import type { IngestPipeline } from '../pipeline/ingest-pipeline.js';
import type { IngestSink } from '../pipeline/ingest-sink.js';
import type { ControlPlane } from '../control/control-plane.js';
import type { ActionEngine } from '../actions/action-engine.js';
import { ActionCommands } from './action-commands.js';
import type { ClusterActionRepository } from './action-records.js';
import { SerialProducer } from './serial-producer.js';
import type { AnalysisStore } from '../storage/analysis-store.js';
import { HistoryFollower } from './history-follower.js';
import { historyRecords } from './history-records.js';
import { ReplicatedControl, type EmergencyStopTarget } from './replicated-control.js';
import { ClusterReads } from './cluster-reads.js';
import type { ClusterSettings } from './cluster-settings.js';
import { ensureClusterTopics } from './cluster-topics.js';
import { PartitionOwner } from './partition-owner.js';
import type { ClusterStatus } from '../model/cluster-status.js';
import { ReadView } from './read-view.js';
import { TelemetryProducer } from './telemetry-producer.js';

export type EnabledClusterSettings = Extract<ClusterSettings, { enabled: true }>;

export interface ClusterLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export interface ClusterNode {
  ingest: IngestSink;
  reads: WorkloadReads;
  /**
   * Starts applying the control topic to `plane`; the returned writes go through the topic, and
   * the returned decisions on actions go to the owner of the action's workload.
   */
  attachControl(plane: ControlPlane, stop: EmergencyStopTarget): Promise<{ control: ReplicatedControl; decisions: ActionCommands }>;
  /** hand every analyzer tick's output over (publishes owned workloads' views) */
  afterStep(output: StepOutput): Promise<void>;
  status(): ClusterStatus;
  stop(): Promise<void>;
}

export async function startClusterNode(
  settings: EnabledClusterSettings,
  core: AnalysisCore,
  pipeline: IngestPipeline,
  ports: {
    bucketMs: number;
    log: ClusterLog;
    dropped(reason: 'invalid' | 'queue_full' | 'unavailable', n: number): void;
    /** samples Kafka acknowledged to a sender through this replica */
    accepted(source: 'metrics' | 'logs' | 'traces', n: number): void;
    /** samples read again after a partition moved here */
    replayed(source: 'metrics' | 'logs' | 'traces', n: number): void;
    /** this replica's LevelDB analysis store: the history topic is copied into it */
    store: AnalysisStore;
    /** how long KPI history is kept (the history topic's retention) */
    historyRetentionMs: number;
  },
  actions: { engine: ActionEngine; repository: ClusterActionRepository },
): Promise<ClusterNode> {
  const clientId = `faultline-${settings.replicaId}`;
  const { partitions } = await ensureClusterTopics(
    settings.brokers,
    { telemetry: settings.telemetryTopic, state: settings.stateTopic, control: settings.controlTopic, history: settings.historyTopic, historyRetentionMs: ports.historyRetentionMs },
    settings.partitions,
    clientId,
  );
  ports.log.info({ telemetry: settings.telemetryTopic, state: settings.stateTopic, partitions }, 'cluster: topics ready');
  const producer = new TelemetryProducer({
    brokers: settings.brokers,
    topic: settings.telemetryTopic,
    partitions,
    clientId: `${clientId}-ingest`,
    dropped: ports.dropped,
    accepted: ports.accepted,
    warn: (f, m) => ports.log.warn(f, m),
  });
  // the engine drives the actions of the workloads this replica owns (none until the group assigns)
  const ownerRef: { current?: PartitionOwner } = {};
  actions.engine.restrictTo((workload) => ownerRef.current?.drives(workload) ?? false);
  const actionProducer = new SerialProducer(settings.brokers, `${clientId}-actions`);
  actions.repository.bind(actionProducer, partitions);
  const view = new ReadView({ brokers: settings.brokers, topic: settings.stateTopic, partitions, clientId, warn: (f, m) => ports.log.warn(f, m), actions: actions.engine });
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
    replayed: ports.replayed,
    adoptActions: (belongs, adopted, controls) => {
      actions.engine.adopt(belongs, adopted, controls);
      ports.log.info({ actions: adopted.length, pending: adopted.filter((a) => a.state === 'pending').length }, 'cluster: actions adopted with the partition');
    },
  });
  ownerRef.current = owner;
  const analyser = owner;
  // history: every replica copies the topic into its LevelDB; the owner publishes what its ticks stored
  const history = new HistoryFollower(ports.store, { brokers: settings.brokers, topic: settings.historyTopic, partitions, clientId, warn: (f, m) => ports.log.warn(f, m) });
  await history.start().catch((e: unknown) => {
    throw new Error(`cluster: reading the history topic ${settings.historyTopic} failed: ${(e as Error).message}`);
  });
  const historyProducer = new SerialProducer(settings.brokers, `${clientId}-history`);
  ports.store.afterWrite((w) => {
    const records = historyRecords(settings.historyTopic, partitions, w, (k) => analyser.drives(k));
    if (records.length === 0) return;
    historyProducer.send(records).catch((error: unknown) => ports.log.warn({ err: error, workloads: records.length }, 'cluster: publishing KPI history and explain records failed; other replicas miss this tick\'s points'));
  });
  await owner.start().catch((e: unknown) => {
    throw new Error(`cluster: joining the group ${settings.group} on ${settings.telemetryTopic} failed: ${(e as Error).message}`);
  });
  ports.log.info({ replica: settings.replicaId, brokers: settings.brokers, partitions, viewed_workloads: view.workloadKeys().length }, 'cluster mode: joined');
  let control: ReplicatedControl | undefined;
  let decisions: ActionCommands | undefined;
  return {
    ingest: producer,
    attachControl: async (plane, stop) => {
      const replicated = new ReplicatedControl(plane, stop, { brokers: settings.brokers, topic: settings.controlTopic, clientId, warn: (f, m) => ports.log.warn(f, m) });
      const commands = new ActionCommands(actions.engine, replicated, { replicaId: settings.replicaId, timeoutMs: settings.actionTimeoutMs, log: ports.log });
      replicated.attachCommands(commands);
      await replicated.start().catch((e: unknown) => {
        throw new Error(`cluster: reading the control topic ${settings.controlTopic} failed: ${(e as Error).message}`);
      });
      control = replicated;
      decisions = commands;
      return { control: replicated, decisions: commands };
    },
    reads: new ClusterReads(core, analyser, view, ports.store),
    afterStep: (output) => analyser.afterStep(output),
    status: () => ({
      replica: settings.replicaId,
      partitions,
      owned: analyser.ownedPartitions(),
      analysed: core.workloadKeys().filter((k) => analyser.owns(k)).sort(),
      viewed_workloads: view.workloadKeys().length,
      restores: analyser.restores,
      last_assignment_moved: analyser.lastMoved ?? null,
      action_commands_applied: decisions?.applied ?? 0,
    }),
    stop: async () => {
      await analyser.stop();
      await control?.close();
      await view.close();
      await history.close();
      await historyProducer.close();
      await actionProducer.close();
      await producer.close();
    },
  };
}
