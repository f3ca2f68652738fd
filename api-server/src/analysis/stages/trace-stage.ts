/**
 * Stage 3 of the tick, traces (analytics.md §4.2): the bucket's spans into the workload's span
 * window, whose last flush gives traceR and traceRA while the trace source is present. Pure.
 */
import type { OpenBucket } from '../buckets/workload-buckets.js';
import { SpanWindow } from '../traces/span-window.js';

/** traceR and traceRA of the step (one object per step, shared by every workload) */
export interface TraceStepResult {
  traceR: number | null;
  traceRA: number | null;
}

const RESULT: TraceStepResult = { traceR: null, traceRA: null };

/** the workload's span window: created at its first span, null before */
export function spanWindowFor(window: SpanWindow | null, bucket: OpenBucket): SpanWindow | null {
  return window === null && bucket.spans.length > 0 ? new SpanWindow() : window;
}

/** §4.2: the bucket's spans into `window`; the trace ratios at `tStep` (null while the source is absent) */
export function traceStep(window: SpanWindow | null, bucket: OpenBucket, tStep: number): TraceStepResult {
  const out = RESULT;
  out.traceR = null;
  out.traceRA = null;
  if (window === null) return out;
  for (const span of bucket.spans) window.observe(span);
  window.flushIfDue(tStep);
  const flush = window.lastFlush();
  if (flush !== null && window.isPresent(tStep)) {
    out.traceR = flush.traceR;
    out.traceRA = flush.traceRA;
  }
  return out;
}
