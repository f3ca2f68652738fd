/**
 * Reading request bodies with a hard limit (api.md §1.6): a declared Content-Length over the limit
 * is refused at once; a streamed body is cut at the limit. Either way the rest of the body is read
 * and discarded (bounded) before the 413 is answered, so a client that writes its whole body before
 * reading (Node's http, many exporters) reads the 413 instead of a reset connection (EPIPE).
 */
import type { IncomingMessage } from 'node:http';
import type { Context } from 'koa';
import { parseJson } from '../json-body.js';
import { DecodeError } from '../../model/records.js';
import { badRequest, payloadTooLarge } from '../../model/http-errors.js';

export const INGEST_BODY_LIMIT = 16 * 1024 * 1024;
export const REST_BODY_LIMIT = 1024 * 1024;
/** what is read and thrown away of an over-limit body before answering; beyond it the connection closes */
export const DISCARD_LIMIT = 64 * 1024 * 1024;
const DISCARD_TIMEOUT_MS = 10_000;

/** Reads and drops the rest of `req` until it ends, DISCARD_LIMIT bytes or DISCARD_TIMEOUT_MS pass. */
export function discardRest(req: IncomingMessage, alreadyRead: number): Promise<void> {
  if (req.readableEnded || req.destroyed) return Promise.resolve();
  return new Promise<void>((resolve) => {
    let discarded = alreadyRead;
    const done = (): void => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', done);
      req.off('close', done);
      req.off('error', done);
      resolve();
    };
    const onData = (chunk: Buffer): void => {
      discarded += chunk.length;
      if (discarded > DISCARD_LIMIT) done();
    };
    const timer = setTimeout(done, DISCARD_TIMEOUT_MS);
    req.on('data', onData);
    req.once('end', done);
    req.once('close', done);
    req.once('error', done);
    req.resume();
  });
}

export async function readBody(ctx: Context, limit: number): Promise<Buffer> {
  const req = ctx.req;
  const declared = Number(ctx.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await discardRest(req, 0);
    throw payloadTooLarge(limit);
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        chunks.length = 0;
        void discardRest(req, size).then(() => reject(payloadTooLarge(limit)));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    const onClose = (): void => {
      if (req.readableEnded) return;
      cleanup();
      reject(Object.assign(new Error('the client closed the connection before the body ended'), { code: 'ECONNABORTED' }));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** The media type without parameters, lower-case. */
export function mediaType(ctx: Context): string {
  return (ctx.get('content-type').split(';')[0] ?? '').trim().toLowerCase();
}

/** The Content-Type's parameters (`;proto=...`), names lower-case, values as sent (quotes removed). */
export function mediaTypeParams(ctx: Context): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of ctx.get('content-type').split(';').slice(1)) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim().toLowerCase();
    if (name === '' || name === '__proto__') continue;
    out[name] = part.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
  }
  return out;
}

/** JSON of a REST body; a refusal is a 400 naming the reason. */
export function parseJsonBody(body: Buffer): unknown {
  try {
    return parseJson(body);
  } catch (error) {
    if (error instanceof DecodeError) throw badRequest(error.message);
    throw error;
  }
}

export async function readJson(ctx: Context, limit = REST_BODY_LIMIT): Promise<unknown> {
  return parseJsonBody(await readBody(ctx, limit));
}
