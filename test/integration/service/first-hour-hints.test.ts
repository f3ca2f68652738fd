/**
 * What a new user meets in the first hour (issue 35), over real sockets against the real server:
 * a Prometheus scrape of /metrics at a port's root, OTLP posted to the REST port, a lookup before
 * the first point, a workload known but not yet analysed, and whether the dashboard's key form
 * can tell that authentication is off.
 */
import { expect } from 'chai';
import { startTestService, useTestService, type TestService } from '../../support/service.js';

const otlpPoint = (namespace: string, name: string, timeMs: number): unknown => ({
  resourceMetrics: [
    {
      resource: {
        attributes: [
          { key: 'k8s.namespace.name', value: { stringValue: namespace } },
          { key: 'k8s.deployment.name', value: { stringValue: name } },
        ],
      },
      scopeMetrics: [{ metrics: [{ name: 'process.cpu.utilization', gauge: { dataPoints: [{ timeUnixNano: `${timeMs}000000`, asDouble: 0.42 }] } }] }],
    },
  ],
});

describe('first-hour hints (issue 35)', function () {
  this.timeout(30_000);
  // a long tick keeps the first point's bucket unanalysed for the whole test
  const svc = useTestService({ args: ['--tick-seconds', '600'] });
  let root: string;
  let dashboard: string;

  before(() => {
    root = `http://127.0.0.1:${svc.server.ports.rest}`;
    dashboard = `http://127.0.0.1:${svc.server.ports.dashboard}`;
  });

  for (const port of ['rest', 'dashboard'] as const) {
    it(`GET /metrics at the ${port} port's root: 404 JSON naming /api/v2/metrics and the REST port, never the page`, async () => {
      const r = await fetch(`${port === 'rest' ? root : dashboard}/metrics`);
      expect(r.status).to.equal(404);
      expect(r.headers.get('content-type')).to.contain('application/json');
      const body = (await r.json()) as Record<string, unknown>;
      expect(body).to.include({ code: 'not_found', path: '/api/v2/metrics', rest_port: svc.server.ports.rest });
      expect(body['hint']).to.contain(`:${svc.server.ports.rest}/api/v2/metrics`);
      // and the metrics are where the hint says, on both ports
      for (const base of [root, dashboard]) {
        const m = await fetch(`${base}/api/v2/metrics`);
        expect(m.status).to.equal(200);
        expect(await m.text()).to.match(/^# HELP /m);
      }
    });
  }

  it('OTLP posted to the REST port root: 404 naming the OTLP port; the same body there is accepted', async () => {
    const point = otlpPoint('hints', 'rest-port', Date.now());
    const r = await svc.post('/v1/metrics', point, root);
    expect(r.status).to.equal(404);
    expect(r.body).to.include({ code: 'not_found', otlp_port: svc.server.ports.otlp });
    expect((r.body as { hint: string }).hint).to.contain(`:${svc.server.ports.otlp}/v1/metrics`);
    expect((await svc.post('/v1/metrics', point, svc.otlp)).status).to.equal(200);
  });

  it('a lookup before any point: 404 with the binding fields and a hint on when the workload appears', async () => {
    const r = await svc.get('/rupture/hints/Deployment/never-sent');
    expect(r.status).to.equal(404);
    expect(r.body).to.include({ error: 'unknown workload: hints/Deployment/never-sent', code: 'not_found' });
    expect((r.body as { hint: string }).hint).to.contain('first ingested point');
    const kpi = await svc.get('/kpi/stress/hints/never-sent');
    expect(kpi.status).to.equal(404);
    expect((kpi.body as { hint: string }).hint).to.contain('15-45 s');
  });

  it('a workload known but not yet analysed: health_score 1 (a number, as the contract types it; not 0, which reads as worst), status pending_telemetry', async () => {
    expect((await svc.post('/v1/metrics', otlpPoint('hints', 'pending', Date.now()), svc.otlp)).status).to.equal(200);
    const list = await eventuallyListed(svc, 'hints/Deployment/pending');
    expect(list).to.include({ health_score: 1, status: 'pending_telemetry' });
    const snapshot = await svc.get('/rupture/hints/Deployment/pending');
    expect(snapshot.status).to.equal(200);
    expect(snapshot.body).to.include({ health_score: 1, status: 'pending_telemetry' });
    const kpi = await svc.get('/kpi/health_score/hints/pending');
    expect(kpi.body).to.include({ signal: 'health_score', value: 1 });
    // the other signals keep their numbers: 0 stress reads as calm
    expect((await svc.get('/kpi/stress/hints/pending')).body).to.include({ value: 0 });
  });

  it('/health says whether a key is checked: off without SVC_API_KEY, required with one', async () => {
    expect((await svc.get('/health')).body).to.include({ authentication: 'off' });
    const keyed = await startTestService({ key: 'K' });
    try {
      expect((await keyed.get('/health')).body).to.include({ authentication: 'required' });
    } finally {
      await keyed.stop();
      await keyed.remove();
    }
  });
});

async function eventuallyListed(svc: TestService, key: string): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const { body } = await svc.get('/ruptures');
    const item = (body as { ruptures: { workload: { namespace: string; kind: string; name: string } }[] }).ruptures.find(
      (r) => `${r.workload.namespace}/${r.workload.kind}/${r.workload.name}` === key,
    );
    if (item !== undefined) return item as unknown as Record<string, unknown>;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${key} never listed in /ruptures`);
}
