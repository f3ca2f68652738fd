import { expect } from 'chai';
import type { TestService } from '../../support/service.js';
import { eventually, useTestService } from '../../support/service.js';
import { otlpLogs, otlpMetrics, otlpSpans } from '../../support/otlp-builders.js';

const STEP = 15_000;
const MINUTES = 70;

interface Shape {
  cpu(i: number): number;
  memory(i: number): number;
  errorLines(i: number): number;
  errorSpans(i: number): number;
}

async function backfill(svc: TestService, deployment: string, shape: Shape, sources: { logs: boolean; traces: boolean }, end: number): Promise<void> {
  const steps = (MINUTES * 60_000) / STEP;
  const start = end - steps * STEP;
  const r = { namespace: 'shop', deployment };
  const cpu: [number, number][] = [];
  const memory: [number, number][] = [];
  const latency: [number, number][] = [];
  const lines: { t: number; severity: number; text: string }[] = [];
  const spans: { t: number; durationMs: number; error: boolean }[] = [];
  for (let i = 0; i < steps; i += 1) {
    const t = start + i * STEP + 1000;
    cpu.push([t, shape.cpu(i)]);
    memory.push([t, shape.memory(i)]);
    latency.push([t, 100 + 5 * Math.sin(i)]);
    for (let k = 0; k < 5; k += 1) lines.push({ t: t + k, severity: 9, text: 'served' });
    lines.push({ t: t + 5, severity: 13, text: 'slow request' });
    for (let k = 0; k < shape.errorLines(i); k += 1) lines.push({ t: t + 6 + k, severity: 17, text: 'request failed' });
    for (let k = 0; k < 10; k += 1) spans.push({ t: t + k * 100, durationMs: 50, error: k < shape.errorSpans(i) });
  }
  const m = await svc.post('/v1/metrics', otlpMetrics(r, { 'process.cpu.utilization': cpu, 'process.memory.utilization': memory, latency_ms: latency }), svc.otlp);
  expect(m.status).to.equal(200);
  if (sources.logs) expect((await svc.post('/v1/logs', otlpLogs(r, lines), svc.otlp)).status).to.equal(200);
  if (sources.traces) expect((await svc.post('/v1/traces', otlpSpans(r, spans), svc.otlp)).status).to.equal(200);
}

const wobble = (i: number, base: number): number => base + 0.004 * Math.sin(i * 1.3);

