/**
 * Reading request bodies with a hard limit (api.md §1.6): a declared Content-Length over the limit
 * is refused at once; a streamed body is cut at the limit.
 */
import type { Context } from 'koa';
import { parseJson } from '../ingest/json-body.js';
import { DecodeError } from '../ingest/records.js';
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
