/**
 * Deterministic telemetry of one 15-s bucket for the analysis end-to-end and property tests:
 * a steady workload, and one that ruptures (CPU and errors ramp, error logs and failing slow
 * spans) from `ruptureFromBucket` on. No randomness: small noise comes from sines.
 */
import type { LogRecord, MetricRecord, SpanRecord } from '../../../api-server/src/model/records.js';

export interface BucketTelemetry {
  metrics: MetricRecord[];
  logs: LogRecord[];
  spans: SpanRecord[];
}

export interface GeneratorOptions {
  key: string;
  bucketMs?: number;
  withLogs: boolean;
  withTraces: boolean;
  /** bucket index from which the workload ruptures; undefined = steady */
  ruptureFromBucket?: number;
}

export function bucketTelemetry(o: GeneratorOptions, b: number, originMs: number): BucketTelemetry {
  const bucketMs = o.bucketMs ?? 15_000;
  const t = originMs + b * bucketMs + 1_000;
  const k = o.ruptureFromBucket === undefined || b < o.ruptureFromBucket ? 0 : b - o.ruptureFromBucket + 1;
  const noise = 0.01 * Math.sin(b * 0.9);
  const cpu = Math.min(1, 0.3 + noise + 0.01 * k);
  const err = Math.min(1, 0.01 + 0.005 * k);
  const name = o.key.split('/')[2]!;
  const metric = (n: string, value: number, pod: string | undefined = undefined): MetricRecord => ({ workload: o.key, pod, name: n, value, timeMs: t });
  const metrics = [
    metric('process.cpu.utilization', cpu),
    metric('process.memory.utilization', 0.4 + noise / 2),
    metric('latency_ms', 100 + 8 * Math.sin(b * 0.7) + 5 * k),
    metric('error_rate', err),
    metric('request_rate', 100 + 3 * Math.sin(b * 1.3)),
    metric('uptime_seconds', b * 15),
  ];
  const logs: LogRecord[] = [];
  if (o.withLogs) {
    for (let i = 0; i < 5; i++) logs.push({ workload: o.key, pod: undefined, timeMs: t + i, severityNumber: 9, severityText: 'INFO', body: 'ok' });
    if (b % 3 === 0) logs.push({ workload: o.key, pod: undefined, timeMs: t + 10, severityNumber: 13, severityText: 'WARN', body: 'slow' });
    const errors = k > 0 ? Math.min(40, 2 * k) : 0;
    for (let i = 0; i < errors; i++) logs.push({ workload: o.key, pod: undefined, timeMs: t + 20 + i, severityNumber: 17, severityText: 'ERROR', body: 'failed' });
  }
  const spans: SpanRecord[] = [];
  if (o.withTraces) {
    for (let i = 0; i < 10; i++) {
      const failing = k > 0 && i < Math.min(8, Math.ceil(k / 3));
      const duration = 100 + (k > 0 ? 20 * Math.min(k, 30) : 0);
      spans.push({
        workload: o.key,
        service: name,
        traceId: `${b.toString(16).padStart(16, '0')}${i.toString(16).padStart(16, '0')}`,
        spanId: `${b.toString(16).padStart(12, '0')}${i.toString(16).padStart(4, '0')}`,
        parentSpanId: '',
        name: 'GET /',
        kind: 2,
        startMs: t + i * 100,
        endMs: t + i * 100 + duration,
        statusCode: failing ? 2 : 1,
      });
    }
  }
  return { metrics, logs, spans };
}
