/**
 * Per-workload span window and traceR of analytics.md §4.2. Pure: time is the span start time
 * (or the step time passed to flushIfDue).
 *
 * Flush rule: after adding a span, the window flushes when it holds ≥ 10 spans or when the
 * span's start time is ≥ 15 s after the window start (the window start is the first span's start
 * time, then the time of the last flush). The span that triggers the flush belongs to the
 * flushed window. flushIfDue(t) lets the analysis step flush a quiet window by the same 15-s rule.
 *
 * On flush: error_rate = errors/spans (status 2 = error; 0/1 are not), avg_ms = mean duration,
 * p99_ms = 99th percentile with linear interpolation, traceR form B = 0.6·error_rate +
 * 0.4·avg_ms/200 (fed to fusion) and form A = error_rate·p99_ms/latency_baseline (diagnostic),
 * latency_baseline = EWMA (α 0.1) of p99_ms over flushes, initialised with the first flush,
 * floored at 1 ms; form A of a flush uses the baseline before that flush's update (the first
 * flush: its own p99).
 *
 * State bound: 10 durations in a preallocated array plus a few numbers; observe() allocates
 * nothing unless it flushes (one result object per flush).
 */
import { z } from 'zod';
import type { SpanRecord } from '../../model/records.js';
import { MAX_SPAN_DURATION_MS } from './service-graph.js';

export const SPAN_WINDOW_MAX_SPANS = 10;
export const SPAN_WINDOW_MAX_AGE_MS = 15_000;
export const TRACE_PRESENCE_MS = 5 * 60_000;
export const LATENCY_BASELINE_ALPHA = 0.1;
export const LATENCY_BASELINE_FLOOR_MS = 1;

/** Result of one window flush. */
export interface SpanFlush {
  /** flush time: start time of the triggering span, or the time given to flushIfDue (epoch ms) */
  timeMs: number;
  spans: number;
  errors: number;
  errorRate: number;
  avgMs: number;
  p99Ms: number;
  /** form B, fed to fusion */
  traceR: number;
  /** form A, diagnostic */
  traceRA: number;
  /** latency baseline used by form A (ms) */
  latencyBaselineMs: number;
}

/**
 * Percentile `q` ∈ [0, 1] of ascending `sorted` values with linear interpolation between ranks
 * (rank h = q·(n − 1)). 0 for an empty list; q is clamped to [0, 1] (NaN → 0).
 */
