/**
 * OTLP/HTTP JSON decoders for metrics, logs and traces (interface "OTLP request envelopes"). JSON
 * only: protobuf and any Content-Encoding are refused with 415 naming the supported encoding.
 * Records of node-only resources are dropped and counted as rejected (api.md §1.9 step 8).
 */
import type { HttpIngestDecoder, IngestRequest, IngestResult, UnsupportedMedia } from '../decoder.js';
import { resolveFromResourceAttributes } from '../identity.js';
import type { DecodedBatch } from '../../model/records.js';
import { DecodeError, emptyBatch } from '../../model/records.js';
import { parseJson } from '../json-body.js';
import type { Json } from './otlp-values.js';
import { arrayAt, hexId, isObject, objectAt, readAttributes, timeMs } from './otlp-values.js';

function checkOtlpMedia(contentType: string, contentEncoding: string): UnsupportedMedia | undefined {
  if (contentEncoding !== '' && contentEncoding !== 'identity') {
    return { unsupported: `Content-Encoding ${contentEncoding} is not accepted: send OTLP as uncompressed JSON (compression none)` };
  }
  if (contentType !== '' && contentType !== 'application/json') {
    return { unsupported: `Content-Type ${contentType} is not accepted: OTLP is served as JSON only (Content-Type: application/json, encoding json)` };
  }
  return undefined;
}

/** The three OTLP request envelopes and the path each belongs on. */
const ENVELOPE_PATHS: Readonly<Record<string, string>> = {
  resourceMetrics: '/v1/metrics',
  resourceLogs: '/v1/logs',
  resourceSpans: '/v1/traces',
};

function envelope(doc: Json, key: string): Json[] {
  if (!isObject(doc)) throw new DecodeError(`body must be a JSON object with ${key}`, key);
  if (!(key in doc)) {
    // Another signal's request on this path would otherwise read as an empty request (200, nothing stored).
    const other = Object.keys(ENVELOPE_PATHS).find((k) => k !== key && k in doc);
    if (other !== undefined) {
      throw new DecodeError(`body holds ${other}, not ${key}: send it to ${ENVELOPE_PATHS[other] ?? 'its own path'}`, key);
    }
  }
  return arrayAt(doc, key, '');
}

function identityOf(resource: Json, path: string) {
  const attrs = isObject(resource) ? readAttributes(resource, `${path}.resource`) : new Map<string, string>();
  return { identity: resolveFromResourceAttributes((n) => attrs.get(n)), attrs };
}

/** An OTLP metrics export request already parsed (JSON, or gRPC converted to the JSON shape). */
export function decodeMetricsDocument(doc: Json): DecodedBatch {
  const batch = emptyBatch();
  const resources = envelope(doc, 'resourceMetrics');
  for (let r = 0; r < resources.length; r += 1) {
    const rPath = `resourceMetrics[${r}]`;
    const rm = objectAt(resources, r, 'resourceMetrics');
    const { identity } = identityOf(rm['resource'], rPath);
    const scopes = arrayAt(rm, 'scopeMetrics', rPath);
    for (let s = 0; s < scopes.length; s += 1) {
      const sPath = `${rPath}.scopeMetrics[${s}]`;
      const metrics = arrayAt(objectAt(scopes, s, `${rPath}.scopeMetrics`), 'metrics', sPath);
      for (let m = 0; m < metrics.length; m += 1) {
        const mPath = `${sPath}.metrics[${m}]`;
        const metric = objectAt(metrics, m, `${sPath}.metrics`);
        const name = metric['name'];
        if (typeof name !== 'string' || name === '') throw new DecodeError(`${mPath}.name must be a non-empty string`, `${mPath}.name`);
        const kind = ['gauge', 'sum', 'histogram', 'summary'].find((k) => isObject(metric[k]));
        if (kind === undefined) continue; // other metric types carry no value we use
        const points = arrayAt(metric[kind] as Record<string, Json>, 'dataPoints', `${mPath}.${kind}`);
        for (let p = 0; p < points.length; p += 1) {
          const pPath = `${mPath}.${kind}.dataPoints[${p}]`;
          const point = objectAt(points, p, `${mPath}.${kind}.dataPoints`);
          const t = timeMs(point, 'timeUnixNano', pPath, true) as number;
          readAttributes(point, pPath); // validates attribute value types (rule 3) like every other attribute list
          const value = pointValue(point, kind, pPath);
          if (value === undefined) continue;
          if (identity === undefined || !Number.isFinite(value)) {
            batch.rejected += 1;
            continue;
          }
          batch.metrics.push({ workload: identity.workload, pod: identity.pod, name, value, timeMs: t });
        }
      }
    }
  }
  return batch;
}

function numberField(point: Record<string, Json>, key: string, path: string): number | undefined {
  const v = point[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(v)) return Number(v);
  throw new DecodeError(`${path}.${key} must be a number`, `${path}.${key}`);
}

/** gauge/sum: the value; histogram/summary: the mean (sum / count). */
function pointValue(point: Record<string, Json>, kind: string, path: string): number | undefined {
  if (kind === 'gauge' || kind === 'sum') return numberField(point, 'asDouble', path) ?? numberField(point, 'asInt', path);
  const sum = numberField(point, 'sum', path);
  const count = numberField(point, 'count', path);
  return sum === undefined || count === undefined || count === 0 ? undefined : sum / count;
}