describe('standalone service: 70 minutes of backfilled history over OTLP/HTTP', function () {
  this.timeout(90_000);
  // metrics, logs and spans come as three requests: without a grace a tick between them analyses
  // the metric buckets alone and the logs come late (bucket-grace.test.ts), which made this test
  // time out when the machine was slow; 5 s lets every bucket wait for its other sources
  const svc = useTestService({ env: { SVC_BUCKET_GRACE_SECONDS: '5' } });

  before(async () => {
    const end = Math.floor(Date.now() / STEP) * STEP;
    const rampFrom = ((MINUTES - 8) * 60_000) / STEP;
    await backfill(svc, 'steady', { cpu: (i) => wobble(i, 0.3), memory: (i) => wobble(i, 0.4), errorLines: () => 0, errorSpans: () => 0 }, { logs: true, traces: true }, end);
    await backfill(
      svc,
      'rupturing',
      {
        cpu: (i) => (i < rampFrom ? wobble(i, 0.3) : Math.min(0.99, 0.3 + 0.025 * (i - rampFrom))),
        memory: (i) => (i < rampFrom ? wobble(i, 0.4) : Math.min(0.99, 0.4 + 0.02 * (i - rampFrom))),
        errorLines: (i) => (i < rampFrom ? 0 : 2 * (i - rampFrom)),
        errorSpans: (i) => (i < rampFrom ? 0 : 5),
      },
      { logs: true, traces: true },
      end,
    );
    await backfill(svc, 'metrics-only', { cpu: (i) => wobble(i, 0.3), memory: (i) => wobble(i, 0.4), errorLines: () => 0, errorSpans: () => 0 }, { logs: false, traces: false }, end);
  });

  it('the rupturing workload crosses into warning or above while the steady one stays normal', async () => {
    const rupturing = await eventually(async () => {
      const r = await svc.get('/rupture/shop/Deployment/rupturing');
      const body = r.body as { state: string; calibration_progress: number };
      return r.status === 200 && ['warning', 'critical', 'emergency'].includes(body.state) ? body : undefined;
    }, 40_000, 'the rupturing workload to leave the normal band');
    expect(rupturing.calibration_progress).to.equal(100);
    const steady = (await svc.get('/rupture/shop/steady')).body as { fused_rupture_index: number; state: string; status: string };
    expect(steady.status).to.equal('active');
    expect(steady.fused_rupture_index).to.be.lessThan(1.5);
  });

  it('a metrics-only workload has FusedR 0', async () => {
    const r = await eventually(async () => {
      const res = await svc.get('/rupture/shop/Deployment/metrics-only');
      const body = res.body as { status: string; fused_rupture_index: number };
      return body.status === 'active' ? body : undefined;
    });
    expect(r.fused_rupture_index).to.equal(0);
  });

  it('lists every workload, answers KPIs, and 404s unknown workloads and signals', async () => {
    const list = (await svc.get('/ruptures')).body as { ruptures: { workload: { name: string } }[] };
    expect(list.ruptures.map((x) => x.workload.name)).to.deep.equal(['metrics-only', 'rupturing', 'steady']);
    const kpi = await svc.get('/kpi/stress/shop/Deployment/rupturing');
    expect(kpi.status).to.equal(200);
    expect(kpi.body).to.include.keys('signal', 'workload', 'value', 'state', 'timestamp');
    expect((await svc.get('/kpi/stress/shop/Deployment/nope')).status).to.equal(404);
    expect((await svc.get('/kpi/throughput/shop/Deployment/steady')).status).to.equal(404);
    expect((await svc.get('/rupture/shop/Deployment/nope')).status).to.equal(404);
    const flow = (await svc.get('/dataflow')).body as { metrics: number; logs: number; traces: number };
    expect(flow.metrics).to.equal(3 * 3 * 280);
    expect(flow.traces).to.equal(2 * 2800);
  });

  it('explains the rupture: every explain route answers for its id and 404s an unknown one', async () => {
    const snap = (await svc.get('/rupture/shop/Deployment/rupturing')).body as { rupture_id: string | null };
    expect(snap.rupture_id).to.match(/^r_[0-9a-f]{12}$/);
    const id = snap.rupture_id!;
    const trace = (await svc.get(`/explain/${id}`)).body as Record<string, unknown>;
    expect(trace).to.include.keys('rupture_id', 'workload', 'fused_rupture_index', 'model_contributions', 'top_factor', 'signal_values', 'primary_pipeline', 'narrative');
    expect(Object.keys(trace['model_contributions'] as object)).to.have.members(['ca_ilr', 'arima', 'holt_winters', 'mad', 'ewma']);
    const formula = (await svc.get(`/explain/${id}/formula`)).body as { formula: string };
    expect(formula.formula).to.contain('FusedR = min(10,');
    const pipeline = (await svc.get(`/explain/${id}/pipeline`)).body as { primary_pipeline: string };
    expect(['metric', 'log', 'trace']).to.include(pipeline.primary_pipeline);
    const narrative = (await svc.get(`/explain/${id}/narrative`)).body as { narrative: string; ttf_seconds: number };
    expect(narrative.narrative).to.contain('rupturing is in');
    expect(Number.isInteger(narrative.ttf_seconds)).to.equal(true);
    expect((await svc.get('/explain/shop%2FDeployment%2Frupturing/narrative')).status).to.equal(200);
    expect((await svc.get('/explain/r_000000000000')).status).to.equal(404);
  });
});
