/**
 * The analysing side of a replica in cluster mode. The replicas form one consumer group on the
 * telemetry topic; the partitions this replica is assigned are the workloads it analyses.
 *
 * - Restore before analysing: the first record of a newly assigned partition pauses the
 *   stream while the partition's `s|` (analysis state) and `v|` (latest anomalies) records are
 *   read from the state topic and imported; then its records flow into the local pipeline.
 * - Checkpoint (every `checkpointMs` and at shutdown): for every owned partition, the analysis
 *   state of the workloads stepped since the last checkpoint is written to the state topic, and
 *   only once Kafka acknowledged it is the group offset committed, at the oldest record whose
 *   bucket is not processed yet (ReplayOffsets). A replica that dies (SIGKILL) loses nothing
 *   acknowledged: the next owner restores the last checkpoint and reads on from the committed
 *   offset; records of buckets already processed in that state are refused as late.
 * - Sticky assignment (sticky-group.ts): a member leaving moves only its own partitions, a member
 *   joining takes its share from the others; nothing else moves.
 * - Hand-over: when a rebalance starts (this member rejoins) the owned workloads' states are
 *   written at once; when it takes a partition away, its states are written again (bounded by
 *   HANDOVER_MS), then its workloads leave the local analysis; records of it still buffered are
 *   skipped. Records at offsets below what was already handed over (a refetch after a
 *   rebalance) are skipped too. States only, no offset commit, once the partition may be another
 *   member's: a state newer than the committed offset only makes the successor refuse more
 *   records as late, an offset newer than the state would lose buckets.
 * - Replays: with the states goes the read position (`r|<partition>`); samples of records below
 *   the previous owner's position are counted as replayed (`replayed`). Ingest is counted by the
 *   receiving replica when Kafka acknowledged it, never here.
 * - After every analyzer tick, owned workloads that stepped get a `v|` record (snapshot and
 *   latest anomalies) so every replica's read view follows.
 * - Actions: the restore also reads the partition's `a|` (actions) and `c|` (their control
 *   state) records and hands them to the action engine before the partition counts as
 *   restored; from then on this replica's engine drives those workloads' actions (`drives`).
 */
import type { MessagesStream } from '../kafka/kafka-client.js';
import type { Action } from '../actions/action.js';
import type { WorkloadActionControl } from '../actions/action-repository.js';
import type { AnalysisCore, AnomalyEvent, StepOutput } from '../analysis/contract.js';
import type { IngestPipeline } from '../pipeline/ingest-pipeline.js';
import { newGroupConsumer, type StringConsumer } from './group-consumer.js';
import { closeConsumer } from './partition-reader.js';
import { PartitionStates, RESTORE_RETRY_FIRST_MS, type ClusterLog } from './partition-states.js';
import { SerialProducer, type OutgoingRecord } from './serial-producer.js';
import { settleWithin } from './settle-within.js';
import { sendPendingStates } from './state-ledger.js';
import { viewKey } from './state-records.js';
import { decodeTelemetry, latestTimeMs, TelemetryRecordError } from './telemetry-codec.js';
import { partitionOf } from './workload-partition.js';

export interface PartitionOwnerOptions {
  brokers: string[];
  group: string;
  replicaId: string;
  telemetryTopic: string;
  stateTopic: string;
  partitions: number;
  checkpointMs: number;
  bucketMs: number;
  log: ClusterLog;
  dropped(reason: 'invalid', n: number): void;
  /** samples of records read again after a partition moved here (see the header) */
  replayed(source: 'metrics' | 'logs' | 'traces', n: number): void;
  /** takes over the actions of a restored partition's workloads (before they count as driven here) */
  adoptActions?(belongs: (workload: string) => boolean, actions: Action[], controls: Map<string, WorkloadActionControl>): void;
}

interface TelemetryMessage {
  key: string | undefined;
  value: string | undefined;
  partition: number;
  offset: bigint;
}

/**
 * stop: longest waits for the last checkpoint, the end of consumption, leaving the group (then
 * the close is forced, 1 s more) and closing the rest: 9 s at most, in the process's 10 s budget
 */
const STOP_CHECKPOINT_MS = 3_000;
const STOP_CONSUMING_MS = 2_000;
const STOP_LEAVE_MS = 2_000;
const STOP_REST_MS = 1_000;

export class PartitionOwner {
  private readonly consumer: StringConsumer;
  private readonly producer: SerialProducer;
  private stream: MessagesStream<string, string, string, string> | undefined;
  private assigned = new Set<number>();
  private readonly states: PartitionStates;
  private timer: NodeJS.Timeout | undefined;
  private loop: Promise<void> | undefined;
  private checkpointing: Promise<void> | undefined;
  private stopping = false;
  /** as group leader, partitions the last assignment moved (undefined until this member led one) */
  lastMoved: number | undefined;

