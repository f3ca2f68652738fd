import { expect } from 'chai';
import type Koa from 'koa';
import type { HttpIngestDecoder } from '../../../api-server/src/ingest/decoder.js';
import { createRestApp } from '../../../api-server/src/http/rest-app.js';
import type { ServiceContext } from '../../../api-server/src/http/service-context.js';
import { listenOnLoopback } from './edge-server.js';
import { ingestFixture, type IngestFixture } from './ingest-context.js';

const KEY = 'rest-key';
const PORTS = { rest: 18080, otlp: 14317, otlpHttp: 0, dashboard: 18081, statsd: 18125, grpc: 19090 };

/** the remote-write stand-in: answers 204 with the byte count, to see /api/v2/write mounted behind the key */
const countingDecoder: HttpIngestDecoder = {
  source: 'metrics',
  checkMedia: () => undefined,
  decode: (request) => ({ batch: { metrics: [], logs: [], spans: [], rejected: 0 }, status: 204, headers: { 'x-bytes': String(request.body.length) } }),
};

describe('http/rest-app: the REST port under /api/v2', () => {
  let f: IngestFixture;
  let ready: boolean;
  let server: { url: string; close(): Promise<void> };
  const auth = { authorization: `Bearer ${KEY}` };

  async function serve(options: { remoteWrite?: HttpIngestDecoder; before?: Koa.Middleware[] } = {}): Promise<void> {
    f = ingestFixture({ key: KEY });
    ready = false;
    // the routes read the rest of the context only when they are called; these tests call none of them
    const svc = { ...f.svc, ready: () => ready, ports: PORTS } as ServiceContext;
    server = await listenOnLoopback(createRestApp(svc, options));
  }
  afterEach(() => server.close());

  it('/ready and /metrics are open: 503 not_ready with Retry-After: 1 while starting, then 200', async () => {
    await serve();
    const starting = await fetch(`${server.url}/api/v2/ready`);
    expect(starting.status).to.equal(503);
    expect(starting.headers.get('retry-after')).to.equal('1');
    expect(await starting.json()).to.deep.equal({ error: 'the service is starting: storage is being opened and state restored', code: 'not_ready' });
    ready = true;
    const up = await fetch(`${server.url}/api/v2/ready`);
    expect(up.status).to.equal(200);
    expect(await up.json()).to.deep.equal({ status: 'ready' });
    const metrics = await fetch(`${server.url}/api/v2/metrics`);
    expect(metrics.status).to.equal(200);
    expect(metrics.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
    expect(await metrics.text()).to.contain('# TYPE rpt_ingest_dropped_total counter');
  });

  it('every other route needs the key first (401), then readiness (503 not_ready)', async () => {
    await serve();
    for (const path of ['/api/v2/ruptures', '/api/v2/actions', '/api/v2/suppressions']) {
      const anonymous = await fetch(`${server.url}${path}`);
      expect(anonymous.status, path).to.equal(401);
      expect(anonymous.headers.get('www-authenticate'), path).to.equal('Bearer');
      const starting = await fetch(`${server.url}${path}`, { headers: auth });
      expect(starting.status, path).to.equal(503);
      expect(((await starting.json()) as { code: string }).code, path).to.equal('not_ready');
    }
  });

  it('OTLP posted to /api/v2/v1/{metrics,logs,traces}: 421 naming the OTLP port', async () => {
    await serve();
    ready = true;
    for (const signal of ['metrics', 'logs', 'traces']) {
      const r = await fetch(`${server.url}/api/v2/v1/${signal}`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{}' });
      expect(r.status, signal).to.equal(421);
      expect(await r.json()).to.deep.equal({
        error: 'OTLP is served on the OTLP port 14317 (paths /otlp/v1/* and /v1/*), not on the REST port',
        code: 'misdirected_request',
        otlp_port: 14317,
      });
    }
  });

  it('/api/v2/write exists only with a remote-write decoder, behind the key and the readiness gate', async () => {
    await serve();
    ready = true;
    expect((await fetch(`${server.url}/api/v2/write`, { method: 'POST', headers: auth, body: 'x' })).status).to.equal(404);
    await server.close();
    await serve({ remoteWrite: countingDecoder });
    expect((await fetch(`${server.url}/api/v2/write`, { method: 'POST', body: 'abc' })).status).to.equal(401);
    expect((await fetch(`${server.url}/api/v2/write`, { method: 'POST', headers: auth, body: 'abc' })).status).to.equal(503);
    ready = true;
    const written = await fetch(`${server.url}/api/v2/write`, { method: 'POST', headers: auth, body: 'abc' });
    expect(written.status).to.equal(204);
    expect(written.headers.get('x-bytes')).to.equal('3');
    expect(f.sink.batches).to.have.length(1);
  });

  it('root paths of another port: GET /metrics and POST /v1/logs are 404s that say where they belong', async () => {
    await serve();
    const metrics = await fetch(`${server.url}/metrics`);
    expect(metrics.status).to.equal(404);
    expect(await metrics.json()).to.deep.equal({
      error: '/metrics is served under /api/v2: GET /api/v2/metrics',
      code: 'not_found',
      hint: 'use http://<host>:18080/api/v2/metrics (the REST port 18080; the dashboard port answers it too)',
      path: '/api/v2/metrics',
      rest_port: 18080,
    });
    const logs = await fetch(`${server.url}/v1/logs`, { method: 'POST', body: '{}' });
    expect(logs.status).to.equal(404);
    expect(await logs.json()).to.include({ code: 'not_found', otlp_port: 14317 });
    const unknown = await fetch(`${server.url}/api/v3/ruptures`);
    expect(unknown.status).to.equal(404);
    expect(await unknown.json()).to.deep.equal({ error: 'not found', code: 'not_found' });
  });

  it('the `before` middleware runs ahead of the API (the dashboard\'s static files)', async () => {
    await serve({
      before: [
        async (ctx, next) => {
          if (ctx.path === '/index.html') ctx.body = 'page';
          else await next();
        },
      ],
    });
    expect(await (await fetch(`${server.url}/index.html`)).text()).to.equal('page');
    expect((await fetch(`${server.url}/api/v2/ready`)).status).to.equal(503);
  });
});
