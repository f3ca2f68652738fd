/**
 * The analysis state of the partitions a replica owns (partition-owner.ts has the whole story):
 * a partition assigned here is restored from the state topic before its records are analysed
 * (retried with backoff while it stays assigned); a partition taken away has its states written
 * (bounded by HANDOVER_MS) and then its workloads leave the local analysis.
 */
import type { Action } from '../actions/action.js';
import type { WorkloadActionControl } from '../actions/action-repository.js';
import type { AnalysisCore } from '../analysis/contract.js';
import type { IngestPipeline } from '../pipeline/ingest-pipeline.js';
import type { StringConsumer } from './group-consumer.js';
import { importPartitionState } from './partition-import.js';
import { closeConsumer, newReadConsumer } from './partition-reader.js';
import { readPartitionState } from './partition-state.js';
import { RecentAnomalies } from './recent-anomalies.js';
import { ReplayOffsets } from './replay-offsets.js';
import type { SerialProducer } from './serial-producer.js';
import { settleWithin } from './settle-within.js';
import { sendPendingStates, StateLedger } from './state-ledger.js';
import { partitionOf } from './workload-partition.js';

/** the cluster code's logger (pino's shape) */
export interface ClusterLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export interface PartitionStatesOptions {
  brokers: string[];
  clientId: string;
  stateTopic: string;
  partitions: number;
  log: ClusterLog;
  adoptActions?(belongs: (workload: string) => boolean, actions: Action[], controls: Map<string, WorkloadActionControl>): void;
  /** whether partition p is assigned to this replica now */
  assigned(p: number): boolean;
  stopping(): boolean;
}

/** backoff of a failed partition restore: first retry, and the longest wait between retries */
export const RESTORE_RETRY_FIRST_MS = 500;
const RESTORE_RETRY_MAX_MS = 10_000;
/** longest wait for the states of partitions taken away to be written before they are dropped */
const HANDOVER_MS = 3_000;

export class PartitionStates {
  /** partitions whose states are imported here (restored and not released) */
  readonly restored = new Set<number>();
  private readonly restoring = new Map<number, Promise<void>>();
  readonly replay = new ReplayOffsets();
  /** per partition, the previous owner's recorded read position: records below it are replays */
  readonly replayUntil = new Map<number, bigint>();
  readonly ledger: StateLedger;
  readonly recentAnomalies = new RecentAnomalies();
  /** state writes outside checkpoints (rebalance start, hand-over), one after another */
  flushing: Promise<void> = Promise.resolve();
  /** restores done, for /health and the tests */
  restores = 0;
  private readonly reader: StringConsumer;

  constructor(
    private readonly core: AnalysisCore,
    private readonly pipeline: IngestPipeline,
    private readonly producer: SerialProducer,
    private readonly options: PartitionStatesOptions,
  ) {
    this.reader = newReadConsumer(options.brokers, `${options.clientId}-restore`, (error) => options.log.warn({ err: error }, 'cluster: restore reader error'));
    this.ledger = new StateLedger(core, this.replay, options.stateTopic, options.partitions);
  }

  /**
   * Restores partition p now; a failure is retried with growing backoff (and at the partition's
   * next record, whichever comes first) for as long as the partition stays assigned here, so a
   * quiet partition does not wait for traffic to be served again.
   */
  restoreNow(p: number, retryMs: number): void {
    this.ensureRestored(p).catch((error: unknown) => {
      this.options.log.error({ partition: p, err: error, retryInMs: retryMs }, 'cluster: restoring a partition failed; retrying');
      const retry = setTimeout(() => {
        if (!this.options.stopping() && this.options.assigned(p) && !this.restored.has(p)) this.restoreNow(p, Math.min(RESTORE_RETRY_MAX_MS, retryMs * 2));
      }, retryMs);
      retry.unref();
    });
  }

  /** the partition's workloads imported from the state topic (once per assignment) */
  ensureRestored(p: number): Promise<void> {
    if (this.restored.has(p)) return Promise.resolve();
    let pending = this.restoring.get(p);
    if (pending === undefined) {
      pending = this.restore(p).finally(() => this.restoring.delete(p));
      this.restoring.set(p, pending);
    }
    return pending;
  }

  /** partitions taken away: their states written (bounded), then their workloads leave */
  async handOver(lost: number[]): Promise<void> {
    const outcome = await settleWithin(this.flushStates(lost), HANDOVER_MS);
    if (outcome !== 'settled') this.options.log.warn({ partitions: lost, outcome }, 'cluster: hand-over states not written; the new owner restores the last checkpoint');
    // back here meanwhile (a quick second rebalance): keep analysing them
    for (const p of lost) if (!this.options.assigned(p) && this.restored.has(p)) this.release(p);
  }

  /** Writes the states of the given partitions' workloads that moved since their last write (no offset commit). */
  flushStates(partitions: number[]): Promise<void> {
    const run = this.flushing.then(async () => {
      this.pipeline.drain();
      const wanted = new Set(partitions.filter((p) => this.restored.has(p)));
      // in writes of bounded size; a partition released meanwhile has nothing to track here
      const states = await sendPendingStates(this.ledger, this.producer, (p) => wanted.has(p), (p) => this.restored.has(p));
      if (states > 0) this.options.log.info({ partitions: [...wanted], states }, 'cluster: states written for the hand-over');
    });
    this.flushing = run.catch((error: unknown) => this.options.log.warn({ err: error }, 'cluster: writing hand-over states failed'));
    return run;
  }

  /** closes the restore reader (forced); never throws */
  close(): Promise<void> {
    return closeConsumer(this.reader, true);
  }

  /** the partition moved away: its workloads leave this replica's analysis */
  private release(p: number): void {
    this.pipeline.drain();
    let dropped = 0;
    for (const key of this.core.workloadKeys()) {
      if (partitionOf(key, this.options.partitions) !== p) continue;
      this.core.removeWorkload(key);
      this.recentAnomalies.forget(key);
      this.ledger.forgetWorkload(key);
      dropped += 1;
    }
    this.replay.forget(p);
    this.restored.delete(p);
    this.replayUntil.delete(p);
    this.ledger.forgetPartition(p);
    this.options.log.info({ partition: p, workloads: dropped }, 'cluster: partition released');
  }

  /** Imports partition p's workloads from the state topic (consumption continues at the committed offset). */
  private async restore(p: number): Promise<void> {
    const started = Date.now();
    const state = await readPartitionState(this.reader, this.options.stateTopic, p);
    const position = state.position;
    this.pipeline.drain();
    const imported = importPartitionState(p, state, {
      core: this.core,
      ledger: this.ledger,
      anomalies: this.recentAnomalies,
      belongs: (w) => partitionOf(w, this.options.partitions) === p,
      log: this.options.log,
      adoptActions: this.options.adoptActions?.bind(this.options),
    });
    this.replay.forget(p);
    this.replayUntil.set(p, position ?? 0n);
    if (position !== undefined) this.ledger.restoredPosition(p, position);
    this.restored.add(p);
    this.restores += 1;
    this.options.log.info({ partition: p, workloads: imported, ms: Date.now() - started }, 'cluster: partition restored');
    // taken away while it was being read: let go again
    if (!this.options.assigned(p)) this.release(p);
  }
}
