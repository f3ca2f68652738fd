/** OTLP/JSON bodies of one chunk of buckets for many workloads (one request per signal kind). */
import { BUCKET_MS, type BucketSample } from './workload-model.js';

export const NAMESPACE = 'eval';

export interface ChunkRows {
  name: string;
  /** [bucket index since the epoch, sample] in ascending bucket order; gaps left out */
  rows: [number, BucketSample][];
}

const attrs = (name: string) => [
  { key: 'k8s.namespace.name', value: { stringValue: NAMESPACE } },
  { key: 'k8s.deployment.name', value: { stringValue: name } },
  { key: 'service.name', value: { stringValue: name } },
];
const nanos = (ms: number): string => `${ms}000000`;

export function metricsBody(chunk: readonly ChunkRows[]): unknown {
  return {
    resourceMetrics: chunk.map((w) => {
      const byName = new Map<string, { timeUnixNano: string; asDouble: number }[]>();
      for (const [bucket, s] of w.rows) {
        if (s.metrics === null) continue;
        const t = nanos(bucket * BUCKET_MS + 1000);
        for (const [name, v] of Object.entries(s.metrics)) {
          let points = byName.get(name);
          if (points === undefined) byName.set(name, (points = []));
          points.push({ timeUnixNano: t, asDouble: v });
        }
      }
      return {
        resource: { attributes: attrs(w.name) },
        scopeMetrics: [{ metrics: [...byName].map(([name, dataPoints]) => ({ name, gauge: { dataPoints } })) }],
      };
    }),
  };
}

const SEVERITY = { info: [9, 'INFO', 'request served'], warn: [13, 'WARN', 'slow upstream, retrying'], error: [17, 'ERROR', 'request failed'] } as const;

export function logsBody(chunk: readonly ChunkRows[]): unknown {
  return {
    resourceLogs: chunk.map((w) => {
      const logRecords: unknown[] = [];
      for (const [bucket, s] of w.rows) {
        if (s.metrics === null) continue;
        let k = 0;
        for (const level of ['info', 'warn', 'error'] as const) {
          const [severityNumber, severityText, text] = SEVERITY[level];
          for (let i = 0; i < s[level]; i++) {
            logRecords.push({ timeUnixNano: nanos(bucket * BUCKET_MS + 2000 + 10 * k++), severityNumber, severityText, body: { stringValue: text } });
          }
        }
      }
      return { resource: { attributes: attrs(w.name) }, scopeLogs: [{ logRecords }] };
    }),
  };
}

let spanSeq = 1;
const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');

export function spansBody(chunk: readonly ChunkRows[]): unknown {
  const firstSeq = new Map<string, number[]>();
  const roots = chunk.map((w) => {
      const spans: unknown[] = [];
      const seqs: number[] = [];
      firstSeq.set(w.name, seqs);
      for (const [bucket, s] of w.rows) {
        seqs.push(spanSeq);
        if (s.metrics === null) continue;
        for (let i = 0; i < s.spans; i++) {
          const id = spanSeq++;
          const start = bucket * BUCKET_MS + 3000 + 40 * i;
          spans.push({
            traceId: hex(id, 32),
            spanId: hex(id, 16),
            name: 'GET /',
            kind: 2,
            startTimeUnixNano: nanos(start),
            endTimeUnixNano: nanos(start + Math.round(s.spanMs)),
            status: { code: i < s.spanErrors ? 2 : 1 },
          });
        }
      }
      return { resource: { attributes: attrs(w.name) }, scopeSpans: [{ spans }] };
  });
  return { resourceSpans: [...roots, ...downstreamResources(chunk, firstSeq)] };
}

/** child spans (calls to a downstream service) of the root spans spansBody gave `firstSpanSeq` on; one resource per callee */
function downstreamResources(chunk: readonly ChunkRows[], firstSeq: Map<string, number[]>): unknown[] {
  const out: unknown[] = [];
  for (const w of chunk) {
    const seqs = firstSeq.get(w.name) ?? [];
    const spans: unknown[] = [];
    let service = '';
    w.rows.forEach(([bucket, s], row) => {
      const d = s.downstream;
      if (s.metrics === null || d === undefined) return;
      service = d.service;
      for (let i = 0; i < Math.min(d.spans, s.spans); i++) {
        const parent = seqs[row]! + i;
        const id = spanSeq++;
        const start = bucket * BUCKET_MS + 3000 + 40 * i + 1;
        spans.push({
          traceId: hex(parent, 32),
          spanId: hex(id, 16),
          parentSpanId: hex(parent, 16),
          name: 'SELECT',
          kind: 3,
          startTimeUnixNano: nanos(start),
          endTimeUnixNano: nanos(start + Math.max(1, Math.round(d.ms))),
          status: { code: i < d.errors ? 2 : 1 },
        });
      }
    });
    if (spans.length > 0) out.push({ resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] }, scopeSpans: [{ spans }] });
  }
  return out;
}
