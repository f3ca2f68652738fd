/**
 * Per-bucket log series of analytics.md §4.1 (the reference's second log path), kept as general
 * inputs for the ensemble and anomaly detectors: log_error_rate = error lines / 15 s and
 * log_burst_index = volume / max(b, 1) with b ← 0.9·b + 0.1·volume (b₀ = the first volume;
 * the index of a bucket uses b before that bucket's update). volume = info + warn + error lines.
 * One instance per workload, one call per analysis step. State: one number. Pure.
 * Non-finite or negative counts read as 0 (each clamped to 1e9), so outputs are always finite.
 */
import type { LogBucketCounts } from './log-step-counter.js';

export interface LogSeriesPoint {
  /** ERROR + FATAL lines per second over the 15-s bucket */
  logErrorRate: number;
  logBurstIndex: number;
}

export class LogSeries {
  private level: number | null = null;

  step(counts: Pick<LogBucketCounts, 'info' | 'warn' | 'error'>): LogSeriesPoint {
    const error = safe(counts.error);
    const volume = safe(counts.info) + safe(counts.warn) + error;
    if (this.level === null) this.level = volume;
    const point = { logErrorRate: error / 15, logBurstIndex: volume / Math.max(this.level, 1) };
    this.level = 0.9 * this.level + 0.1 * volume;
    return point;
  }

  exportState(): { level: number | null } {
    return { level: this.level };
  }

  /** Rebuilds from {@link exportState}; a missing or non-finite level starts afresh. */
  static fromState(state: unknown): LogSeries {
    const s = new LogSeries();
    const level = typeof state === 'object' && state !== null ? (state as { level?: unknown }).level : undefined;
    if (typeof level === 'number' && Number.isFinite(level) && level >= 0) s.level = level;
    return s;
  }
}

function safe(n: number): number {
  return Number.isFinite(n) && n > 0 ? Math.min(n, 1e9) : 0;
}
