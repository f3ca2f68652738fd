import { expect } from 'chai';
import { useTestService } from '../../../support/service.js';

const NOW = Date.UTC(2026, 0, 10, 12, 0, 0);
const KEY = 'control-key';

describe('http/routes/control-routes: suppressions, context events, weight overrides and failure objectives', function () {
  this.timeout(30_000);
  const svc = useTestService({ key: KEY, now: () => NOW });
  const send = async (method: 'POST' | 'DELETE', path: string, body?: unknown) => {
    const r = await fetch(`${svc.api}${path}`, { method, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await r.text();
    return { status: r.status, body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>) };
  };

  it('a suppression: 201 with its window in UTC, listed as active, deleted with 204, then 404', async () => {
    const created = await send('POST', '/suppressions', { workload: 'shop/Deployment/api', start: '2026-01-10T12:30:00+01:00', end: '2026-01-10T13:00:00Z', reason: 'deploy', signals: ['stress'] });
    expect(created.status).to.equal(201);
    const id = created.body?.['id'];
    expect(id).to.be.a('string').and.match(/^sup_[0-9a-f]{12}$/);
    expect(created.body).to.deep.include({
      workload: 'shop/Deployment/api',
      start: '2026-01-10T11:30:00.000Z',
      end: '2026-01-10T13:00:00.000Z',
      reason: 'deploy',
      signals: ['stress'],
      active: true,
      created_at: '2026-01-10T12:00:00.000Z',
    });
    const listed = (await svc.get('/suppressions')).body as { suppressions: { id: string; active: boolean }[] };
    expect(listed.suppressions.map((s) => [s.id, s.active])).to.deep.equal([[id, true]]);
    expect((await send('DELETE', `/suppressions/${String(id)}`)).status).to.equal(204);
    const again = await send('DELETE', `/suppressions/${String(id)}`);
    expect(again).to.deep.equal({ status: 404, body: { error: `suppression ${String(id)} not found`, code: 'not_found' } });
  });

  it('a bad suppression is a 400 naming the field and the rule', async () => {
    const base = { workload: 'shop/Deployment/api', start: '2026-01-10T12:00:00Z', end: '2026-01-10T13:00:00Z' };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...base, end: '2026-01-10T11:00:00Z' }, 'end', 'end: must be after start'],
      [{ ...base, workload: 'api' }, 'workload', 'workload: must be a workload key namespace/Kind/name, namespace/* or *'],
      [{ ...base, signals: ['stress', 'stress'] }, 'signals', 'signals: must not repeat a signal'],
    ];
    for (const [body, field, error] of cases) {
      expect(await send('POST', '/suppressions', body), field).to.deep.equal({ status: 400, body: { error, code: 'invalid_body', field } });
    }
  });

  it('a context event: 201, its timestamp in UTC (now when absent), filtered by workload, deleted once', async () => {
    const dated = await send('POST', '/context', { workload: 'shop/*', event: 'deploy', description: 'v2', timestamp: '2026-01-10T12:30:00+01:00' });
    expect(dated.status).to.equal(201);
    expect(dated.body).to.deep.include({ workload: 'shop/*', event: 'deploy', description: 'v2', timestamp: '2026-01-10T11:30:00.000Z', created_at: '2026-01-10T12:00:00.000Z' });
    const undated = await send('POST', '/context', { workload: 'other/Deployment/db', event: 'failover' });
    expect(undated.body).to.deep.include({ description: '', timestamp: '2026-01-10T12:00:00.000Z' });
    const shop = (await svc.get('/context?workload=shop/*')).body as { events: { event: string }[] };
    expect(shop.events.map((e) => e.event)).to.deep.equal(['deploy']);
    expect((await send('DELETE', `/context/${String(dated.body?.['id'])}`)).status).to.equal(204);
    expect((await send('DELETE', `/context/${String(dated.body?.['id'])}`)).status).to.equal(404);
    expect(await send('POST', '/context', { workload: '*', event: '' })).to.deep.equal({ status: 400, body: { error: 'event: must not be empty', code: 'invalid_body', field: 'event' } });
  });

  it('weight overrides: each entry scaled to sum 1, listed back; not an array or no positive weight is a 400', async () => {
    expect(await send('POST', '/config/weights', [{ selector: 'shop/*', stress: 2, fatigue: 6 }])).to.deep.equal({ status: 200, body: { applied: 1 } });
    expect((await svc.get('/config/weights')).body).to.deep.equal([{ selector: 'shop/*', stress: 0.25, fatigue: 0.75, mood: 0, pressure: 0, humidity: 0, contagion: 0 }]);
    expect(await send('POST', '/config/weights', { selector: '*' })).to.deep.equal({ status: 400, body: { error: 'body must be a JSON array of weight overrides', code: 'invalid_body' } });
    const none = await send('POST', '/config/weights', [{ selector: '*', stress: 0 }]);
    expect(none.status).to.equal(400);
    expect(none.body).to.include({ code: 'invalid_body', field: '[0].stress' });
    // the refused write left the previous list in place
    expect(((await svc.get('/config/weights')).body as unknown[]).length).to.equal(1);
  });

  it('failure objectives: the list replaced whole and listed back; every bad field a 400 naming it; the bearer key required', async () => {
    expect((await svc.get('/config/objectives')).body).to.deep.equal([]);
    const list = [
      { selector: 'shop/Deployment/cart', error_rate: 0.15, latency_ms: 450 },
      { selector: 'shop/*', memory: 0.9, cpu: 0.85 },
    ];
    expect(await send('POST', '/config/objectives', list)).to.deep.equal({ status: 200, body: { applied: 2 } });
    // idempotent: the same list again is the same state
    expect(await send('POST', '/config/objectives', list)).to.deep.equal({ status: 200, body: { applied: 2 } });
    expect((await svc.get('/config/objectives')).body).to.deep.equal(list);
    const cases: [unknown, string, string][] = [
      [[{ selector: '*', error_rate: 15 }], '[0].error_rate', '[0].error_rate: must be <= 1 (a fraction, not a percentage)'],
      [[{ selector: '*' }, { selector: 'shop', cpu: 0.5 }], '[1].selector', '[1].selector: must be *, namespace/* or namespace/Kind/name'],
      [[{ selector: '*', latency_ms: -5 }], '[0].latency_ms', '[0].latency_ms: must be > 0 (milliseconds)'],
    ];
    for (const [body, field, error] of cases) {
      expect(await send('POST', '/config/objectives', body), field).to.deep.equal({ status: 400, body: { error, code: 'invalid_body', field } });
    }
    const unknown = await send('POST', '/config/objectives', [{ selector: '*', errorRate: 0.1 }]);
    expect(unknown.status).to.equal(400);
    expect(unknown.body).to.include({ code: 'invalid_body', field: '[0]' });
    expect(String(unknown.body?.['error'])).to.contain('errorRate');
    expect(await send('POST', '/config/objectives', { selector: '*' })).to.deep.equal({ status: 400, body: { error: 'body must be a JSON array of failure objectives', code: 'invalid_body' } });
    // the refused writes left the list in place; a new list replaces it whole
    expect((await svc.get('/config/objectives')).body).to.deep.equal(list);
    expect(await send('POST', '/config/objectives', [{ selector: '*', error_rate: 0.2 }])).to.deep.equal({ status: 200, body: { applied: 1 } });
    expect((await svc.get('/config/objectives')).body).to.deep.equal([{ selector: '*', error_rate: 0.2 }]);
    const anonymous = await fetch(`${svc.api}/config/objectives`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[]' });
    expect(anonymous.status).to.equal(401);
    expect((await fetch(`${svc.api}/config/objectives`)).status).to.equal(401);
  });
});
