/**
 * Log burst detector, baseline and logR of analytics.md §4.1, one instance per workload, driven
 * once per analysis step with the counts of the step's bucket. Pure: event ids come from the
 * injected factory.
 *
 * Baseline: the previous {@link LOG_BASELINE_BUCKETS} closed buckets (buckets skipped between two
 * steps count as closed buckets with 0 lines); μ = mean, σ = population standard deviation of
 * c = warn + error lines per bucket; ready with ≥ {@link LOG_BASELINE_MIN_BUCKETS} buckets.
 * A burst starts at a bucket with c > μ + 3σ (baseline ready) and ends at the first bucket that is
 * not above. logR = c / max(μ, 1) every step (before the baseline is ready μ is the mean of the
 * buckets seen so far, 0 with none).
 *
 * State bound: a ring of 20 counts, one open burst event and a few numbers.
 */
import { z } from 'zod';
import { LOG_BUCKET_MS } from './log-step-counter.js';

export const LOG_BASELINE_BUCKETS = 20;
export const LOG_BASELINE_MIN_BUCKETS = 5;
export const LOG_BURST_SIGMAS = 3;

export type LogBurstLevel = 'warn' | 'error';

/** A burst event: emitted (endMs null) at start, emitted again with endMs at its end. */
export interface LogBurstEvent {
  id: string;
  workload: string;
  /** start of the first bucket above the threshold (epoch ms) */
  startMs: number;
  /** start of the first bucket no longer above (epoch ms); null while running */
  endMs: number | null;
  /** warn + error lines of the burst buckets so far */
  count: number;
  /** μ / 15 lines per second at the burst start */
  baselineRate: number;
  /** highest class seen during the burst */
  level: LogBurstLevel;
}

/** Counts of one step's bucket as the detector needs them. */
export interface LogBurstInput {
  bucketIndex: number;
  warn: number;
  error: number;
}

export interface LogBurstStep {
  bucketIndex: number;
  /** c_b = warn + error lines of the bucket (non-finite or negative counts read as 0) */
  count: number;
  /** c_b / max(μ, 1) */
  logR: number;
  baselineMean: number;
  baselineStd: number;
  /** number of closed buckets in the baseline (≤ 20) */
  baselineBuckets: number;
  baselineReady: boolean;
  /** the bucket is part of a burst */
  inBurst: boolean;
  /** set in the step a burst starts (endMs null) */
  started: LogBurstEvent | null;
  /** set in the step a burst ends (endMs set); may come with `started` of a new burst only after a gap */
  ended: LogBurstEvent | null;
}

/** logR = count / max(baselineMean, 1); non-finite or negative inputs read as 0, so always finite and ≥ 0. */
export function logRatio(count: number, baselineMean: number): number {
  const c = Number.isFinite(count) && count > 0 ? count : 0;
  const mu = Number.isFinite(baselineMean) && baselineMean > 1 ? baselineMean : 1;
  return c / mu;
}

const eventSchema = z.object({
  id: z.string(),
  workload: z.string(),
  startMs: z.number(),
  endMs: z.number().nullable(),
  count: z.number().min(0),
  baselineRate: z.number().min(0),
  level: z.enum(['warn', 'error']),
});

const burstStateSchema = z.object({
  counts: z.array(z.number().min(0)).max(LOG_BASELINE_BUCKETS),
  lastBucket: z.number().int().nullable(),
  burst: eventSchema.nullable(),
});
/** JSON form of a {@link LogBurstDetector}: baseline counts oldest first. */
export type LogBurstState = z.infer<typeof burstStateSchema>;

export class LogBurstDetector {
  private readonly ring = new Float64Array(LOG_BASELINE_BUCKETS);
  private filled = 0;
  private head = 0;
  private lastBucket: number | null = null;
  private burst: LogBurstEvent | null = null;

  constructor(readonly workload: string) {}

