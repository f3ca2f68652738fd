import { Router } from '@koa/router';
import { expect } from 'chai';
import fc from 'fast-check';
import { request } from 'node:http';
import { HttpError } from '../../../../api-server/src/model/http-errors.js';
import { INGEST_BODY_LIMIT, REST_BODY_LIMIT, mediaType, parseJsonBody, readBody, readJson } from '../../../../api-server/src/ingest/http/request-body.js';
import { startEdgeServer, type EdgeServer } from '../../http/edge-server.js';
import { contextFor } from '../../http/koa-context.js';

const LIMIT = 64;

/** POSTs `chunks` with chunked transfer encoding (no Content-Length), as a streaming client does */
function postChunked(url: string, chunks: readonly string[]): Promise<{ status: number; body: string; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/octet-stream' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('http/request-body: bodies read with a hard limit, JSON refused as a 400', () => {
  let edge: EdgeServer;
  before(async () => {
    const router = new Router({ strict: true });
    router.post('/raw', async (ctx) => {
      const body = await readBody(ctx, LIMIT);
      ctx.body = { bytes: body.length, text: body.toString('utf8') };
    });
    router.post('/json', async (ctx) => {
      ctx.body = { parsed: await readJson(ctx, LIMIT) };
    });
    edge = await startEdgeServer([router]);
  });
  after(() => edge.close());

  it('has the limits of api.md: 16 MiB for ingest, 1 MiB for REST', () => {
    expect(INGEST_BODY_LIMIT).to.equal(16_777_216);
    expect(REST_BODY_LIMIT).to.equal(1_048_576);
  });

  it('reads a body of exactly the limit, and an empty one', async () => {
    const r = await fetch(`${edge.url}/raw`, { method: 'POST', body: 'x'.repeat(LIMIT) });
    expect(await r.json()).to.deep.equal({ bytes: LIMIT, text: 'x'.repeat(LIMIT) });
    expect(await (await fetch(`${edge.url}/raw`, { method: 'POST' })).json()).to.deep.equal({ bytes: 0, text: '' });
  });

  it('refuses a declared Content-Length over the limit with 413 and Connection: close', async () => {
    const r = await fetch(`${edge.url}/raw`, { method: 'POST', body: 'x'.repeat(LIMIT + 1) });
    expect(r.status).to.equal(413);
    expect(r.headers.get('connection')).to.equal('close');
    expect(await r.json()).to.deep.equal({ error: `request body larger than the limit of ${LIMIT} bytes`, code: 'payload_too_large' });
  });

  it('joins a streamed body of several chunks, and cuts one that passes the limit with 413', async () => {
    const ok = await postChunked(`${edge.url}/raw`, ['a'.repeat(30), 'b'.repeat(30), 'c'.repeat(4)]);
    expect(JSON.parse(ok.body)).to.deep.equal({ bytes: 64, text: `${'a'.repeat(30)}${'b'.repeat(30)}cccc` });
    const cut = await postChunked(`${edge.url}/raw`, ['a'.repeat(40), 'b'.repeat(40)]);
    expect(cut.status).to.equal(413);
    expect(JSON.parse(cut.body)).to.include({ code: 'payload_too_large' });
  });

  it('answers JSON bodies, a BOM skipped; empty or invalid JSON is a 400 invalid_body', async () => {
    const post = (body: string) => fetch(`${edge.url}/json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(await (await post('\ufeff{"a":[1,2]}')).json()).to.deep.equal({ parsed: { a: [1, 2] } });
    const empty = await post('  ');
    expect(empty.status).to.equal(400);
    expect(await empty.json()).to.deep.equal({ error: 'body is empty; a JSON document is required', code: 'invalid_body' });
    const broken = await post('{"a":');
    expect(broken.status).to.equal(400);
    const body = (await broken.json()) as { error: string; code: string };
    expect(body.code).to.equal('invalid_body');
    expect(body.error).to.match(/^body is not valid JSON: /);
  });

  it('parseJsonBody: any bytes give a value or a 400 invalid_body, never another error (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)), fc.string().map((s) => Buffer.from(s))), (bytes) => {
        try {
          parseJsonBody(bytes);
        } catch (error) {
          expect(error).to.be.instanceOf(HttpError);
          expect((error as HttpError).status).to.equal(400);
          expect((error as HttpError).code).to.equal('invalid_body');
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('parseJsonBody: any JSON document reads back as the value written (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(JSON.stringify(parseJsonBody(Buffer.from(text, 'utf8')))).to.equal(text);
      }),
      { numRuns: 300 },
    );
  });

  it('mediaType: the type without parameters, lower-case; empty when absent', () => {
    expect(mediaType(contextFor('/', { 'Content-Type': 'Application/JSON; charset=utf-8' }))).to.equal('application/json');
    expect(mediaType(contextFor('/', { 'Content-Type': ' application/x-protobuf ' }))).to.equal('application/x-protobuf');
    expect(mediaType(contextFor('/'))).to.equal('');
  });
});
