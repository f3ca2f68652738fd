/**
 * How many records of a batch fall outside the time window the ingest pipeline keeps (older than
 * the raw retention or too far ahead; the pipeline drops and counts them as too_old/in_future).
 * The OTLP/HTTP listener reports them in partial_success so a sender that wrote its times in the
 * wrong unit (milliseconds read as nanoseconds land in 1970) is told, not silently dropped.
 */
import type { DecodedBatch } from '../model/records.js';
import { FUTURE_TOLERANCE_MS, RAW_RETENTION_MS } from './ingest-pipeline.js';

export function countOutsideTimeWindow(batch: DecodedBatch, nowMs: number): number {
  const oldest = nowMs - RAW_RETENTION_MS;
  const newest = nowMs + FUTURE_TOLERANCE_MS;
  const outside = (t: number): boolean => t < oldest || t > newest;
  let n = 0;
  for (const m of batch.metrics) if (outside(m.timeMs)) n += 1;
  for (const l of batch.logs) if (outside(l.timeMs)) n += 1;
  for (const s of batch.spans) if (outside(s.startMs)) n += 1;
  return n;
}
