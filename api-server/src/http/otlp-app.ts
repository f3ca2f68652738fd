/**
 * The OTLP port's application (api.md §1.1): OTLP/HTTP JSON on both path forms, plus the other
 * HTTP ingest decoders (log push, bulk, remote-write) as they are given. Every route needs the key.
 */
import { Router } from '@koa/router';
import type Koa from 'koa';
import type { HttpIngestDecoder } from '../ingest/decoder.js';
import { otlpLogsDecoder, otlpMetricsDecoder, otlpTracesDecoder } from '../ingest/otlp-json/otlp-json-decoders.js';
import { createAppShell, mountRouters } from './app-shell.js';
import { ingestHandler } from '../ingest/http/ingest-route.js';
import type { ServiceContext } from './service-context.js';

export interface OtlpAppOptions {
  /** extra ingest routes: path → decoder (e.g. /loki/api/v1/push, /_bulk, /api/v2/write) */
  extraRoutes?: [string, HttpIngestDecoder][];
}

export function createOtlpApp(svc: ServiceContext, options: OtlpAppOptions = {}): Koa {
  const app = createAppShell(svc.logger);
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
  mountRouters(app, [router]);
  return app;
}