/** An OTLP logs export request already parsed (JSON, or gRPC converted to the JSON shape). */
export function decodeLogsDocument(doc: Json): DecodedBatch {
  const batch = emptyBatch();
  const resources = envelope(doc, 'resourceLogs');
  for (let r = 0; r < resources.length; r += 1) {
    const rPath = `resourceLogs[${r}]`;
    const rl = objectAt(resources, r, 'resourceLogs');
    const { identity } = identityOf(rl['resource'], rPath);
    const scopes = arrayAt(rl, 'scopeLogs', rPath);
    for (let s = 0; s < scopes.length; s += 1) {
      const sPath = `${rPath}.scopeLogs[${s}]`;
      const records = arrayAt(objectAt(scopes, s, `${rPath}.scopeLogs`), 'logRecords', sPath);
      for (let i = 0; i < records.length; i += 1) {
        const lPath = `${sPath}.logRecords[${i}]`;
        const rec = objectAt(records, i, `${sPath}.logRecords`);
        const t = timeMs(rec, 'timeUnixNano', lPath, false) ?? timeMs(rec, 'observedTimeUnixNano', lPath, false);
        if (t === undefined) throw new DecodeError(`${lPath}.timeUnixNano is required (decimal string of Unix nanoseconds)`, `${lPath}.timeUnixNano`);
        const severity = rec['severityNumber'];
        if (severity !== undefined && (typeof severity !== 'number' || !Number.isInteger(severity))) {
          throw new DecodeError(`${lPath}.severityNumber must be an integer`, `${lPath}.severityNumber`);
        }
        const text = rec['severityText'];
        if (text !== undefined && typeof text !== 'string') throw new DecodeError(`${lPath}.severityText must be a string`, `${lPath}.severityText`);
        const bodyValue = rec['body'];
        const message = isObject(bodyValue) && typeof bodyValue['stringValue'] === 'string' ? bodyValue['stringValue'] : '';
        readAttributes(rec, lPath); // validates attribute value types (rule 3)
        if (identity === undefined) {
          batch.rejected += 1;
          continue;
        }
        batch.logs.push({ workload: identity.workload, pod: identity.pod, timeMs: t, severityNumber: severity ?? 0, severityText: text ?? '', body: message });
      }
    }
  }
  return batch;
}

/** An OTLP traces export request already parsed (JSON, or gRPC converted to the JSON shape). */
export function decodeTracesDocument(doc: Json): DecodedBatch {
  const batch = emptyBatch();
  const resources = envelope(doc, 'resourceSpans');
  for (let r = 0; r < resources.length; r += 1) {
    const rPath = `resourceSpans[${r}]`;
    const rs = objectAt(resources, r, 'resourceSpans');
    const { identity, attrs } = identityOf(rs['resource'], rPath);
    const scopes = arrayAt(rs, 'scopeSpans', rPath);
    for (let s = 0; s < scopes.length; s += 1) {
      const sPath = `${rPath}.scopeSpans[${s}]`;
      const spans = arrayAt(objectAt(scopes, s, `${rPath}.scopeSpans`), 'spans', sPath);
      for (let i = 0; i < spans.length; i += 1) {
        const spPath = `${sPath}.spans[${i}]`;
        const span = objectAt(spans, i, `${sPath}.spans`);
        const traceId = hexId(span, 'traceId', 32, spPath, true);
        const spanId = hexId(span, 'spanId', 16, spPath, true);
        const parentSpanId = hexId(span, 'parentSpanId', 16, spPath, false);
        const start = timeMs(span, 'startTimeUnixNano', spPath, true) as number;
        const end = timeMs(span, 'endTimeUnixNano', spPath, true) as number;
        const kind = span['kind'] ?? 0;
        if (typeof kind !== 'number' || !Number.isInteger(kind)) throw new DecodeError(`${spPath}.kind must be an integer`, `${spPath}.kind`);
        const status = span['status'];
        const code = isObject(status) ? (status['code'] ?? 0) : 0;
        if (typeof code !== 'number' || !Number.isInteger(code) || code < 0 || code > 2) {
          throw new DecodeError(`${spPath}.status.code must be 0, 1 or 2`, `${spPath}.status.code`);
        }
        const name = typeof span['name'] === 'string' ? span['name'] : '';
        readAttributes(span, spPath);
        if (identity === undefined) {
          batch.rejected += 1;
          continue;
        }
        const service = attrs.get('service.name') || identity.workload.slice(identity.workload.lastIndexOf('/') + 1);
        batch.spans.push({ workload: identity.workload, service, traceId, spanId, parentSpanId, name, kind, startMs: start, endMs: end, statusCode: code });
      }
    }
  }
  return batch;
}

function decoder(source: 'metrics' | 'logs' | 'traces', decode: (doc: Json) => DecodedBatch): HttpIngestDecoder {
  return {
    source,
    checkMedia: checkOtlpMedia,
    decode(request: IngestRequest): IngestResult {
      return { batch: decode(parseJson(request.body)), status: 200, responseBody: { partialSuccess: {} } };
    },
  };
}

export const otlpMetricsDecoder = decoder('metrics', decodeMetricsDocument);
export const otlpLogsDecoder = decoder('logs', decodeLogsDocument);
export const otlpTracesDecoder = decoder('traces', decodeTracesDocument);
