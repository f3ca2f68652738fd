/** OTLP/JSON request bodies for tests, shaped exactly as the interface's envelopes. */

export interface Resource {
  namespace: string;
  deployment: string;
  service?: string;
}

const attrs = (r: Resource) => [
  { key: 'k8s.namespace.name', value: { stringValue: r.namespace } },
  { key: 'k8s.deployment.name', value: { stringValue: r.deployment } },
  ...(r.service === undefined ? [] : [{ key: 'service.name', value: { stringValue: r.service } }]),
];

const nanos = (ms: number): string => `${BigInt(Math.round(ms)) * 1_000_000n}`;

export function otlpMetrics(r: Resource, series: Record<string, [number, number][]>) {
  return {
    resourceMetrics: [
      {
        resource: { attributes: attrs(r) },
        scopeMetrics: [
          {
            metrics: Object.entries(series).map(([name, points]) => ({
              name,
              gauge: { dataPoints: points.map(([t, v]) => ({ timeUnixNano: nanos(t), asDouble: v })) },
            })),
          },
        ],
      },
    ],
  };
}

export function otlpLogs(r: Resource, lines: { t: number; severity: number; text: string }[]) {
  return {
    resourceLogs: [
      {
        resource: { attributes: attrs(r) },
        scopeLogs: [{ logRecords: lines.map((l) => ({ timeUnixNano: nanos(l.t), severityNumber: l.severity, severityText: l.severity >= 17 ? 'ERROR' : 'INFO', body: { stringValue: l.text } })) }],
      },
    ],
  };
}

let spanSeq = 1;
const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');

export function otlpSpans(r: Resource, spans: { t: number; durationMs: number; error: boolean }[]) {
  return {
    resourceSpans: [
      {
        resource: { attributes: attrs(r) },
        scopeSpans: [
          {
            spans: spans.map((s) => {
              const id = spanSeq++;
              return {
                traceId: hex(id, 32),
                spanId: hex(id, 16),
                name: 'GET /',
                kind: 2,
                startTimeUnixNano: nanos(s.t),
                endTimeUnixNano: nanos(s.t + s.durationMs),
                status: { code: s.error ? 2 : 1 },
              };
            }),
          },
        ],
      },
    ],
  };
}