  constructor(
    private readonly core: AnalysisCore,
    private readonly pipeline: IngestPipeline,
    private readonly options: PartitionOwnerOptions,
  ) {
    const clientId = `faultline-${options.replicaId}`;
    // the states first: the group consumer's protocol may ask for them while it is being built
    this.producer = new SerialProducer(options.brokers, `${clientId}-state`);
    this.states = new PartitionStates(core, pipeline, this.producer, {
      ...options,
      clientId,
      assigned: (p) => this.assigned.has(p),
      stopping: () => this.stopping,
    });
    this.consumer = newGroupConsumer({
      brokers: options.brokers,
      group: options.group,
      clientId,
      owned: () => new Map([[options.telemetryTopic, this.ownedPartitions()]]),
      rejoining: () => {
        if (!this.stopping && this.states.restored.size > 0) void this.states.flushStates([...this.states.restored]);
      },
      assigned: ({ members, moved }) => {
        this.lastMoved = moved;
        options.log.info({ members, moved }, 'cluster: partitions assigned to the group (sticky)');
      },
    });
    this.consumer.on('error', (error: unknown) => {
      if (!this.stopping) options.log.warn({ err: error }, 'cluster: group membership error');
    });
  }

  /** restores done, for /health and the tests */
  get restores(): number {
    return this.states.restores;
  }

  /** partitions this replica analyses now */
  ownedPartitions(): number[] {
    return [...this.assigned].sort((a, b) => a - b);
  }

  owns(workload: string): boolean {
    return this.assigned.has(partitionOf(workload, this.options.partitions));
  }

  /** owned and restored: this replica's analysis and action engine are the workload's */
  drives(workload: string): boolean {
    const p = partitionOf(workload, this.options.partitions);
    return this.assigned.has(p) && this.states.restored.has(p);
  }

  /** the owner's latest anomalies of a workload (newest last) */
  anomalies(workload: string): readonly AnomalyEvent[] {
    return this.states.recentAnomalies.of(workload);
  }

  async start(): Promise<void> {
    this.consumer.on('consumer:group:join', (event: { assignments?: { topic: string; partitions: number[] }[] | null }) => {
      const mine = new Set<number>();
      for (const a of event.assignments ?? []) if (a.topic === this.options.telemetryTopic) for (const p of a.partitions) mine.add(p);
      this.reassigned(mine);
    });
    this.stream = await this.consumer.consume({
      topics: [this.options.telemetryTopic],
      mode: 'committed',
      fallbackMode: 'earliest',
      autocommit: false,
      maxWaitTime: 200,
    });
    const stream = this.stream;
    // kept for the stream's whole life: a fetch or offset lookup failing after the loop let go
    // (a stop during a rebalance: "Client is closed") must not become an unhandled 'error'
    stream.on('error', (error: unknown) => {
      if (!this.stopping) this.options.log.warn({ err: error }, 'cluster: telemetry stream error');
    });
    this.loop = (async () => {
      for await (const message of stream) {
        if (this.stopping) break;
        await this.handle(message as TelemetryMessage);
      }
    })().catch((error: unknown) => {
      if (!this.stopping) this.options.log.error({ err: error }, 'cluster: telemetry consumption stopped');
    });
    this.timer = setInterval(() => void this.checkpoint(), this.options.checkpointMs);
  }

  /** After an analyzer tick: owned workloads that stepped publish their view. */
  async afterStep(output: StepOutput): Promise<void> {
    if (output.snapshots.length === 0) return;
    this.states.recentAnomalies.add(output.anomalies);
    const messages: OutgoingRecord[] = [];
    for (const s of output.snapshots) {
      const p = partitionOf(s.key, this.options.partitions);
      if (!this.assigned.has(p)) continue;
      messages.push({ topic: this.options.stateTopic, partition: p, key: viewKey(s.key), value: JSON.stringify({ snapshot: s, anomalies: this.anomalies(s.key) }) });
    }
    if (messages.length === 0) return;
    try {
      await this.producer.send(messages);
    } catch (error) {
      this.options.log.warn({ err: error, workloads: messages.length }, 'cluster: publishing the read view failed; the next tick writes it again');
    }
  }

  /** Writes every owned partition's state and commits its replay offset. */
  checkpoint(): Promise<void> {
    this.checkpointing ??= this.runCheckpoint().finally(() => {
      this.checkpointing = undefined;
    });
    return this.checkpointing;
  }

