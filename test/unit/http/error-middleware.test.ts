import { Router } from '@koa/router';
import { expect } from 'chai';
import { quietClientAborts } from '../../../api-server/src/http/error-middleware.js';
import { badRequest, payloadTooLarge, rateLimited } from '../../../api-server/src/model/http-errors.js';
import { RecordingLogger, startEdgeServer, type EdgeServer } from './edge-server.js';

describe('http/error-middleware: every thrown error answered as JSON, the unexpected ones logged as 500', () => {
  let edge: EdgeServer;
  before(async () => {
    const router = new Router({ strict: true });
    router.post('/bad', () => {
      throw badRequest('limit: must be a number', 'limit');
    });
    router.post('/limited', () => {
      throw rateLimited();
    });
    router.post('/large', () => {
      throw payloadTooLarge(1024);
    });
    router.get('/crash', async () => {
      await Promise.resolve();
      throw new TypeError('secret internal detail');
    });
    edge = await startEdgeServer([router]);
  });
  after(() => edge.close());

  it('answers an HttpError with its status, headers and body, and logs nothing', async () => {
    const r = await fetch(`${edge.url}/bad`, { method: 'POST' });
    expect(r.status).to.equal(400);
    expect(await r.json()).to.deep.equal({ error: 'limit: must be a number', code: 'invalid_body', field: 'limit' });
    const limited = await fetch(`${edge.url}/limited`, { method: 'POST' });
    expect(limited.status).to.equal(429);
    expect(limited.headers.get('retry-after')).to.equal('1');
    expect(await limited.json()).to.deep.equal({ error: 'ingest rate limit exceeded', code: 'rate_limited' });
    const large = await fetch(`${edge.url}/large`, { method: 'POST' });
    expect(large.status).to.equal(413);
    expect(large.headers.get('connection')).to.equal('close');
    expect(edge.logger.lines).to.deep.equal([]);
  });

  it('answers anything else 500 "internal error" without its message, and logs it with path and method', async () => {
    const r = await fetch(`${edge.url}/crash`);
    expect(r.status).to.equal(500);
    expect(await r.json()).to.deep.equal({ error: 'internal error', code: 'internal' });
    const line = edge.logger.lines.at(-1)!;
    expect(line).to.include({ level: 'error', message: 'unexpected error' });
    expect(line.fields).to.include({ path: '/crash', method: 'GET' });
    expect((line.fields.err as Error).message).to.equal('secret internal detail');
  });
});

describe('http/error-middleware: quietClientAborts', () => {
  const errno = (code: string | undefined): NodeJS.ErrnoException => Object.assign(new Error(code ?? 'plain'), code === undefined ? {} : { code });

  it('logs a client that went away at debug, anything else at error', () => {
    const logger = new RecordingLogger();
    const hook = quietClientAborts(logger);
    for (const code of ['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']) hook(errno(code));
    hook(errno('ENOSPC'));
    hook(errno(undefined));
    expect(logger.lines.map((l) => `${l.level} ${l.message}`)).to.deep.equal([
      'debug client went away',
      'debug client went away',
      'debug client went away',
      'debug client went away',
      'error response error',
      'error response error',
    ]);
    expect(logger.lines[0]!.fields).to.deep.equal({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
  });
});
