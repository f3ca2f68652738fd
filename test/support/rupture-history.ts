/**
 * Posts 70 minutes of OTLP history for one workload in three requests (metrics, logs, spans):
 * calm for the first 62 minutes, then CPU, memory and error lines ramp up, so the workload is
 * calibrated and crosses out of the normal band within a tick or two of the service receiving it.
 */
import { expect } from 'chai';
import { otlpLogs, otlpMetrics, otlpSpans } from './otlp-builders.js';
import type { TestService } from './service.js';

const STEP = 15_000;
const STEPS = 280;
const RAMP_FROM = 248;

const wobble = (i: number, base: number): number => base + 0.004 * Math.sin(i * 1.3);

/** log lines and spans postRupturingHistory posts: 6 lines and 10 spans a step, 2 more lines a step per ramp step */
export const RUPTURING_LOG_LINES = STEPS * 6 + (STEPS - RAMP_FROM - 1) * (STEPS - RAMP_FROM);
export const RUPTURING_SPANS = STEPS * 10;

export async function postRupturingHistory(
  svc: Pick<TestService, 'post' | 'otlp'>,
  namespace: string,
  deployment: string,
  endMs = Math.floor(Date.now() / STEP) * STEP,
  /** awaited between the metrics and the logs and spans (the service may tick in between) */
  betweenSources?: () => Promise<void>,
): Promise<void> {
  const start = endMs - STEPS * STEP;
  const r = { namespace, deployment };
  const cpu: [number, number][] = [];
  const memory: [number, number][] = [];
  const latency: [number, number][] = [];
  const lines: { t: number; severity: number; text: string }[] = [];
  const spans: { t: number; durationMs: number; error: boolean }[] = [];
  for (let i = 0; i < STEPS; i += 1) {
    const t = start + i * STEP + 1000;
    const ramp = Math.max(0, i - RAMP_FROM);
    cpu.push([t, ramp === 0 ? wobble(i, 0.3) : Math.min(0.99, 0.3 + 0.025 * ramp)]);
    memory.push([t, ramp === 0 ? wobble(i, 0.4) : Math.min(0.99, 0.4 + 0.02 * ramp)]);
    latency.push([t, 100 + 5 * Math.sin(i)]);
    for (let k = 0; k < 5; k += 1) lines.push({ t: t + k, severity: 9, text: 'served' });
    lines.push({ t: t + 5, severity: 13, text: 'slow request' });
    for (let k = 0; k < 2 * ramp; k += 1) lines.push({ t: t + 6 + k, severity: 17, text: 'request failed' });
    for (let k = 0; k < 10; k += 1) spans.push({ t: t + k * 100, durationMs: 50, error: ramp > 0 && k < 5 });
  }
  expect((await svc.post('/v1/metrics', otlpMetrics(r, { 'process.cpu.utilization': cpu, 'process.memory.utilization': memory, latency_ms: latency }), svc.otlp)).status).to.equal(200);
  if (betweenSources !== undefined) await betweenSources();
  expect((await svc.post('/v1/logs', otlpLogs(r, lines), svc.otlp)).status).to.equal(200);
  expect((await svc.post('/v1/traces', otlpSpans(r, spans), svc.otlp)).status).to.equal(200);
}

export interface ListedEvent {
  id: string;
  workload: string;
  type: string;
  rupture_id: string | null;
}

/** The band events the service has streamed (its SSE JSON fallback), oldest first. */
export async function streamedEvents(svc: TestService): Promise<ListedEvent[]> {
  const headers: Record<string, string> = { accept: 'application/json', ...(svc.key === undefined ? {} : { authorization: `Bearer ${svc.key}` }) };
  const body = (await fetch(`${svc.api}/events?limit=1000`, { headers }).then((r) => r.json())) as { events: ListedEvent[] };
  return [...body.events].reverse();
}

export interface OutboundStatus {
  channel: string;
  connected: boolean;
  backlog: number;
  failures: number;
  delivered: number;
}

export async function outboundStatus(svc: TestService): Promise<OutboundStatus[]> {
  return ((await svc.get('/health')).body as { outbound: OutboundStatus[] }).outbound;
}
