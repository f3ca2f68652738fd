import { Router } from '@koa/router';
import { expect } from 'chai';
import fc from 'fast-check';
import type { HttpIngestDecoder, IngestRequest } from '../../../../api-server/src/ingest/decoder.js';
import { otlpMetricsDecoder } from '../../../../api-server/src/ingest/otlp-json/otlp-json-decoders.js';
import { ingestHandler } from '../../../../api-server/src/ingest/http/ingest-route.js';
import { otlpMetrics } from '../../../support/otlp-builders.js';
import { startEdgeServer, type EdgeServer } from '../../http/edge-server.js';
import { asServiceContext, ingestFixture, type IngestFixture } from '../../http/ingest-context.js';

const NOW = Date.UTC(2026, 0, 10, 12, 0, 0);
const DAY = 86_400_000;
const json = { 'content-type': 'application/json' };
const twoPoints = JSON.stringify(otlpMetrics({ namespace: 'shop', deployment: 'api' }, { cpu_percent: [[NOW - 30_000, 0.4], [NOW - 15_000, 0.5]] }));

/** a decoder of the test's own: answers 204 with headers, and keeps what it was handed */
class EchoDecoder implements HttpIngestDecoder {
  readonly source = 'metrics' as const;
  seen: IngestRequest | undefined;
  checkMedia(contentType: string): { unsupported: string } | undefined {
    return contentType === 'application/x-echo' ? undefined : { unsupported: `Content-Type ${contentType} is not echo` };
  }
  decode(request: IngestRequest) {
    this.seen = request;
    return { batch: { metrics: [], logs: [], spans: [], rejected: 0 }, status: 204, headers: { 'x-echo-bytes': String(request.body.length) }, responseBody: { never: 'sent' } };
  }
}

