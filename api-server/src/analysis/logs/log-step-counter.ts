/**
 * Per-workload counting of classified log lines per 15-s bucket (by sample time), and the
 * per-step log quantities other formulas read: sentiment S_log (mood, analytics.md §3.3), the
 * log error share (contagion fallback, §3.2), the mood gate "a classified line in the last 60 s"
 * and log presence "a line within 5 min" (fusion, §4.3). Pure.
 *
 * State bound: at most {@link MAX_OPEN_LOG_BUCKETS} open buckets of four counters each plus a few
 * numbers; lines beyond that (or for buckets already taken) are dropped and counted in
 * `droppedLines`. observe() allocates only when it opens a bucket.
 */
import { z } from 'zod';
import type { LogClass } from '../../model/records.js';

export const LOG_BUCKET_MS = 15_000;
/** Times beyond the Date range (±8.64e15 ms) are refused like non-finite ones. */
export const MAX_TIME_MS = 8.64e15;
/** Open (not yet taken) buckets kept per workload: covers a one-hour backfill (240 buckets). */
export const MAX_OPEN_LOG_BUCKETS = 256;
/** Mood gate of §3.3: a classified line within 60 s = the step's bucket and the 3 before it. */
export const MOOD_GATE_BUCKETS = 4;
/** Presence of §4.3: a line within 5 min = the step's bucket and the 19 before it. */
export const LOG_PRESENCE_BUCKETS = 20;

/** Line counts of one bucket. `error` holds ERROR and FATAL. */
export interface LogBucketCounts {
  info: number;
  warn: number;
  error: number;
  ignored: number;
}

/** What {@link LogBucketCounter.take} hands to the analysis step of one bucket. */
export interface LogStepCounts extends LogBucketCounts {
  bucketIndex: number;
  /** at least one info/warn/error line in this bucket or the 3 before it (mood gate, §3.3) */
  recentClassified: boolean;
  /** at least one line of any class in this bucket or the 19 before it (logR presence, §4.3) */
  present: boolean;
}

export function bucketIndexOf(timeMs: number): number {
  return Math.floor(timeMs / LOG_BUCKET_MS);
}

/**
 * S_log = ln(1 + n_pos) − ln(1 + n_neg), n_pos = info, n_neg = warn + 2·error (§3.3).
 * Non-finite or negative counts are treated as 0 (clamped), so the result is always finite.
 */
export function logSentiment(counts: Pick<LogBucketCounts, 'info' | 'warn' | 'error'>): number {
  const pos = safeCount(counts.info);
  const neg = safeCount(counts.warn) + 2 * safeCount(counts.error);
  const s = Math.log1p(pos) - Math.log1p(neg);
  return Number.isFinite(s) ? s : 0;
}

/** The mood term 0.2·tanh(S_log/2) of §3.3 (non-finite S_log → 0). In [−0.2, 0.2]. */
export function logMoodTerm(sentiment: number): number {
  return Number.isFinite(sentiment) ? 0.2 * Math.tanh(sentiment / 2) : sentiment > 0 ? 0.2 : sentiment < 0 ? -0.2 : 0;
}

/**
 * Log error share of §3.2: error / (info + warn + error); 0 without classified lines.
 * Non-finite or negative counts are treated as 0. In [0, 1].
 */
export function logErrorShare(counts: Pick<LogBucketCounts, 'info' | 'warn' | 'error'>): number {
  const info = safeCount(counts.info);
  const warn = safeCount(counts.warn);
  const error = safeCount(counts.error);
  const all = info + warn + error;
  if (!(all > 0) || !Number.isFinite(all)) return 0;
  return Math.min(1, Math.max(0, error / all));
}

function safeCount(n: number): number {
  return Number.isFinite(n) && n > 0 ? n : 0;
}

interface MutableCounts {
  info: number;
  warn: number;
  error: number;
  ignored: number;
}

const counterStateSchema = z.object({
  open: z.array(z.tuple([z.number().int(), z.number().min(0), z.number().min(0), z.number().min(0), z.number().min(0)])),
  takenThrough: z.number().int().nullable(),
  lastClassifiedBucket: z.number().int().nullable(),
  lastAnyBucket: z.number().int().nullable(),
  droppedLines: z.number().min(0),
});
/** JSON form of a {@link LogBucketCounter}: open buckets as [index, info, warn, error, ignored]. */
export type LogBucketCounterState = z.infer<typeof counterStateSchema>;

/** Counts classified lines per 15-s bucket of one workload until the analysis step takes them. */
export class LogBucketCounter {
  private readonly open = new Map<number, MutableCounts>();
  private takenThrough: number | null = null;
  private lastClassifiedBucket: number | null = null;
  private lastAnyBucket: number | null = null;
  /** lines dropped: non-finite time, bucket already taken, older than a taken bucket, or too many open buckets */
  droppedLines = 0;

