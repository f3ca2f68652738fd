import { expect } from 'chai';
import { useTestService } from '../../../support/service.js';

describe('http/routes/event-routes: GET /events, the live stream and its JSON fallback', function () {
  this.timeout(30_000);
  const svc = useTestService({ key: 'events-key' });
  const auth = { authorization: 'Bearer events-key' };

  it('Accept: application/json only: the recent events as JSON (none yet)', async () => {
    const r = await fetch(`${svc.api}/events`, { headers: { ...auth, accept: 'application/json' } });
    expect(r.status).to.equal(200);
    expect(await r.json()).to.deep.equal({ events: [] });
  });

  it('min_fused_r must be a number; limit a positive integer', async () => {
    const bad = await fetch(`${svc.api}/events?min_fused_r=high`, { headers: { ...auth, accept: 'application/json' } });
    expect(bad.status).to.equal(400);
    expect(await bad.json()).to.deep.equal({ error: 'min_fused_r must be a number', code: 'invalid_query', field: 'min_fused_r' });
    const limit = await fetch(`${svc.api}/events?limit=-1`, { headers: { ...auth, accept: 'application/json' } });
    expect(limit.status).to.equal(400);
    expect(await limit.json()).to.include({ code: 'invalid_query', field: 'limit' });
  });

  it('otherwise a server-sent event stream that opens with a connected frame; the key is needed', async () => {
    expect((await fetch(`${svc.api}/events`)).status).to.equal(401);
    const abort = new AbortController();
    const r = await fetch(`${svc.api}/events`, { headers: { ...auth, accept: 'text/event-stream' }, signal: abort.signal });
    try {
      expect(r.status).to.equal(200);
      expect(r.headers.get('content-type')).to.equal('text/event-stream');
      expect(r.headers.get('cache-control')).to.equal('no-cache');
      const reader = r.body!.getReader();
      let text = '';
      while (!text.includes('\n\n')) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      const frame = /^data: (.*)\n\n/.exec(text);
      expect(frame, text).not.to.equal(null);
      const connected = JSON.parse(frame![1]!) as { type: string; ts: string };
      expect(connected.type).to.equal('connected');
      expect(Math.abs(Date.parse(connected.ts) - Date.now())).to.be.below(10_000);
    } finally {
      abort.abort();
    }
  });
});