describe('http/ingest-route: the one HTTP ingest mechanism', () => {
  let f: IngestFixture;
  let edge: EdgeServer;
  const echo = new EchoDecoder();
  const post = (path: string, body: string | Buffer, headers: Record<string, string> = json) => fetch(`${edge.url}${path}`, { method: 'POST', headers, body });

  beforeEach(async () => {
    f = ingestFixture({ rps: 2, nowMs: NOW });
    const router = new Router();
    router.post('/v1/metrics', ingestHandler(asServiceContext(f.svc), otlpMetricsDecoder));
    router.post('/echo/:tenant', ingestHandler(asServiceContext(f.svc), echo));
    edge = await startEdgeServer([router]);
  });
  afterEach(() => edge.close());

  it('a valid OTLP body: 200 with the decoder\'s reply, the batch handed to the sink', async () => {
    const r = await post('/v1/metrics', twoPoints);
    expect(r.status).to.equal(200);
    expect(await r.json()).to.deep.equal({ partialSuccess: {} });
    expect(f.sink.batches).to.have.length(1);
    expect(f.sink.batches[0]!.metrics.map((m) => [m.workload, m.timeMs, m.value])).to.deep.equal([
      ['shop/Deployment/api', NOW - 30_000, 0.4],
      ['shop/Deployment/api', NOW - 15_000, 0.5],
    ]);
  });

  it('the token bucket: the third request within the same instant is 429 rate_limited with Retry-After: 1; half a second refills one', async () => {
    expect((await post('/v1/metrics', twoPoints)).status).to.equal(200);
    expect((await post('/v1/metrics', twoPoints)).status).to.equal(200);
    const refused = await post('/v1/metrics', twoPoints);
    expect(refused.status).to.equal(429);
    expect(refused.headers.get('retry-after')).to.equal('1');
    expect(await refused.json()).to.deep.equal({ error: 'ingest rate limit exceeded', code: 'rate_limited' });
    expect(await f.dropped('rate_limited')).to.equal(1);
    expect(f.sink.batches).to.have.length(2);
    f.clock.ms += 500;
    expect((await post('/v1/metrics', twoPoints)).status).to.equal(200);
  });

  it('a media type or encoding the decoder refuses: 415 naming it, nothing reaches the sink', async () => {
    const plain = await post('/v1/metrics', twoPoints, { 'content-type': 'text/plain' });
    expect(plain.status).to.equal(415);
    expect(await plain.json()).to.deep.equal({
      error: 'Content-Type text/plain is not accepted: OTLP is served as JSON only (Content-Type: application/json, encoding json)',
      code: 'unsupported_media_type',
    });
    const gzip = await post('/v1/metrics', twoPoints, { ...json, 'content-encoding': 'GZIP ' });
    expect(gzip.status).to.equal(415);
    expect(((await gzip.json()) as { error: string }).error).to.equal('Content-Encoding gzip is not accepted: send OTLP as uncompressed JSON (compression none)');
    expect(f.sink.batches).to.have.length(0);
  });

  it('an unreadable body: 400 invalid_body naming the field, counted as unparsable', async () => {
    const notJson = await post('/v1/metrics', '{"resourceMetrics": [');
    expect(notJson.status).to.equal(400);
    expect(((await notJson.json()) as { code: string }).code).to.equal('invalid_body');
    f.clock.ms += 1000;
    const wrongType = await post('/v1/metrics', '{"resourceMetrics": 5}');
    expect(wrongType.status).to.equal(400);
    expect(await wrongType.json()).to.include({ code: 'invalid_body', field: 'resourceMetrics' });
    expect(await f.dropped('unparsable')).to.equal(2);
    expect(f.sink.batches).to.have.length(0);
  });

  it('a body over 16 MiB: 413 payload_too_large, nothing decoded', async () => {
    const r = await post('/v1/metrics', Buffer.alloc(16 * 1024 * 1024 + 1, 0x20));
    expect(r.status).to.equal(413);
    expect(await r.json()).to.deep.equal({ error: 'request body larger than the limit of 16777216 bytes', code: 'payload_too_large' });
    expect(f.sink.batches).to.have.length(0);
  });

  it('the sink\'s answers: busy 429 queue_full, unavailable 503 ingest_unavailable, memory high water 429 with Retry-After: 60', async () => {
    const expected = [
      ['busy', 429, 'queue_full', '1'],
      ['unavailable', 503, 'ingest_unavailable', '1'],
      ['memory_high_water', 429, 'memory_high_water', '60'],
    ] as const;
    for (const [outcome, status, code, retryAfter] of expected) {
      f.sink.outcome = outcome;
      f.clock.ms += 1000;
      const r = await post('/v1/metrics', twoPoints);
      expect(r.status, outcome).to.equal(status);
      expect(r.headers.get('retry-after'), outcome).to.equal(retryAfter);
      expect(((await r.json()) as { code: string }).code, outcome).to.equal(code);
    }
  });

  it('hands the decoder the path parameters, the media type parameters and the accepted time window; applies its status and headers', async () => {
    const r = await post('/echo/acme', 'hello', { 'content-type': 'application/x-echo; charset=utf-8' });
    expect(r.status).to.equal(204);
    expect(r.headers.get('x-echo-bytes')).to.equal('5');
    expect(await r.text()).to.equal('');
    expect(echo.seen?.params).to.deep.equal({ tenant: 'acme' });
    expect(echo.seen?.contentType).to.equal('application/x-echo');
    expect(echo.seen?.contentTypeParams).to.deep.equal({ charset: 'utf-8' });
    expect(echo.seen?.timeWindow).to.deep.equal({ oldestMs: NOW - 7 * DAY, newestMs: NOW + 5 * 60_000 });
  });

  it('any body is 200 or a 400 naming what is wrong, never a 5xx (property)', async () => {
    const bodies = fc.oneof(
      fc.string(),
      fc.json(),
      fc.jsonValue().map((v) => JSON.stringify({ resourceMetrics: [v] })),
      fc.jsonValue().map((v) => JSON.stringify({ resourceMetrics: [{ resource: { attributes: [] }, scopeMetrics: [{ metrics: [v] }] }] })),
    );
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        f.clock.ms += 1000;
        const r = await post('/v1/metrics', body);
        const answer = (await r.json()) as { code?: string; error?: string };
        if (r.status === 200) return;
        expect(r.status, body).to.equal(400);
        expect(answer.code, body).to.equal('invalid_body');
        expect(answer.error, body).to.be.a('string').and.not.equal('');
      }),
      { numRuns: 300 },
    );
  });
});