  /** Checkpoints (bounded), leaves the group (bounded, then forced); never throws. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer !== undefined) clearInterval(this.timer);
    const checkpoint = await settleWithin(Promise.all([this.states.flushing, this.checkpoint()]), STOP_CHECKPOINT_MS);
    if (checkpoint !== 'settled') this.options.log.warn({ outcome: checkpoint }, 'cluster: the last checkpoint did not complete; a successor replays from the one before');
    await settleWithin(Promise.all([this.stream?.close(), this.loop]), STOP_CONSUMING_MS);
    if ((await settleWithin(closeConsumer(this.consumer), STOP_LEAVE_MS)) === 'timed_out') {
      this.options.log.warn({ waitedMs: STOP_LEAVE_MS }, 'cluster: leaving the group took too long; closing without waiting');
      await settleWithin(closeConsumer(this.consumer, true), STOP_REST_MS);
    }
    await settleWithin(Promise.all([this.states.close(), this.producer.close()]), STOP_REST_MS);
  }

  private reassigned(mine: Set<number>): void {
    const lost = [...this.states.restored].filter((p) => !mine.has(p));
    this.assigned = mine;
    this.options.log.info({ partitions: [...mine].sort((a, b) => a - b), lost }, 'cluster: partitions assigned');
    if (lost.length > 0) void this.states.handOver(lost);
    // restore at once, not at the partition's next record: its workloads are analysed (and listed) here from now on
    for (const p of mine) this.states.restoreNow(p, RESTORE_RETRY_FIRST_MS);
  }

  private async handle(m: TelemetryMessage): Promise<void> {
    const p = m.partition;
    if (!this.assigned.has(p)) return;
    if (!this.states.restored.has(p)) await this.states.ensureRestored(p);
    if (!this.assigned.has(p)) return;
    const next = this.states.replay.nextOffset(p);
    if (next === undefined) this.states.replay.startAt(p, m.offset); // the first record since the restore: the committed offset
    else if (m.offset < next) return; // already handed over (a refetch after a rebalance)
    const workload = m.key;
    if (workload === undefined || m.value === undefined) {
      this.states.replay.consumed(p, m.offset, '', Number.NEGATIVE_INFINITY);
      return;
    }
    let telemetry;
    try {
      telemetry = decodeTelemetry(workload, m.value);
    } catch (error) {
      if (!(error instanceof TelemetryRecordError)) throw error;
      this.options.dropped('invalid', 1);
      this.options.log.warn({ partition: p, offset: String(m.offset), reason: error.message }, 'cluster: unreadable telemetry record skipped');
      this.states.replay.consumed(p, m.offset, workload, Number.NEGATIVE_INFINITY);
      return;
    }
    const batch = { metrics: telemetry.metrics, logs: telemetry.logs, spans: telemetry.spans, rejected: 0 };
    if (m.offset < (this.states.replayUntil.get(p) ?? 0n)) this.countReplayed(batch);
    if (!this.pipeline.offer(batch)) {
      this.pipeline.drain();
      this.pipeline.offer(batch);
    }
    this.states.replay.consumed(p, m.offset, workload, Math.floor(latestTimeMs(telemetry) / this.options.bucketMs));
  }

  private countReplayed(batch: { metrics: readonly unknown[]; logs: readonly unknown[]; spans: readonly unknown[] }): void {
    if (batch.metrics.length > 0) this.options.replayed('metrics', batch.metrics.length);
    if (batch.logs.length > 0) this.options.replayed('logs', batch.logs.length);
    if (batch.spans.length > 0) this.options.replayed('traces', batch.spans.length);
  }

  private async runCheckpoint(): Promise<void> {
    this.pipeline.drain();
    const owned = [...this.states.restored].filter((p) => this.assigned.has(p));
    if (owned.length === 0) return;
    const offsets: { topic: string; partition: number; offset: bigint; leaderEpoch: number }[] = [];
    for (const p of owned) {
      const from = this.states.replay.replayFrom(p, this.core);
      if (from !== undefined) offsets.push({ topic: this.options.telemetryTopic, partition: p, offset: from, leaderEpoch: -1 });
    }
    // the offsets above settle every record whose bucket is processed, so the state of every
    // workload that processed a bucket since its last write goes with them (read off the analysis
    // itself: afterStep, which publishes the views, runs only once a tick is stored)
    const ours = (p: number): boolean => this.states.restored.has(p) && this.assigned.has(p);
    try {
      // in writes of bounded size, each confirmed only while still ours: a workload released meanwhile has no written state to track here
      await sendPendingStates(this.states.ledger, this.producer, ours, ours);
      // commit only partitions still ours: a commit for a partition that moved would rewind its new owner
      const still = offsets.filter((o) => this.assigned.has(o.partition));
      if (still.length > 0) await this.consumer.commit({ offsets: still });
    } catch (error) {
      this.options.log.warn({ err: error }, 'cluster: checkpoint failed; the next one retries (a new owner would replay from the previous one)');
    }
  }
}
