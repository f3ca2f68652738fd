import { expect } from 'chai';
import { SIMULATION_PATTERNS } from '../../../api-server/src/simulation/patterns.js';
import { eventually, startTestService } from '../../support/service.js';

describe('simulation: every pattern drives its workload out of the normal band within its duration', function () {
  this.timeout(240_000);

  it('memory-leak, cascade-failure, traffic-surge and slow-burn, through the real ingest path', async () => {
    const svc = await startTestService();
    try {
      const started = Date.now();
      for (const pattern of SIMULATION_PATTERNS) {
        const r = await svc.post('/sim/inject', { pattern, host: `sim/${pattern}`, duration_minutes: 3 });
        expect(r.status).to.equal(202);
        expect((r.body as { injection_id: string }).injection_id).to.match(/^sim_[0-9a-f]{12}$/);
      }
      for (const pattern of SIMULATION_PATTERNS) {
        const state = await eventually(
          async () => {
            const s = (await svc.get(`/rupture/sim/Deployment/${pattern}`)).body as { state?: string };
            return s.state !== undefined && !['stable', 'elevated'].includes(s.state) ? s.state : undefined;
          },
          Math.max(1000, 3 * 60_000 - (Date.now() - started)),
          `${pattern} to leave the normal band`,
        );
        expect(['warning', 'critical', 'emergency']).to.include(state);
      }
      const flow = (await svc.get('/dataflow')).body as { metrics: number; logs: number };
      expect(flow.metrics).to.be.greaterThan(0);
      expect(flow.logs).to.be.greaterThan(0);
    } finally {
      await svc.stop();
      await svc.remove();
    }
  });
});