  /**
   * Runs one analysis step for bucket `input.bucketIndex` (ascending). A bucket index not above the
   * last one is evaluated against the current baseline but changes no state.
   */
  step(input: LogBurstInput, newId: () => string): LogBurstStep {
    const b = input.bucketIndex;
    const count = safe(input.warn) + safe(input.error);
    let ended: LogBurstEvent | null = null;
    const fresh = this.lastBucket === null || b > this.lastBucket;
    if (fresh && this.lastBucket !== null) {
      const gap = b - this.lastBucket - 1;
      if (gap > 0 && this.burst !== null) ended = this.endBurst((this.lastBucket + 1) * LOG_BUCKET_MS);
      for (let i = 0; i < Math.min(gap, LOG_BASELINE_BUCKETS); i++) this.push(0);
    }
    const { mean, std } = this.baseline();
    const ready = this.filled >= LOG_BASELINE_MIN_BUCKETS;
    const above = ready && count > mean + LOG_BURST_SIGMAS * std;
    let started: LogBurstEvent | null = null;
    if (fresh) {
      if (above) {
        const level: LogBurstLevel = safe(input.error) > 0 ? 'error' : 'warn';
        if (this.burst === null) {
          this.burst = { id: newId(), workload: this.workload, startMs: b * LOG_BUCKET_MS, endMs: null, count, baselineRate: mean / 15, level };
          started = { ...this.burst };
        } else {
          this.burst.count += count;
          if (level === 'error') this.burst.level = 'error';
        }
      } else if (this.burst !== null) {
        ended = this.endBurst(b * LOG_BUCKET_MS);
      }
      this.push(count);
      this.lastBucket = b;
    }
    return {
      bucketIndex: b,
      count,
      logR: logRatio(count, mean),
      baselineMean: mean,
      baselineStd: std,
      baselineBuckets: this.filled,
      baselineReady: ready,
      inBurst: above,
      started,
      ended,
    };
  }

  /** The running burst (a copy), or null. */
  currentBurst(): LogBurstEvent | null {
    return this.burst === null ? null : { ...this.burst };
  }

  exportState(): LogBurstState {
    return { counts: this.baselineCounts(), lastBucket: this.lastBucket, burst: this.currentBurst() };
  }

  /** Rebuilds a detector from {@link exportState} output; throws a ZodError naming the field when malformed. */
  static fromState(workload: string, state: unknown): LogBurstDetector {
    const s = burstStateSchema.parse(state);
    const d = new LogBurstDetector(workload);
    for (const c of s.counts) d.push(c);
    d.lastBucket = s.lastBucket;
    d.burst = s.burst === null ? null : { ...s.burst, workload };
    return d;
  }

  /** Baseline counts, oldest first. */
  baselineCounts(): number[] {
    const out: number[] = [];
    const start = (this.head - this.filled + LOG_BASELINE_BUCKETS) % LOG_BASELINE_BUCKETS;
    for (let i = 0; i < this.filled; i++) out.push(this.ring[(start + i) % LOG_BASELINE_BUCKETS]);
    return out;
  }

  private endBurst(endMs: number): LogBurstEvent {
    const e = { ...(this.burst as LogBurstEvent), endMs };
    this.burst = null;
    return e;
  }

  private push(c: number): void {
    this.ring[this.head] = c;
    this.head = (this.head + 1) % LOG_BASELINE_BUCKETS;
    if (this.filled < LOG_BASELINE_BUCKETS) this.filled++;
  }

  private baseline(): { mean: number; std: number } {
    if (this.filled === 0) return { mean: 0, std: 0 };
    let sum = 0;
    for (let i = 0; i < this.filled; i++) sum += this.ring[i];
    const mean = sum / this.filled;
    let sq = 0;
    for (let i = 0; i < this.filled; i++) sq += (this.ring[i] - mean) ** 2;
    return { mean, std: Math.sqrt(sq / this.filled) };
  }
}

/** Counts per bucket are clamped to [0, 1e9] (non-finite → 0) so sums stay finite. */
function safe(n: number): number {
  return Number.isFinite(n) && n > 0 ? Math.min(n, 1e9) : 0;
}
