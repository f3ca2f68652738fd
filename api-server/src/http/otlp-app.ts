/**
 * The OTLP port's application (api.md §1.1): OTLP/HTTP JSON on both path forms, plus the other
 * HTTP ingest decoders (log push, bulk, remote-write) as they are given. Every route needs the key.
 */
import { Router } from '@koa/router';
import Koa from 'koa';
import type { HttpIngestDecoder } from '../ingest/decoder.js';
import { otlpLogsDecoder, otlpMetricsDecoder, otlpTracesDecoder } from '../ingest/otlp-json/otlp-json-decoders.js';
import { errorMiddleware, quietClientAborts } from './error-middleware.js';
import { notFound } from './errors.js';
import { ingestHandler } from './ingest-route.js';
import type { ServiceContext } from './service-context.js';

export interface OtlpAppOptions {
  /** extra ingest routes: path → decoder (e.g. /loki/api/v1/push, /_bulk, /api/v2/write) */
  extraRoutes?: [string, HttpIngestDecoder][];
}

export function createOtlpApp(svc: ServiceContext, options: OtlpAppOptions = {}): Koa {
  const app = new Koa();
  app.on('error', quietClientAborts(svc.logger));
  app.use(errorMiddleware(svc.logger));
  const router = new Router({ strict: true });
  router.use(svc.auth.middleware());
  const routes: [string, HttpIngestDecoder][] = [
    ['/otlp/v1/metrics', otlpMetricsDecoder],
    ['/v1/metrics', otlpMetricsDecoder],
    ['/otlp/v1/logs', otlpLogsDecoder],
    ['/v1/logs', otlpLogsDecoder],
    ['/otlp/v1/traces', otlpTracesDecoder],
    ['/v1/traces', otlpTracesDecoder],
    ...(options.extraRoutes ?? []),
  ];
  for (const [path, decoder] of routes) router.post(path, ingestHandler(svc, decoder));
  app.use(router.routes());
  app.use(router.allowedMethods());
  // unknown route: 404 JSON; the router's allowedMethods above turns a known path into 405 + Allow
  app.use((ctx) => {
    ctx.status = 404;
    ctx.body = notFound().body();
  });
  return app;
}
