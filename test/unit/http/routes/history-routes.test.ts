import { expect } from 'chai';
import { otlpMetrics } from '../../../support/otlp-builders.js';
import { eventually, useTestService } from '../../../support/service.js';

describe('http/routes/history-routes: the stored FusedR history of one workload', function () {
  this.timeout(30_000);
  const svc = useTestService();
  const workload = 'hist/Deployment/api';
  let analysedAt: number;

  before(async () => {
    const t = Date.now() - 60_000;
    const body = otlpMetrics({ namespace: 'hist', deployment: 'api' }, { cpu_percent: [[t, 0.4], [t + 15_000, 0.42]] });
    expect((await svc.post('/v1/metrics', body, svc.otlp)).status).to.equal(200);
    // known from its first point (status pending_telemetry), then analysed
    analysedAt = await eventually(async () => {
      const r = await svc.get(`/rupture/${workload}`);
      const body = r.body as { status: string; timestamp: string };
      return r.status === 200 && body.status !== 'pending_telemetry' ? Date.parse(body.timestamp) : undefined;
    }, 15_000, 'the first analysed snapshot');
  });

  it('the span counts back from the workload\'s latest analysed snapshot; the tier follows the span unless given', async () => {
    const expected: [string, string, number][] = [
      ['', 'raw', 3_600_000],
      ['?span=6h', 'raw', 6 * 3_600_000],
      ['?span=2d', '1m', 48 * 3_600_000],
      ['?span=30d', '5m', 720 * 3_600_000],
      ['?span=1y', '1h', 8760 * 3_600_000],
      ['?span=1y&tier=raw', 'raw', 8760 * 3_600_000],
    ];
    for (const [query, tier, spanMs] of expected) {
      const r = await svc.get(`/history/${workload}${query}`);
      expect(r.status, query).to.equal(200);
      const body = r.body as { workload: string; tier: string; from: string; to: string; points: unknown[] };
      expect(body.workload, query).to.equal(workload);
      expect(body.tier, query).to.equal(tier);
      // the latest snapshot: the one seen analysed or a later one
      expect(Date.parse(body.to), query).to.be.within(analysedAt, Date.now());
      expect(Date.parse(body.to) - Date.parse(body.from), query).to.equal(spanMs);
      expect(body.points, query).to.be.an('array');
    }
  });

  it('a bad span or tier is a 400 naming the query field; an unknown workload a 404', async () => {
    expect((await svc.get(`/history/${workload}?span=2w`)).body).to.deep.equal({ error: 'span must be one of 1h, 6h, 2d, 30d, 1y', code: 'invalid_query', field: 'span' });
    expect((await svc.get(`/history/${workload}?tier=2m`)).body).to.deep.equal({ error: 'tier must be one of raw, 1m, 5m, 1h', code: 'invalid_query', field: 'tier' });
    expect(await svc.get('/history/hist/Deployment/nope')).to.deep.include({ status: 404, body: { error: 'unknown workload: hist/Deployment/nope', code: 'not_found' } });
  });
});