export function percentileLinear(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return 0;
  const qq = Number.isFinite(q) ? Math.min(1, Math.max(0, q)) : q > 0 ? 1 : 0;
  const h = qq * (n - 1);
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/** traceR form B = 0.6·errorRate + 0.4·(avgMs/200). Non-finite or negative inputs read as 0; errorRate clamped to ≤ 1. */
export function traceRFormB(errorRate: number, avgMs: number): number {
  return 0.6 * rate(errorRate) + 0.4 * (nonNegative(avgMs) / 200);
}

/** traceR form A = errorRate·(p99Ms / max(baselineMs, 1)). Non-finite or negative inputs read as 0; errorRate clamped to ≤ 1. */
export function traceRFormA(errorRate: number, p99Ms: number, latencyBaselineMs: number): number {
  return rate(errorRate) * (nonNegative(p99Ms) / Math.max(LATENCY_BASELINE_FLOOR_MS, nonNegative(latencyBaselineMs)));
}

function nonNegative(x: number): number {
  return Number.isFinite(x) && x > 0 ? Math.min(x, MAX_SPAN_DURATION_MS) : 0;
}

function rate(x: number): number {
  return Number.isFinite(x) && x > 0 ? Math.min(1, x) : 0;
}

const windowStateSchema = z.object({
  durations: z.array(z.number().min(0)).max(SPAN_WINDOW_MAX_SPANS),
  errors: z.number().int().min(0),
  windowStartMs: z.number().nullable(),
  latencyBaselineMs: z.number().min(0).nullable(),
  lastFlush: z
    .object({
      timeMs: z.number(),
      spans: z.number(),
      errors: z.number(),
      errorRate: z.number(),
      avgMs: z.number(),
      p99Ms: z.number(),
      traceR: z.number(),
      traceRA: z.number(),
      latencyBaselineMs: z.number(),
    })
    .nullable(),
});
/** JSON form of a {@link SpanWindow}. */
export type SpanWindowState = z.infer<typeof windowStateSchema>;

export class SpanWindow {
  private readonly durations = new Float64Array(SPAN_WINDOW_MAX_SPANS);
  private held = 0;
  private errors = 0;
  private windowStartMs: number | null = null;
  private latencyBaselineMs: number | null = null;
  private last: SpanFlush | null = null;
  /** spans refused for a non-finite start or end time */
  rejectedSpans = 0;

  /**
   * Adds one span; returns the flush it triggered, else null. Spans with a non-finite start or end
   * are refused (counted, null). Durations are end − start clamped to [0, 1e9] ms.
   */
  observe(span: Pick<SpanRecord, 'startMs' | 'endMs' | 'statusCode'>): SpanFlush | null {
    if (!Number.isFinite(span.startMs) || !Number.isFinite(span.endMs)) {
      this.rejectedSpans++;
      return null;
    }
    if (this.windowStartMs === null) this.windowStartMs = span.startMs;
    this.durations[this.held++] = Math.min(MAX_SPAN_DURATION_MS, Math.max(0, span.endMs - span.startMs));
    if (span.statusCode === 2) this.errors++;
    if (this.held >= SPAN_WINDOW_MAX_SPANS || span.startMs - this.windowStartMs >= SPAN_WINDOW_MAX_AGE_MS) {
      return this.flush(span.startMs);
    }
    return null;
  }

  /**
   * Flushes a window holding at least one span when `nowMs` is ≥ 15 s after the window start
   * (for the analysis step, with t_step). Returns the flush or null. Non-finite nowMs → null.
   */
  flushIfDue(nowMs: number): SpanFlush | null {
    if (!Number.isFinite(nowMs) || this.held === 0 || this.windowStartMs === null) return null;
    if (nowMs - this.windowStartMs < SPAN_WINDOW_MAX_AGE_MS) return null;
    return this.flush(nowMs);
  }

  /** The latest flush, or null. */
  lastFlush(): SpanFlush | null {
    return this.last;
  }

  /** Trace presence of §4.3: a flush within 5 min of `nowMs` (and not after it). */
  isPresent(nowMs: number): boolean {
    return this.last !== null && nowMs - this.last.timeMs <= TRACE_PRESENCE_MS && this.last.timeMs <= nowMs;
  }

  /** Spans currently held (≤ 10). */
  heldSpans(): number {
    return this.held;
  }

  exportState(): SpanWindowState {
    return {
      durations: Array.from(this.durations.subarray(0, this.held)),
      errors: this.errors,
      windowStartMs: this.windowStartMs,
      latencyBaselineMs: this.latencyBaselineMs,
      lastFlush: this.last === null ? null : { ...this.last },
    };
  }

  /** Rebuilds a window from {@link exportState} output; throws a ZodError naming the field when malformed. */
  static fromState(state: unknown): SpanWindow {
    const s = windowStateSchema.parse(state);
    const w = new SpanWindow();
    for (const d of s.durations) w.durations[w.held++] = Math.min(d, MAX_SPAN_DURATION_MS);
    w.errors = Math.min(s.errors, w.held);
    w.windowStartMs = s.windowStartMs;
    w.latencyBaselineMs = s.latencyBaselineMs;
    w.last = s.lastFlush;
    return w;
  }

  private flush(timeMs: number): SpanFlush {
    const n = this.held;
    const sorted = this.durations.subarray(0, n).sort();
    let sum = 0;
    for (let i = 0; i < n; i++) sum += sorted[i];
    const avgMs = sum / n;
    const p99Ms = percentileLinear(sorted, 0.99);
    const errorRate = this.errors / n;
    const baseline = Math.max(LATENCY_BASELINE_FLOOR_MS, this.latencyBaselineMs ?? p99Ms);
    const result: SpanFlush = {
      timeMs,
      spans: n,
      errors: this.errors,
      errorRate,
      avgMs,
      p99Ms,
      traceR: traceRFormB(errorRate, avgMs),
      traceRA: traceRFormA(errorRate, p99Ms, baseline),
      latencyBaselineMs: baseline,
    };
    this.latencyBaselineMs =
      this.latencyBaselineMs === null ? Math.max(LATENCY_BASELINE_FLOOR_MS, p99Ms) : Math.max(LATENCY_BASELINE_FLOOR_MS, (1 - LATENCY_BASELINE_ALPHA) * this.latencyBaselineMs + LATENCY_BASELINE_ALPHA * p99Ms);
    this.held = 0;
    this.errors = 0;
    this.windowStartMs = timeMs;
    this.last = result;
    return result;
  }
}
