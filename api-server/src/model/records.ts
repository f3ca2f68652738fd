/**
 * Normalised telemetry records: what every ingest decoder (OTLP JSON, remote-write, StatsD,
 * Loki, bulk, gRPC) produces and what the pipelines consume. Decoders know no transport;
 * they turn bytes or parsed JSON into these records and count what they reject.
 *
 * Times are Unix epoch milliseconds (fractional allowed) taken from the sample itself.
 */

export interface MetricRecord {
  /** workload key `namespace/Kind/name` */
  workload: string;
  /** pod identity when the source carries one (k8s.pod.name, label `pod`); the per-pod dimension */
  pod: string | undefined;
  /** metric name as sent (aliases are resolved by the analysis normaliser) */
  name: string;
  value: number;
  timeMs: number;
}

/** Log classes of analytics.md §4.1 after classification. */
export type LogClass = 'ignored' | 'info' | 'warn' | 'error';

export interface LogRecord {
  workload: string;
  pod: string | undefined;
  timeMs: number;
  /** OTLP severityNumber (0 = absent) */
  severityNumber: number;
  /** severityText or level label, '' when absent */
  severityText: string;
  body: string;
}

export interface SpanRecord {
  workload: string;
  /** resource `service.name`, else the workload name */
  service: string;
  traceId: string;
  spanId: string;
  /** '' when the span is a root */
  parentSpanId: string;
  name: string;
  kind: number;
  startMs: number;
  endMs: number;
  /** 0 UNSET, 1 OK, 2 ERROR */
  statusCode: number;
}

/** What one decoded request carries. `rejected` counts records dropped with a reason (never silently). */
export interface DecodedBatch {
  metrics: MetricRecord[];
  logs: LogRecord[];
  spans: SpanRecord[];
  rejected: number;
}

export function emptyBatch(): DecodedBatch {
  return { metrics: [], logs: [], spans: [], rejected: 0 };
}

/** A decoder's refusal of a whole request: becomes a 400 (gRPC INVALID_ARGUMENT) naming `field`. */
export class DecodeError extends Error {
  constructor(
    message: string,
    readonly field: string | undefined,
  ) {
    super(message);
    this.name = 'DecodeError';
  }
}
