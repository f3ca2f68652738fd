/**
 * The one HTTP ingest route mechanism every decoder plugs into (api.md §1.4): auth → token bucket
 * (429) → media type and encoding (415) → body limit (413) → decode (400) → the ingest sink (429
 * when full, at the analysis backlog's bound or, for new workloads, above the memory high-water
 * mark; 503 when the cluster topic is unreachable: ingest-refusal.ts) → the decoder's reply.
 */
import type { Context } from 'koa';
import type { HttpIngestDecoder } from '../decoder.js';
import { DecodeError } from '../../model/records.js';
import { HttpError, rateLimited, unsupportedMedia } from '../../model/http-errors.js';
import { ingestRefusal, type IngestRefusalPorts } from './ingest-refusal.js';
import { FUTURE_TOLERANCE_MS, RAW_RETENTION_MS } from '../../pipeline/ingest-pipeline.js';
import { INGEST_BODY_LIMIT, mediaType, mediaTypeParams, readBody } from './request-body.js';
import type { IngestSink } from '../../pipeline/ingest-sink.js';
import type { TokenBucket } from '../../pipeline/token-bucket.js';
import type { SelfMetrics } from '../../observability/self-metrics.js';

/** what the route uses of the service (the service context satisfies it) */
export interface IngestRoutePorts extends IngestRefusalPorts {
  now: () => number;
  bucket: Pick<TokenBucket, 'tryTake'>;
  metrics: Pick<SelfMetrics, 'droppedRecords'>;
  ingest: Pick<IngestSink, 'accept'>;
}

export function ingestHandler(svc: IngestRoutePorts, decoder: HttpIngestDecoder) {
  return async (ctx: Context): Promise<void> => {
    if (!svc.bucket.tryTake()) {
      svc.metrics.droppedRecords('rate_limited', 1);
      throw rateLimited();
    }
    const contentType = mediaType(ctx);
    const contentEncoding = (ctx.get('content-encoding') || '').trim().toLowerCase();
    const contentTypeParams = mediaTypeParams(ctx);
    const unsupported = decoder.checkMedia(contentType, contentEncoding, contentTypeParams);
    if (unsupported !== undefined) throw unsupportedMedia(unsupported.unsupported);
    const body = await readBody(ctx, INGEST_BODY_LIMIT);
    let result;
    try {
      const now = svc.now();
      const timeWindow = { oldestMs: now - RAW_RETENTION_MS, newestMs: now + FUTURE_TOLERANCE_MS };
      const request = { body, contentType, contentEncoding, params: (ctx.params ?? {}) as Record<string, string>, contentTypeParams, timeWindow };
      result = decoder.decodeAsync === undefined ? decoder.decode(request) : await decoder.decodeAsync(request);
    } catch (error) {
      if (error instanceof DecodeError) {
        svc.metrics.droppedRecords('unparsable', 1);
        throw new HttpError(400, 'invalid_body', error.message, error.field);
      }
      throw error;
    }
    const outcome = await svc.ingest.accept(result.batch);
    const refusal = ingestRefusal(outcome, svc);
    if (refusal !== undefined) throw refusal;
    for (const [name, value] of Object.entries(result.headers ?? {})) ctx.set(name, value);
    ctx.status = result.status ?? 200;
    if (result.responseBody !== undefined && ctx.status !== 204) ctx.body = result.responseBody;
  };
}
