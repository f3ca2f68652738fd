import { Router } from '@koa/router';
import { expect } from 'chai';
import fc from 'fast-check';
import { BearerKey } from '../../../api-server/src/http/bearer-auth.js';
import { startEdgeServer, type EdgeServer } from './edge-server.js';

const KEY = 's3cret-key';

describe('http/bearer-auth: the bearer key check', () => {
  it('without a key is open outside production and answers no_key in production', () => {
    for (const key of [undefined, '']) {
      expect(new BearerKey(key, false).enabled).to.equal(false);
      expect(new BearerKey(key, false).check(undefined)).to.equal('ok');
      expect(new BearerKey(key, false).check('Bearer anything')).to.equal('ok');
      expect(new BearerKey(key, true).check(`Bearer ${KEY}`)).to.equal('no_key');
    }
  });

  it('with a key accepts exactly "Bearer <key>", the scheme in any case', () => {
    const auth = new BearerKey(KEY, true);
    expect(auth.enabled).to.equal(true);
    expect(auth.check(`Bearer ${KEY}`)).to.equal('ok');
    expect(auth.check(`bearer ${KEY}`)).to.equal('ok');
    expect(auth.check(`BEARER ${KEY}`)).to.equal('ok');
    for (const header of [undefined, '', KEY, `Bearer ${KEY} `, `Bearer  ${KEY}`, `Bearer ${KEY}x`, 'Bearer s3cret-ke', `Basic ${KEY}`, `Bearer ${KEY.toUpperCase()}`, 'Bearer ']) {
      expect(auth.check(header), JSON.stringify(header)).to.equal('unauthorized');
    }
  });

  it('accepts no header other than the key\'s own (property)', () => {
    const key = fc.string({ minLength: 1 });
    // headers near the right one (any scheme case, other schemes, extra or missing characters) and random ones
    const header = (k: string) =>
      fc.oneof(
        fc.tuple(fc.constantFrom('Bearer', 'bearer', 'BEARER', 'Basic', 'Bearer:', ''), fc.constantFrom('', ' ', 'x'), fc.boolean()).map(([scheme, extra, cut]) => `${scheme} ${cut ? k.slice(1) : k}${extra}`),
        fc.string(),
      );
    fc.assert(
      fc.property(key.chain((k) => fc.tuple(fc.constant(k), header(k))), ([k, h]) => {
        const own = h.length === k.length + 7 && h.slice(0, 7).toLowerCase() === 'bearer ' && h.slice(7) === k && !k.includes(' ');
        expect(new BearerKey(k, false).check(h), JSON.stringify([k, h])).to.equal(own ? 'ok' : 'unauthorized');
      }),
      { numRuns: 1000 },
    );
  });

  describe('as middleware on a real server', () => {
    let secured: EdgeServer;
    let unconfigured: EdgeServer;
    const routerWith = (auth: BearerKey): Router => {
      const router = new Router({ strict: true });
      router.use(auth.middleware());
      router.get('/thing', (ctx) => {
        ctx.body = { ok: true };
      });
      return router;
    };
    before(async () => {
      secured = await startEdgeServer([routerWith(new BearerKey(KEY, true))]);
      unconfigured = await startEdgeServer([routerWith(new BearerKey(undefined, true))]);
    });
    after(async () => {
      await secured.close();
      await unconfigured.close();
    });

    it('passes the right key through', async () => {
      const r = await fetch(`${secured.url}/thing`, { headers: { authorization: `Bearer ${KEY}` } });
      expect(r.status).to.equal(200);
      expect(await r.json()).to.deep.equal({ ok: true });
    });

    it('answers a missing or wrong key 401 with WWW-Authenticate: Bearer', async () => {
      for (const headers of [{}, { authorization: 'Bearer wrong' }] as Record<string, string>[]) {
        const r = await fetch(`${secured.url}/thing`, { headers });
        expect(r.status).to.equal(401);
        expect(r.headers.get('www-authenticate')).to.equal('Bearer');
        expect(await r.json()).to.deep.equal({ error: 'missing or invalid bearer key in the Authorization header', code: 'unauthorized' });
      }
    });

    it('answers 503 no_api_key in production when no key is configured', async () => {
      const r = await fetch(`${unconfigured.url}/thing`, { headers: { authorization: `Bearer ${KEY}` } });
      expect(r.status).to.equal(503);
      expect(await r.json()).to.deep.equal({ error: 'no API key configured: set SVC_API_KEY or --api-key', code: 'no_api_key' });
    });
  });
});
