import { Router } from '@koa/router';
import { expect } from 'chai';
import { startEdgeServer, type EdgeServer } from './edge-server.js';

describe('http/app-shell: error handling in front, 405 + Allow and a JSON 404 behind', () => {
  let edge: EdgeServer;
  before(async () => {
    const first = new Router({ strict: true });
    first.get('/things', (ctx) => {
      ctx.body = { from: 'first' };
    });
    first.post('/things', (ctx) => {
      ctx.status = 201;
    });
    const second = new Router({ strict: true });
    second.get('/things', (ctx) => {
      ctx.body = { from: 'second' };
    });
    second.get('/other', (ctx) => {
      ctx.body = { from: 'second' };
    });
    edge = await startEdgeServer([first, second]);
  });
  after(() => edge.close());

  it('mounts the routers in order: the first that answers a path wins', async () => {
    expect(await (await fetch(`${edge.url}/things`)).json()).to.deep.equal({ from: 'first' });
    expect(await (await fetch(`${edge.url}/other`)).json()).to.deep.equal({ from: 'second' });
  });

  it('answers a known path asked with another method 405 with Allow and the JSON error body', async () => {
    const r = await fetch(`${edge.url}/things`, { method: 'DELETE' });
    expect(r.status).to.equal(405);
    expect(r.headers.get('allow')).to.include('GET').and.to.include('POST');
    expect(await r.json()).to.deep.equal({ error: 'method not allowed', code: 'method_not_allowed' });
  });

  it('answers any other path 404 with the JSON error body', async () => {
    const r = await fetch(`${edge.url}/nothing/here`);
    expect(r.status).to.equal(404);
    expect(r.headers.get('content-type')).to.match(/^application\/json/);
    expect(await r.json()).to.deep.equal({ error: 'not found', code: 'not_found' });
  });
});
