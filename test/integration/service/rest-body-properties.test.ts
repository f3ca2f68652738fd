import { expect } from 'chai';
import fc from 'fast-check';
import { useTestService } from '../../support/service.js';

const ROUTES = ['/suppressions', '/context', '/config/weights', '/config/objectives', '/forecast', '/sim/inject', '/actions/act_000000000000/result'];

describe('REST bodies: every malformed body is a 4xx naming the field, never a 5xx (property)', function () {
  this.timeout(120_000);
  const svc = useTestService({ args: ['--edition', 'autopilot'] });

  const post = (path: string, body: string) => fetch(`${svc.api}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  it('random JSON values', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), fc.jsonValue(), async (path, value) => {
        const r = await post(path, JSON.stringify(value));
        expect(r.status, `${path} ${JSON.stringify(value)}`).to.be.lessThan(500);
        const body = (await r.json().catch(() => ({}))) as { error?: unknown; code?: unknown };
        if (r.status >= 400) {
          expect(body.error).to.be.a('string');
          expect(body.code).to.be.a('string');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('objects shaped like the real bodies with random member values', async () => {
    const member = fc.oneof(fc.jsonValue(), fc.string(), fc.integer(), fc.double(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }));
    const shaped = fc.record(
      {
        workload: member,
        start: member,
        end: member,
        signals: member,
        event: member,
        selector: member,
        stress: member,
        metric: member,
        horizon: member,
        pattern: member,
        host: member,
        duration_minutes: member,
        outcome: member,
        executor: member,
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), fc.oneof(shaped, fc.array(shaped, { maxLength: 3 })), async (path, value) => {
        const r = await post(path, JSON.stringify(value));
        expect(r.status, `${path} ${JSON.stringify(value)}`).to.be.lessThan(500);
        await r.arrayBuffer();
      }),
      { numRuns: 300 },
    );
    svc.server.context.injector.stopAll();
  });

  it('bytes that are not JSON, an empty body, a BOM, and an oversized body', async () => {
    for (const path of ROUTES) {
      expect((await post(path, '{"a":')).status).to.equal(400);
      expect((await post(path, '')).status).to.equal(400);
    }
    const bom = await post('/context', '\ufeff{"workload":"*","event":"deploy"}');
    expect(bom.status).to.equal(201);
    const big = await post('/context', JSON.stringify({ workload: '*', event: 'x', description: 'y'.repeat(2 * 1024 * 1024) }));
    expect(big.status).to.equal(413);
    expect((await fetch(`${svc.api}/health`)).status).to.equal(200);
  });
});