  /**
   * Counts one line of class `cls` at sample time `timeMs`. Returns false (and counts it in
   * droppedLines) when the time is not finite or beyond ±8.64e15 ms, its bucket was already taken, or the bucket would
   * exceed {@link MAX_OPEN_LOG_BUCKETS} (the oldest open bucket is then evicted and its lines dropped).
   */
  observe(cls: LogClass, timeMs: number): boolean {
    if (!Number.isFinite(timeMs) || Math.abs(timeMs) > MAX_TIME_MS) {
      this.droppedLines++;
      return false;
    }
    const b = bucketIndexOf(timeMs);
    if (this.takenThrough !== null && b <= this.takenThrough) {
      this.droppedLines++;
      return false;
    }
    let counts = this.open.get(b);
    if (counts === undefined) {
      if (this.open.size >= MAX_OPEN_LOG_BUCKETS) {
        const oldest = this.oldestOpen();
        if (oldest !== null && oldest < b) {
          const gone = this.open.get(oldest);
          if (gone) this.droppedLines += gone.info + gone.warn + gone.error + gone.ignored;
          this.open.delete(oldest);
        } else {
          this.droppedLines++;
          return false;
        }
      }
      counts = { info: 0, warn: 0, error: 0, ignored: 0 };
      this.open.set(b, counts);
    }
    counts[cls]++;
    return true;
  }

  /**
   * Closes bucket `bucketIndex` for counting: returns its counts (zeros when it had no line) and
   * forgets it and every older open bucket (their lines count as dropped); later lines for it are dropped. Call once per
   * analysis step in ascending bucket order.
   */
  take(bucketIndex: number): LogStepCounts {
    const counts = this.open.get(bucketIndex);
    for (const [b, c] of [...this.open]) {
      if (b > bucketIndex) continue;
      if (b < bucketIndex) this.droppedLines += c.info + c.warn + c.error + c.ignored;
      this.open.delete(b);
    }
    const info = counts?.info ?? 0;
    const warn = counts?.warn ?? 0;
    const error = counts?.error ?? 0;
    const ignored = counts?.ignored ?? 0;
    if (info + warn + error > 0) this.lastClassifiedBucket = bucketIndex;
    if (info + warn + error + ignored > 0) this.lastAnyBucket = bucketIndex;
    if (this.takenThrough === null || bucketIndex > this.takenThrough) this.takenThrough = bucketIndex;
    return {
      bucketIndex,
      info,
      warn,
      error,
      ignored,
      recentClassified: within(this.lastClassifiedBucket, bucketIndex, MOOD_GATE_BUCKETS),
      present: within(this.lastAnyBucket, bucketIndex, LOG_PRESENCE_BUCKETS),
    };
  }

  /** Whether the workload had a line of any class in bucket `bucketIndex` or the 19 before (taken buckets only). */
  presentAt(bucketIndex: number): boolean {
    return within(this.lastAnyBucket, bucketIndex, LOG_PRESENCE_BUCKETS);
  }

  /** Number of open buckets (for tests and self-metrics). */
  openBuckets(): number {
    return this.open.size;
  }

  exportState(): LogBucketCounterState {
    const open: LogBucketCounterState['open'] = [];
    for (const [b, c] of this.open) open.push([b, c.info, c.warn, c.error, c.ignored]);
    return {
      open,
      takenThrough: this.takenThrough,
      lastClassifiedBucket: this.lastClassifiedBucket,
      lastAnyBucket: this.lastAnyBucket,
      droppedLines: this.droppedLines,
    };
  }

  /** Rebuilds a counter from {@link exportState} output; throws a ZodError naming the field when malformed. */
  static fromState(state: unknown): LogBucketCounter {
    const s = counterStateSchema.parse(state);
    const c = new LogBucketCounter();
    for (const [b, info, warn, error, ignored] of s.open.slice(-MAX_OPEN_LOG_BUCKETS)) c.open.set(b, { info, warn, error, ignored });
    c.takenThrough = s.takenThrough;
    c.lastClassifiedBucket = s.lastClassifiedBucket;
    c.lastAnyBucket = s.lastAnyBucket;
    c.droppedLines = s.droppedLines;
    return c;
  }

  private oldestOpen(): number | null {
    let min: number | null = null;
    for (const b of this.open.keys()) if (min === null || b < min) min = b;
    return min;
  }
}

function within(last: number | null, bucketIndex: number, span: number): boolean {
  return last !== null && last <= bucketIndex && bucketIndex - last < span;
}
