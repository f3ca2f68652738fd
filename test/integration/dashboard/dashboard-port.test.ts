import { expect } from 'chai';
import { eventually, useTestService } from '../../support/service.js';

interface HistoryJson {
  workload: string;
  tier: string;
  span: string;
  from: string;
  to: string;
  points: { t: string; fused_r: number; health_score: number }[];
}

describe('dashboard port: the page without a key, the API with it, and the FusedR history route', function () {
  this.timeout(60_000);
  const key = 'dash-port-key';
  const svc = useTestService({ key });
  let dashboard: string;

  before(() => {
    dashboard = `http://127.0.0.1:${svc.server.ports.dashboard}`;
  });

  it('serves the same /api/v2 routes and auth as the REST port, and the page (or its not-built notice) without a key', async () => {
    expect((await fetch(`${dashboard}/api/v2/ruptures`)).status).to.equal(401);
    expect((await fetch(`${dashboard}/api/v2/ruptures`, { headers: { authorization: `Bearer ${key}` } })).status).to.equal(200);
    expect((await fetch(`${dashboard}/api/v2/health`)).status).to.equal(200);
    expect((await fetch(`${dashboard}/api/v2/nope`, { headers: { authorization: `Bearer ${key}` } })).status).to.equal(404);
    const page = await fetch(`${dashboard}/`);
    expect(page.status).to.be.oneOf([200, 503]); // 503 until `npm run build` has built dashboard/dist
    expect(page.headers.get('www-authenticate')).to.equal(null);
    // the REST port serves no page
    expect((await fetch(`http://127.0.0.1:${svc.server.ports.rest}/`)).status).to.equal(404);
  });

  it('answers the stored KPI history of a workload from the tier that fits the span', async () => {
    expect((await svc.post('/sim/inject', { pattern: 'slow-burn', host: 'hist/api', duration_minutes: 5 })).status).to.equal(202);
    const h = await eventually(async () => {
      const r = await svc.get('/history/hist/Deployment/api?span=1h');
      const body = r.body as HistoryJson;
      return r.status === 200 && body.points.length >= 2 ? body : undefined;
    }, 30_000, 'history points');
    expect(h.workload).to.equal('hist/Deployment/api');
    expect(h.tier).to.equal('raw');
    expect(Date.parse(h.to) - Date.parse(h.from)).to.equal(3_600_000);
    for (const p of h.points) {
      expect(Date.parse(p.t)).to.be.within(Date.parse(h.from), Date.parse(h.to));
      expect(p.fused_r).to.be.within(0, 10);
      expect(p.health_score).to.be.within(0, 1);
    }
    const times = h.points.map((p) => Date.parse(p.t));
    expect([...times].sort((a, b) => a - b)).to.deep.equal(times);

    expect(((await svc.get('/history/hist/Deployment/api?span=2d')).body as HistoryJson).tier).to.equal('1m');
    expect(((await svc.get('/history/hist/Deployment/api?span=30d')).body as HistoryJson).tier).to.equal('5m');
    expect(((await svc.get('/history/hist/Deployment/api?span=1y')).body as HistoryJson).tier).to.equal('1h');
    expect(((await svc.get('/history/hist/Deployment/api?span=1h&tier=1m')).body as HistoryJson).tier).to.equal('1m');
    const badSpan = await svc.get('/history/hist/Deployment/api?span=2w');
    expect(badSpan.status).to.equal(400);
    expect(badSpan.body).to.include({ field: 'span' });
    expect((await svc.get('/history/hist/Deployment/api?tier=2m')).body).to.include({ field: 'tier' });
    expect((await svc.get('/history/hist/Deployment/nope')).status).to.equal(404);
  });
});
