/**
 * Telemetry records of one workload as one Kafka record of the telemetry topic: key = workload
 * key, value = compact JSON of positional tuples (the workload is the key, not repeated):
 *
 *   {"m":[[pod|null, name, value, timeMs], …],
 *    "l":[[pod|null, timeMs, severityNumber, severityText, body], …],
 *    "s":[[service, traceId, spanId, parentSpanId, name, kind, startMs, endMs, statusCode], …]}
 *
 * Decoding checks every tuple; a malformed record (written by something else) is refused whole
 * with the reason, and the consumer counts and skips it.
 */
import type { DecodedBatch, LogRecord, MetricRecord, SpanRecord } from '../model/records.js';

type MetricTuple = [string | null, string, number, number];
type LogTuple = [string | null, number, number, string, string];
type SpanTuple = [string, string, string, string, string, number, number, number, number];

export interface WorkloadTelemetry {
  metrics: MetricRecord[];
  logs: LogRecord[];
  spans: SpanRecord[];
}

/**
 * Splits a decoded batch by workload key, keeping each workload's records in arrival order.
 * Records with a non-finite number (which JSON cannot carry, and the analysis would refuse) are
 * left out and counted in `nonFinite`.
 */
export function groupByWorkload(batch: DecodedBatch): { groups: Map<string, WorkloadTelemetry>; nonFinite: number } {
  const out = new Map<string, WorkloadTelemetry>();
  let nonFinite = 0;
  const of = (key: string): WorkloadTelemetry => {
    let g = out.get(key);
    if (g === undefined) {
      g = { metrics: [], logs: [], spans: [] };
      out.set(key, g);
    }
    return g;
  };
  const F = Number.isFinite;
  for (const m of batch.metrics) {
    if (F(m.value) && F(m.timeMs)) of(m.workload).metrics.push(m);
    else nonFinite += 1;
  }
  for (const l of batch.logs) {
    if (F(l.timeMs) && F(l.severityNumber)) of(l.workload).logs.push(l);
    else nonFinite += 1;
  }
  for (const s of batch.spans) {
    if (F(s.startMs) && F(s.endMs) && F(s.kind) && F(s.statusCode)) of(s.workload).spans.push(s);
    else nonFinite += 1;
  }
  return { groups: out, nonFinite };
}

export function encodeTelemetry(t: WorkloadTelemetry): string {
  const m: MetricTuple[] = t.metrics.map((r) => [r.pod ?? null, r.name, r.value, r.timeMs]);
  const l: LogTuple[] = t.logs.map((r) => [r.pod ?? null, r.timeMs, r.severityNumber, r.severityText, r.body]);
  const s: SpanTuple[] = t.spans.map((r) => [r.service, r.traceId, r.spanId, r.parentSpanId, r.name, r.kind, r.startMs, r.endMs, r.statusCode]);
  return JSON.stringify({ m, l, s });
}

export class TelemetryRecordError extends Error {}

const isStr = (v: unknown): v is string => typeof v === 'string';
const isNum = (v: unknown): v is number => typeof v === 'number';
const isPod = (v: unknown): v is string | null => v === null || typeof v === 'string';

function tuples(doc: Record<string, unknown>, field: string, width: number): unknown[][] {
  const list = doc[field];
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new TelemetryRecordError(`${field}: must be an array`);
  list.forEach((t, i) => {
    if (!Array.isArray(t) || t.length !== width) throw new TelemetryRecordError(`${field}[${i}]: must be a tuple of ${width}`);
  });
  return list as unknown[][];
}

/** The records of one telemetry Kafka record; throws TelemetryRecordError naming the bad field. */
export function decodeTelemetry(workload: string, value: string): WorkloadTelemetry {
  let doc: unknown;
  try {
    doc = JSON.parse(value);
  } catch {
    throw new TelemetryRecordError('value: not JSON');
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new TelemetryRecordError('value: must be an object');
  const d = doc as Record<string, unknown>;
  const metrics = tuples(d, 'm', 4).map((t, i): MetricRecord => {
    const [pod, name, v, time] = t;
    if (!isPod(pod) || !isStr(name) || !isNum(v) || !isNum(time)) throw new TelemetryRecordError(`m[${i}]: [pod|null, name, value, timeMs] expected`);
    return { workload, pod: pod ?? undefined, name, value: v, timeMs: time };
  });
  const logs = tuples(d, 'l', 5).map((t, i): LogRecord => {
    const [pod, time, severityNumber, severityText, body] = t;
    if (!isPod(pod) || !isNum(time) || !isNum(severityNumber) || !isStr(severityText) || !isStr(body)) throw new TelemetryRecordError(`l[${i}]: [pod|null, timeMs, severityNumber, severityText, body] expected`);
    return { workload, pod: pod ?? undefined, timeMs: time, severityNumber, severityText, body };
  });
  const spans = tuples(d, 's', 9).map((t, i): SpanRecord => {
    const [service, traceId, spanId, parentSpanId, name, kind, startMs, endMs, statusCode] = t;
    if (!isStr(service) || !isStr(traceId) || !isStr(spanId) || !isStr(parentSpanId) || !isStr(name) || !isNum(kind) || !isNum(startMs) || !isNum(endMs) || !isNum(statusCode)) {
      throw new TelemetryRecordError(`s[${i}]: [service, traceId, spanId, parentSpanId, name, kind, startMs, endMs, statusCode] expected`);
    }
    return { workload, service, traceId, spanId, parentSpanId, name, kind, startMs, endMs, statusCode };
  });
  return { metrics, logs, spans };
}

/** The latest sample time of the records (ms), -Infinity when none. */
export function latestTimeMs(t: WorkloadTelemetry): number {
  let latest = Number.NEGATIVE_INFINITY;
  for (const m of t.metrics) if (m.timeMs > latest) latest = m.timeMs;
  for (const l of t.logs) if (l.timeMs > latest) latest = l.timeMs;
  for (const s of t.spans) {
    if (s.startMs > latest) latest = s.startMs;
    if (s.endMs > latest) latest = s.endMs;
  }
  return latest;
}
