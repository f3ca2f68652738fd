import { expect } from 'chai';
import { otlpMetrics } from '../../../support/otlp-builders.js';
import { eventually, useTestService } from '../../../support/service.js';

describe('http/routes/rupture-routes: ruptures, KPIs, anomalies and data flow', function () {
  this.timeout(30_000);
  const svc = useTestService();
  const workload = 'routes/Deployment/api';

  before(async () => {
    expect((await svc.get('/ruptures')).body).to.deep.equal({ ruptures: [] });
    const t = Date.now() - 60_000;
    const body = otlpMetrics({ namespace: 'routes', deployment: 'api' }, { cpu_percent: [[t, 0.4], [t + 15_000, 0.42], [t + 30_000, 0.41]] });
    expect((await svc.post('/v1/metrics', body, svc.otlp)).status).to.equal(200);
    // known from its first point (status pending_telemetry), then analysed
    await eventually(async () => {
      const r = await svc.get(`/rupture/${workload}`);
      return r.status === 200 && (r.body as { status: string }).status !== 'pending_telemetry' ? true : undefined;
    }, 15_000, 'the first analysed snapshot');
  });

  it('/ruptures lists the workload; /dataflow counts the three points since the start', async () => {
    const list = (await svc.get('/ruptures')).body as { ruptures: { workload: { namespace: string; kind: string; name: string } }[] };
    expect(list.ruptures.map((r) => r.workload)).to.deep.equal([{ namespace: 'routes', kind: 'Deployment', name: 'api' }]);
    const flow = (await svc.get('/dataflow')).body as { metrics: number; since: string };
    expect(flow.metrics).to.equal(3);
    expect(Date.parse(flow.since)).to.be.at.most(Date.now());
  });

  it('an unknown workload is a 404 naming it with a hint; the limit must be a positive integer', async () => {
    const r = await svc.get('/rupture/routes/Deployment/nope');
    expect(r.status).to.equal(404);
    expect(r.body).to.include({ error: 'unknown workload: routes/Deployment/nope', code: 'not_found' });
    expect((r.body as { hint: string }).hint).to.match(/^no telemetry has arrived for this workload/);
    expect((await svc.get('/ruptures?limit=0')).body).to.deep.equal({ error: 'limit must be a positive integer, got "0"', code: 'invalid_query', field: 'limit' });
  });

  it('/kpi/{signal}/…: the signal\'s reading at the snapshot; an unknown signal is a 404', async () => {
    const kpi = (await svc.get(`/kpi/stress/${workload}`)).body as Record<string, unknown>;
    const value = kpi['value'] as number;
    // the stress bands: calm below 0.3, nervous from 0.3, stressed from 0.6, panic from 0.8
    expect(kpi).to.include({ signal: 'stress', state: value >= 0.8 ? 'panic' : value >= 0.6 ? 'stressed' : value >= 0.3 ? 'nervous' : 'calm' });
    expect(kpi['timestamp']).to.be.a('string').and.satisfy((t: string) => new Date(Date.parse(t)).toISOString() === t);
    expect(kpi['workload']).to.deep.equal({ namespace: 'routes', kind: 'Deployment', name: 'api' });
    expect(value).to.be.a('number').within(0, 1);
    expect(await svc.get(`/kpi/humour/${workload}`)).to.deep.include({ status: 404, body: { error: 'unknown signal: humour', code: 'not_found' } });
  });

  it('/anomalies: a future since is an empty list, a bad since a 400, an unknown workload a 404', async () => {
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await svc.get(`/anomalies?since=${future}`)).body).to.deep.equal({ anomalies: [] });
    expect((await svc.get('/anomalies?since=2026-02-30T00:00:00Z')).body).to.deep.equal({
      error: 'since must be an RFC 3339 date-time, got "2026-02-30T00:00:00Z"',
      code: 'invalid_query',
      field: 'since',
    });
    expect((await svc.get('/anomalies/routes/Deployment/nope')).status).to.equal(404);
    expect((await svc.get(`/anomalies/${workload}`)).status).to.equal(200);
  });
});
