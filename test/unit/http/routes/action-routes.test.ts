import { expect } from 'chai';
import { EDITION_MESSAGE } from '../../../../api-server/src/actions/action-errors.js';
import { useTestService } from '../../../support/service.js';

const NOW = Date.UTC(2026, 0, 10, 12, 0, 0);

describe('http/routes/action-routes: actions, decisions, results and the emergency stop', function () {
  this.timeout(30_000);

  describe('community edition', () => {
    const svc = useTestService({ now: () => NOW });

    it('the emergency stop: off, engaged with its time, released; the list is empty', async () => {
      expect((await svc.get('/actions/emergency-stop')).body).to.deep.equal({ emergency_stop: false, since: null });
      expect(await svc.post('/actions/emergency-stop', '')).to.deep.include({ status: 200, body: { emergency_stop: true, since: '2026-01-10T12:00:00.000Z' } });
      expect((await svc.get('/actions/emergency-stop')).body).to.deep.equal({ emergency_stop: true, since: '2026-01-10T12:00:00.000Z' });
      const released = await fetch(`${svc.api}/actions/emergency-stop`, { method: 'DELETE' });
      expect(released.status).to.equal(200);
      expect(await released.json()).to.deep.equal({ emergency_stop: false });
      expect((await svc.get('/actions')).body).to.deep.equal({ actions: [] });
    });

    it('approve and rollback answer 402 before any lookup; reject of an unknown id is 404', async () => {
      for (const verb of ['approve', 'rollback']) {
        const r = await svc.post(`/actions/act_000000000000/${verb}`, '');
        expect(r.status, verb).to.equal(402);
        expect(r.body, verb).to.deep.equal({ error: EDITION_MESSAGE, code: 'edition_required', upgrade: 'restart the service with SVC_EDITION=autopilot' });
      }
      expect(await svc.post('/actions/act_000000000000/reject', '')).to.deep.include({ status: 404, body: { error: 'action act_000000000000 not found', code: 'not_found' } });
      expect(await svc.get('/actions/act_000000000000')).to.deep.include({ status: 404, body: { error: 'action act_000000000000 not found', code: 'not_found' } });
    });
  });

  describe('autopilot edition', () => {
    const svc = useTestService({ now: () => NOW, args: ['--edition', 'autopilot'] });

    it('approve of an unknown id is 404', async () => {
      expect(await svc.post('/actions/act_ffffffffffff/approve', '')).to.deep.include({ status: 404, body: { error: 'action act_ffffffffffff not found', code: 'not_found' } });
    });

    it('a result report is validated first (400 naming the field), then looked up (404)', async () => {
      const cases: [unknown, string][] = [
        [{ outcome: 'done', executor: 'operator' }, 'outcome'],
        [{ outcome: 'executed' }, 'executor'],
        [{ outcome: 'executed', executor: 'operator', replicas: -1 }, 'replicas'],
        [{ outcome: 'executed', executor: 'operator', previous_replicas: 1.5 }, 'previous_replicas'],
        [{ outcome: 'failed', executor: 'operator', reason: 'x'.repeat(257) }, 'reason'],
      ];
      for (const [body, field] of cases) {
        const r = await svc.post('/actions/act_ffffffffffff/result', body);
        expect(r.status, field).to.equal(400);
        expect(r.body, field).to.include({ code: 'invalid_body', field });
        expect((r.body as { error: string }).error, field).to.match(new RegExp(`^${field}: `));
      }
      const known = await svc.post('/actions/act_ffffffffffff/result', { outcome: 'executed', executor: 'operator', replicas: 3 });
      expect(known).to.deep.include({ status: 404, body: { error: 'action act_ffffffffffff not found', code: 'not_found' } });
    });
  });
});
