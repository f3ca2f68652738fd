/**
 * Reading request bodies with a hard limit (api.md §1.6): a declared Content-Length over the limit
 * is refused at once; a streamed body is cut at the limit. Then JSON parsing that skips a UTF-8
 * BOM.
 */
import type { Context } from 'koa';
import { badRequest, payloadTooLarge } from './errors.js';

export const INGEST_BODY_LIMIT = 16 * 1024 * 1024;
export const REST_BODY_LIMIT = 1024 * 1024;

export async function readBody(ctx: Context, limit: number): Promise<Buffer> {
  const declared = Number(ctx.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    ctx.req.resume(); // discard what the client still sends; answer first
    throw payloadTooLarge(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      ctx.req.resume();
      throw payloadTooLarge(limit);
    }
    chunks.push(chunk);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}

/** The media type without parameters, lower-case. */
export function mediaType(ctx: Context): string {
  return (ctx.get('content-type').split(';')[0] ?? '').trim().toLowerCase();
}

export function parseJsonBody(body: Buffer): unknown {
  let text = body.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') throw badRequest('body is empty; a JSON document is required');
  try {
    // JSON.parse defines `__proto__` as a plain own property (it never invokes the setter); every
    // consumer reads known members only (zod output objects, Maps for attribute sets), so no key of
    // the input is ever assigned onto a prototype.
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw badRequest(`body is not valid JSON: ${(error as Error).message}`);
  }
}

export async function readJson(ctx: Context, limit = REST_BODY_LIMIT): Promise<unknown> {
  return parseJsonBody(await readBody(ctx, limit));
}
