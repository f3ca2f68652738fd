/**
 * The standard OTLP/HTTP listener (SVC_OTLP_HTTP_PORT, default 4318): `/v1/metrics`, `/v1/logs`,
 * `/v1/traces` in protobuf (`application/x-protobuf`) or OTLP/JSON (`application/json`, the
 * protobuf JSON mapping), optionally gzip-compressed, answered as the OTLP specification says.
 * The same bearer key, token bucket and ingest sink as the contract's OTLP port, whose strict
 * JSON-only rules stay as they are.
 */
import { Router } from '@koa/router';
import Koa from 'koa';
import type { Context, Next } from 'koa';
import type { OtlpEncoding } from '../../ingest/otlp-proto/otlp-export-decoder.js';
import { decodeOtlpExport } from '../../ingest/otlp-proto/otlp-export-decoder.js';
import type { OtlpSignal } from '../../ingest/otlp-proto/otlp-proto-messages.js';
import { DecodeError } from '../../model/records.js';
import { quietClientAborts, type ErrorLogger } from '../error-middleware.js';
import { HttpError, noKeyConfigured, notFound, rateLimited, unauthorized, unsupportedMedia } from '../../model/http-errors.js';
import { ingestRefusal } from '../../ingest/http/ingest-refusal.js';
import { INGEST_BODY_LIMIT, mediaType, readBody } from '../../ingest/http/request-body.js';
import type { ServiceContext } from '../service-context.js';
import { gunzipBounded } from './gunzip-body.js';
import { answerError, answerExport, otlpEncodingOf, partialSuccess } from './otlp-http-answers.js';
import { countOutsideTimeWindow } from '../../pipeline/time-window.js';

const SIGNALS: readonly OtlpSignal[] = ['metrics', 'logs', 'traces'];

/** every error as a google.rpc.Status in the request's encoding (JSON when it has none) */
function statusErrors(logger: ErrorLogger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
      if (ctx.status === 405) throw new HttpError(405, 'method_not_allowed', 'method not allowed: OTLP/HTTP exports are POST', undefined, {}, { Allow: ctx.get('allow') || 'POST' });
    } catch (error) {
      const http = error instanceof HttpError ? error : new HttpError(500, 'internal', 'internal error');
      if (!(error instanceof HttpError)) logger.error({ err: error, path: ctx.path, method: ctx.method }, 'unexpected error');
      answerError(ctx, http, otlpEncodingOf(mediaType(ctx)) ?? 'json');
    }
  };
}

async function readExport(ctx: Context): Promise<{ encoding: OtlpEncoding; body: Buffer }> {
  const type = mediaType(ctx);
  const encoding = otlpEncodingOf(type);
  if (encoding === undefined) throw unsupportedMedia(`Content-Type ${type || '(none)'} is not accepted: send application/x-protobuf or application/json`);
  const contentEncoding = (ctx.get('content-encoding') || '').trim().toLowerCase();
  if (contentEncoding !== '' && contentEncoding !== 'identity' && contentEncoding !== 'gzip') {
    throw unsupportedMedia(`Content-Encoding ${contentEncoding} is not accepted: send gzip or no compression`);
  }
  const raw = await readBody(ctx, INGEST_BODY_LIMIT);
  return { encoding, body: contentEncoding === 'gzip' ? await gunzipBounded(raw, INGEST_BODY_LIMIT) : raw };
}

function exportHandler(svc: ServiceContext, signal: OtlpSignal) {
  return async (ctx: Context): Promise<void> => {
    const verdict = svc.auth.check(ctx.get('authorization') || undefined);
    if (verdict === 'no_key') throw noKeyConfigured();
    if (verdict === 'unauthorized') throw unauthorized();
    if (!svc.bucket.tryTake()) {
      svc.metrics.droppedRecords('rate_limited', 1);
      throw rateLimited();
    }
    const { encoding, body } = await readExport(ctx);
    let batch;
    try {
      batch = decodeOtlpExport(signal, encoding, body);
    } catch (error) {
      if (error instanceof DecodeError) {
        svc.metrics.droppedRecords('unparsable', 1);
        throw new HttpError(400, 'invalid_body', error.message, error.field);
      }
      throw error;
    }
    const outsideWindow = countOutsideTimeWindow(batch, svc.now());
    const outcome = await svc.ingest.accept(batch);
    const refusal = ingestRefusal(outcome, svc);
    if (refusal !== undefined) throw refusal;
    answerExport(ctx, signal, encoding, partialSuccess(signal, batch.rejected, outsideWindow));
  };
}

export function createOtlpHttpApp(svc: ServiceContext): Koa {
  const app = new Koa();
  app.on('error', quietClientAborts(svc.logger));
  app.use(statusErrors(svc.logger));
  const router = new Router({ strict: true });
  for (const signal of SIGNALS) router.post(`/v1/${signal}`, exportHandler(svc, signal));
  app.use(router.routes());
  app.use(router.allowedMethods());
  app.use(() => {
    throw notFound('OTLP/HTTP serves POST /v1/metrics, /v1/logs and /v1/traces');
  });
  return app;
}
