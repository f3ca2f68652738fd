/**
 * gRPC ingest messages to records: Faultline's own IngestService messages, and the OTLP/gRPC
 * export requests converted to the OTLP/JSON shape (bytes ids to hex, int64 to numbers) so that
 * one decoder (ingest/otlp-json) applies the same rules to both encodings.
 */
import { workloadKeyFromHost } from '../../model/workload-key.js';
import { resolveFromLabels } from '../identity.js';
import type { ResolvedIdentity } from '../identity.js';
import type { DecodedBatch } from '../../model/records.js';
import { DecodeError, emptyBatch } from '../../model/records.js';

type Json = unknown;

/** proto-loader output (longs as strings, bytes as Buffers) → the OTLP/JSON shape. */
export function toOtlpJsonShape(value: Json, key = ''): Json {
  if (Buffer.isBuffer(value)) return value.toString('hex');
  if (Array.isArray(value)) return value.map((v) => toOtlpJsonShape(v));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toOtlpJsonShape(v, k);
    return out;
  }
  if (key === 'intValue' && typeof value === 'string') return Number(value);
  return value;
}

interface SourceMsg {
  workload?: string;
  labels?: Record<string, string>;
}

function identityOf(source: SourceMsg | undefined): ResolvedIdentity | undefined {
  const labels = source?.labels ?? {};
  if (source?.workload !== undefined && source.workload !== '') {
    const key = workloadKeyFromHost(source.workload);
    return key === undefined ? undefined : { workload: key, pod: labels['pod'] || undefined };
  }
  return resolveFromLabels((n) => (Object.prototype.hasOwnProperty.call(labels, n) ? labels[n] : undefined));
}

const num = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : Number.NaN);

export function metricsFromIngest(points: unknown[]): DecodedBatch {
  const batch = emptyBatch();
  points.forEach((p, i) => {
    const point = p as { source?: SourceMsg; name?: string; value?: number; timeUnixMs?: string | number };
    if (point.name === undefined || point.name === '') throw new DecodeError(`points[${i}].name is required`, `points[${i}].name`);
    const value = num(point.value);
    if (!Number.isFinite(value)) throw new DecodeError(`points[${i}].value must be a finite number`, `points[${i}].value`);
    const t = num(point.timeUnixMs ?? 0);
    const identity = identityOf(point.source);
    if (identity === undefined) {
      batch.rejected += 1;
      return;
    }
    batch.metrics.push({ workload: identity.workload, pod: identity.pod, name: point.name, value, timeMs: t === 0 ? Date.now() : t });
  });
  return batch;
}

export function logsFromIngest(lines: unknown[]): DecodedBatch {
  const batch = emptyBatch();
  lines.forEach((l) => {
    const line = l as { source?: SourceMsg; timeUnixMs?: string | number; severityNumber?: number; severityText?: string; body?: string };
    const identity = identityOf(line.source);
    if (identity === undefined) {
      batch.rejected += 1;
      return;
    }
    const t = num(line.timeUnixMs ?? 0);
    batch.logs.push({ workload: identity.workload, pod: identity.pod, timeMs: t === 0 ? Date.now() : t, severityNumber: line.severityNumber ?? 0, severityText: line.severityText ?? '', body: line.body ?? '' });
  });
  return batch;
}

const HEX = /^[0-9a-fA-F]*$/;

export function spansFromIngest(spans: unknown[]): DecodedBatch {
  const batch = emptyBatch();
  spans.forEach((s, i) => {
    const span = s as { source?: SourceMsg; service?: string; traceId?: string; spanId?: string; parentSpanId?: string; name?: string; kind?: number; startUnixMs?: string | number; endUnixMs?: string | number; statusCode?: number };
    if (span.traceId === undefined || span.traceId.length !== 32 || !HEX.test(span.traceId)) throw new DecodeError(`spans[${i}].trace_id must be 32 hex characters`, `spans[${i}].trace_id`);
    if (span.spanId === undefined || span.spanId.length !== 16 || !HEX.test(span.spanId)) throw new DecodeError(`spans[${i}].span_id must be 16 hex characters`, `spans[${i}].span_id`);
    const parent = span.parentSpanId ?? '';
    if (parent !== '' && (parent.length !== 16 || !HEX.test(parent))) throw new DecodeError(`spans[${i}].parent_span_id must be 16 hex characters`, `spans[${i}].parent_span_id`);
    const code = span.statusCode ?? 0;
    if (code < 0 || code > 2) throw new DecodeError(`spans[${i}].status_code must be 0, 1 or 2`, `spans[${i}].status_code`);
    const identity = identityOf(span.source);
    if (identity === undefined) {
      batch.rejected += 1;
      return;
    }
    batch.spans.push({
      workload: identity.workload,
      service: span.service || identity.workload.slice(identity.workload.lastIndexOf('/') + 1),
      traceId: span.traceId.toLowerCase(),
      spanId: span.spanId.toLowerCase(),
      parentSpanId: parent.toLowerCase(),
      name: span.name ?? '',
      kind: span.kind ?? 0,
      startMs: num(span.startUnixMs ?? 0),
      endMs: num(span.endUnixMs ?? 0),
      statusCode: code,
    });
  });
  return batch;
}
