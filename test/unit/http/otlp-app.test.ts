import { expect } from 'chai';
import type { HttpIngestDecoder } from '../../../api-server/src/ingest/decoder.js';
import { createOtlpApp } from '../../../api-server/src/http/otlp-app.js';
import { otlpLogs, otlpMetrics, otlpSpans } from '../../support/otlp-builders.js';
import { listenOnLoopback } from './edge-server.js';
import { asServiceContext, ingestFixture, type IngestFixture } from './ingest-context.js';

const NOW = Date.UTC(2026, 0, 10, 12, 0, 0);
const KEY = 'otlp-key';
const shop = { namespace: 'shop', deployment: 'api' };
const bodies = {
  metrics: JSON.stringify(otlpMetrics(shop, { cpu_percent: [[NOW - 15_000, 0.4]] })),
  logs: JSON.stringify(otlpLogs(shop, [{ t: NOW - 15_000, severity: 17, text: 'boom' }, { t: NOW - 14_000, severity: 9, text: 'ok' }])),
  traces: JSON.stringify(otlpSpans(shop, [{ t: NOW - 15_000, durationMs: 20, error: false }, { t: NOW - 14_000, durationMs: 30, error: true }, { t: NOW - 13_000, durationMs: 40, error: false }])),
};

/** the extra route's decoder: a plain-text line count, to see that the given routes are mounted with the same edge */
const lineDecoder: HttpIngestDecoder = {
  source: 'logs',
  checkMedia: (contentType) => (contentType === 'text/plain' ? undefined : { unsupported: `Content-Type ${contentType} is not text/plain` }),
  decode: (request) => ({ batch: { metrics: [], logs: [], spans: [], rejected: 0 }, status: 202, responseBody: { lines: request.body.toString('utf8').split('\n').length } }),
};

describe('http/otlp-app: the OTLP port', () => {
  let f: IngestFixture;
  let server: { url: string; close(): Promise<void> };
  /** `key` null: no Authorization header */
  const post = (path: string, body: string, key: string | null = KEY, contentType = 'application/json') =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': contentType, ...(key === null ? {} : { authorization: `Bearer ${key}` }) }, body });

  beforeEach(async () => {
    f = ingestFixture({ rps: 1000, key: KEY, nowMs: NOW });
    server = await listenOnLoopback(createOtlpApp(asServiceContext(f.svc), { extraRoutes: [['/lines', lineDecoder]] }));
  });
  afterEach(() => server.close());

  it('serves each signal on both path forms (/otlp/v1/* and /v1/*) with its own decoder', async () => {
    for (const prefix of ['/otlp/v1', '/v1']) {
      for (const signal of ['metrics', 'logs', 'traces'] as const) {
        const r = await post(`${prefix}/${signal}`, bodies[signal]);
        expect(r.status, `${prefix}/${signal}`).to.equal(200);
        expect(await r.json()).to.deep.equal({ partialSuccess: {} });
      }
    }
    const counts = f.sink.batches.map((b) => [b.metrics.length, b.logs.length, b.spans.length]);
    const perPrefix = [
      [1, 0, 0],
      [0, 2, 0],
      [0, 0, 3],
    ];
    expect(counts).to.deep.equal([...perPrefix, ...perPrefix]);
  });

  it('a body that is not an envelope object is a 400 naming the envelope the path expects', async () => {
    for (const [path, field] of [['/v1/metrics', 'resourceMetrics'], ['/otlp/v1/logs', 'resourceLogs'], ['/v1/traces', 'resourceSpans']] as const) {
      const r = await post(path, '[1]');
      expect(r.status, path).to.equal(400);
      expect(await r.json(), path).to.include({ code: 'invalid_body', field });
    }
    expect(f.sink.batches).to.have.length(0);
  });

  it('every route needs the key: 401 with WWW-Authenticate: Bearer, before the token bucket is touched', async () => {
    f = ingestFixture({ rps: 1, key: KEY, nowMs: NOW });
    await server.close();
    server = await listenOnLoopback(createOtlpApp(asServiceContext(f.svc), { extraRoutes: [['/lines', lineDecoder]] }));
    for (const path of ['/otlp/v1/metrics', '/v1/metrics', '/otlp/v1/logs', '/v1/logs', '/otlp/v1/traces', '/v1/traces', '/lines']) {
      for (const key of [null, 'wrong']) {
        const r = await post(path, bodies.metrics, key);
        expect(r.status, `${path} ${key}`).to.equal(401);
        expect(r.headers.get('www-authenticate')).to.equal('Bearer');
        expect(((await r.json()) as { code: string }).code).to.equal('unauthorized');
      }
    }
    // the one token of the bucket is still there
    expect((await post('/v1/metrics', bodies.metrics)).status).to.equal(200);
    expect((await post('/v1/metrics', bodies.metrics)).status).to.equal(429);
  });

  it('mounts the extra routes it is given, with their decoder\'s media rules and answer', async () => {
    const r = await post('/lines', 'a\nb\nc', KEY, 'text/plain');
    expect(r.status).to.equal(202);
    expect(await r.json()).to.deep.equal({ lines: 3 });
    const refused = await post('/lines', '{}');
    expect(refused.status).to.equal(415);
    expect(await refused.json()).to.deep.equal({ error: 'Content-Type application/json is not text/plain', code: 'unsupported_media_type' });
  });

  it('another method on a known path is 405 with Allow: POST; an unknown or trailing-slash path is 404', async () => {
    const get = await fetch(`${server.url}/v1/metrics`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(get.status).to.equal(405);
    expect(get.headers.get('allow')).to.equal('POST');
    for (const path of ['/v1/metrics/', '/v2/metrics', '/otlp/v1/profiles', '/api/v2/write']) {
      const r = await post(path, bodies.metrics);
      expect(r.status, path).to.equal(404);
      expect(((await r.json()) as { code: string }).code, path).to.equal('not_found');
    }
  });
});
