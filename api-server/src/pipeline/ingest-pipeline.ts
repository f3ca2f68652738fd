/**
 * From decoded batches to the analysis buffers: drops and counts samples outside the accepted time
 * range (older than the 7-day raw retention or more than 5 min ahead, runtime.md "Time"), counts
 * what was accepted per source, and bounds what is waiting: when more than `maxPendingRecords`
 * records wait for the next drain, ingest is refused (429 / RESOURCE_EXHAUSTED) instead of growing
 * memory. Draining hands everything to the analysis core in arrival order.
 *
 * A second bound is the analysis' own backlog: the workload-buckets ingest opened that no step has
 * run yet (AnalysisCore.waitingBuckets, about 1 KB each, and a step's output holds about as much
 * again per bucket it runs). A backfill that arrives faster than the ticks analyse it would
 * otherwise grow without limit until the process dies (docs/memory-soak.md). While the backlog is
 * at or above `maxWaitingBuckets`, `behind` refuses whole batches (429 `analysis_backlog`, Retry-After
 * one tick): nothing of a refused batch is taken, so a sender that retries loses nothing.
 */
import type { AnalysisCore } from '../analysis/contract.js';
import type { DecodedBatch } from '../model/records.js';
import { RAW_RETENTION_MS } from '../model/retention.js';
import { RawPointBuckets } from './raw-point-buckets.js';

/** the raw retention of the table in model/retention.ts: older samples are dropped as too_old */
export { RAW_RETENTION_MS };
export const FUTURE_TOLERANCE_MS = 5 * 60_000;

export interface IngestCounters {
  accepted(source: 'metrics' | 'logs' | 'traces', n: number): void;
  dropped(reason: 'too_old' | 'in_future' | 'invalid' | 'queue_full' | 'analysis_backlog', n: number): void;
}

export class IngestPipeline {
  private pending: DecodedBatch[] = [];
  private pendingRecords = 0;
  private drainScheduled = false;
  readonly totals = { metrics: 0, logs: 0, traces: 0 };
  /** batches offered so far, taken or refused (the tick's slicer reads it to tell whether requests come in) */
  offers = 0;
  /** records in them (the tick's slicer reads it to tell a stream from a trickle) */
  offeredRecords = 0;
  /** 15-second means of every accepted metric point, for the raw storage tier */
  readonly rawPoints = new RawPointBuckets();

  constructor(
    private readonly core: AnalysisCore,
    private readonly counters: IngestCounters,
    private readonly now: () => number,
    private readonly maxPendingRecords = 1_000_000,
    /** the analysis backlog's bound (config/waiting-buckets.ts) */
    private readonly maxWaitingBuckets = 100_000,
  ) {}

  /**
   * True (and the batch's records counted as dropped `analysis_backlog`) when the analysis'
   * backlog is at or above its bound: the caller takes nothing of the batch and answers 429.
   */
  behind(batch: DecodedBatch): boolean {
    const waiting = this.core.waitingBuckets?.() ?? 0;
    if (waiting < this.maxWaitingBuckets) return false;
    const size = batch.metrics.length + batch.logs.length + batch.spans.length;
    if (size === 0) return false;
    // a refused batch is still ingest streaming in: the tick's slicer keeps its short slices
    this.offers += 1;
    this.offeredRecords += size;
    this.counters.dropped('analysis_backlog', size);
    return true;
  }

  get waiting(): number {
    return this.pendingRecords;
  }

  /** false when the queue is full: nothing of the batch was taken, the caller answers 429. */
  offer(batch: DecodedBatch): boolean {
    this.offers += 1;
    const size = batch.metrics.length + batch.logs.length + batch.spans.length;
    this.offeredRecords += size;
    if (size > 0 && this.pendingRecords + size > this.maxPendingRecords) {
      this.counters.dropped('queue_full', size);
      return false;
    }
    if (batch.rejected > 0) this.counters.dropped('invalid', batch.rejected);
    if (size === 0) return true;
    this.pending.push(batch);
    this.pendingRecords += size;
    if (!this.drainScheduled) {
      this.drainScheduled = true;
      setImmediate(() => this.drain());
    }
    return true;
  }

  /** Hands every waiting record to the analysis core. */
  drain(): void {
    this.drainScheduled = false;
    const batches = this.pending;
    this.pending = [];
    this.pendingRecords = 0;
    const now = this.now();
    const oldest = now - RAW_RETENTION_MS;
    const newest = now + FUTURE_TOLERANCE_MS;
    let tooOld = 0;
    let future = 0;
    for (const batch of batches) {
      let metrics = 0;
      for (const m of batch.metrics) {
        if (m.timeMs < oldest) tooOld += 1;
        else if (m.timeMs > newest) future += 1;
        else {
          this.core.observeMetric(m);
          this.rawPoints.add(m);
          metrics += 1;
        }
      }
      let logs = 0;
      for (const l of batch.logs) {
        if (l.timeMs < oldest) tooOld += 1;
        else if (l.timeMs > newest) future += 1;
        else {
          this.core.observeLog(l);
          logs += 1;
        }
      }
      let spans = 0;
      for (const s of batch.spans) {
        if (s.startMs < oldest) tooOld += 1;
        else if (s.startMs > newest) future += 1;
        else {
          this.core.observeSpan(s);
          spans += 1;
        }
      }
      this.count(metrics, logs, spans);
    }
    if (tooOld > 0) this.counters.dropped('too_old', tooOld);
    if (future > 0) this.counters.dropped('in_future', future);
  }

  private count(metrics: number, logs: number, spans: number): void {
    if (metrics > 0) {
      this.totals.metrics += metrics;
      this.counters.accepted('metrics', metrics);
    }
    if (logs > 0) {
      this.totals.logs += logs;
      this.counters.accepted('logs', logs);
    }
    if (spans > 0) {
      this.totals.traces += spans;
      this.counters.accepted('traces', spans);
    }
  }
}
