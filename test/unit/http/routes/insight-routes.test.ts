import { expect } from 'chai';
import { SIMULATION_PATTERNS } from '../../../../api-server/src/simulation/patterns.js';
import { otlpMetrics } from '../../../support/otlp-builders.js';
import { eventually, useTestService } from '../../../support/service.js';

const NOW = Date.UTC(2026, 0, 10, 12, 0, 0);

describe('http/routes/insight-routes: explanations, forecasts and simulation injection', function () {
  this.timeout(30_000);

  describe('on a fixed clock', () => {
    const svc = useTestService({ now: () => NOW });

    it('POST /sim/inject: 202 with the injection, its start and end on the service clock', async () => {
      const r = await svc.post('/sim/inject', { pattern: 'slow-burn', host: 'shop/Deployment/api', duration_minutes: 5 });
      expect(r.status).to.equal(202);
      const body = r.body as Record<string, unknown>;
      expect(body['injection_id']).to.be.a('string').and.not.equal('');
      expect(body).to.deep.include({
        pattern: 'slow-burn',
        started_at: '2026-01-10T12:00:00.000Z',
        host: 'shop/Deployment/api',
        workload: { namespace: 'shop', kind: 'Deployment', name: 'api' },
        duration_minutes: 5,
        ends_at: '2026-01-10T12:05:00.000Z',
      });
      expect(((await svc.post('/sim/inject', { pattern: 'memory-leak', host: 'web' })).body as { duration_minutes: number }).duration_minutes).to.equal(10);
    });

    it('a bad injection is a 400 naming the field', async () => {
      const cases: [Record<string, unknown>, string, string][] = [
        [{ pattern: 'meteor', host: 'shop/api' }, 'pattern', `pattern: must be one of ${SIMULATION_PATTERNS.join(', ')}`],
        [{ pattern: 'slow-burn', host: 'shop/api', duration_minutes: 0 }, 'duration_minutes', 'duration_minutes: must be 1..1440'],
        [{ pattern: 'slow-burn', host: 'shop/api', duration_minutes: 1.5 }, 'duration_minutes', 'duration_minutes: must be an integer'],
      ];
      for (const [body, field, error] of cases) expect(await svc.post('/sim/inject', body), field).to.deep.include({ status: 400, body: { error, code: 'invalid_body', field } });
    });

    it('GET /explain/…: the id may hold slashes and escapes; a trailing view name is the view, not the id', async () => {
      const cases: [string, string][] = [
        ['/explain/r_000000000000', 'r_000000000000'],
        ['/explain/shop/Deployment/api', 'shop/Deployment/api'],
        ['/explain/shop/Deployment/api/formula', 'shop/Deployment/api'],
        ['/explain/shop/Deployment/api/narrative', 'shop/Deployment/api'],
        ['/explain/shop%2FDeployment%2Fapi/pipeline', 'shop/Deployment/api'],
        ['/explain/formula', 'formula'],
      ];
      for (const [path, id] of cases) {
        const r = await svc.get(path);
        expect(r.status, path).to.equal(404);
        expect(r.body, path).to.include({ error: `rupture ${id} not found`, code: 'not_found' });
      }
    });

    it('POST /forecast: metric and workload are required, horizon a positive integer, an unknown workload a 404', async () => {
      expect(await svc.post('/forecast', { metric: 'cpu_percent' })).to.deep.include({
        status: 400,
        body: { error: 'workload: is required (a workload key, namespace/name or host)', code: 'invalid_body', field: 'workload' },
      });
      expect(await svc.post('/forecast', { metric: '', workload: 'shop/api' })).to.deep.include({ status: 400, body: { error: 'metric: must be a non-empty string', code: 'invalid_body', field: 'metric' } });
      expect(await svc.post('/forecast', { metric: 'cpu_percent', workload: 'shop/api', horizon: 0 })).to.deep.include({
        status: 400,
        body: { error: 'horizon must be a positive integer number of minutes', code: 'invalid_query', field: 'horizon' },
      });
      expect(await svc.post('/forecast', { metric: 'cpu_percent', workload: 'nowhere/Deployment/api' })).to.deep.include({ status: 404, body: { error: 'unknown workload: nowhere/Deployment/api', code: 'not_found' } });
    });
  });

  describe('on the real clock, with a workload analysed', () => {
    const svc = useTestService();

    before(async () => {
      const t = Date.now() - 60_000;
      expect((await svc.post('/v1/metrics', otlpMetrics({ namespace: 'fc', deployment: 'api' }, { cpu_percent: [[t, 0.4], [t + 15_000, 0.41]] }), svc.otlp)).status).to.equal(200);
      await eventually(async () => {
        const r = await svc.get('/rupture/fc/Deployment/api');
        return r.status === 200 && (r.body as { status: string }).status !== 'pending_telemetry' ? true : undefined;
      }, 15_000, 'the first analysed snapshot');
    });

    it('a series not seen yet: warming up, with the horizon clamped to a week', async () => {
      const r = await svc.get('/forecast/queue_depth/fc/Deployment/api?horizon=99999');
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal({
        workload: 'fc/Deployment/api',
        metric: 'queue_depth',
        horizon: 10080,
        warming_up: true,
        models: [],
        points: [],
        note: 'no series queue_depth for fc/Deployment/api yet: send it or wait for the first analysis step',
      });
      const posted = await svc.post('/forecast', { metric: 'queue_depth', workload: 'fc/Deployment/api' });
      expect(posted.body).to.deep.include({ workload: 'fc/Deployment/api', horizon: 60, warming_up: true });
    });
  });
});
