import { expect } from 'chai';
import { eventually, useTestService } from '../../support/service.js';

describe("the simulator's calm baseline raises no band event (issue 30)", function () {
  this.timeout(120_000);

  const svc = useTestService();

  for (const pattern of ['memory-leak', 'slow-burn']) {
    it(`${pattern}: no event before the pattern starts, after 30 minutes of calm history`, async () => {
      const host = `calm/${pattern}`;
      const injected = await svc.post('/sim/inject', { pattern, host, duration_minutes: 1 });
      expect(injected.status).to.equal(202);
      const startedAt = Date.parse((injected.body as { started_at: string }).started_at);
      // the baseline is processed once the workload is past calibration
      await eventually(async () => {
        const r = await svc.get(`/rupture/calm/Deployment/${pattern}`);
        return r.status === 200 && (r.body as { status: string }).status === 'active' ? true : undefined;
      }, 60_000, 'the calm baseline to be analysed');
      const events = ((await fetch(`${svc.api}/events?limit=1000`, { headers: { accept: 'application/json' } }).then((r) => r.json())) as { events: { workload: string; ts: string; type: string }[] }).events;
      const before = events.filter((e) => e.workload === `calm/Deployment/${pattern}` && Date.parse(e.ts) < startedAt);
      expect(before, JSON.stringify(before)).to.deep.equal([]);
    });
  }
});
