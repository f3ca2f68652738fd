/**
 * The REST application under /api/v2 (REST port, and the dashboard port with the same routes and
 * auth). Open: /health, /version, /ready, /metrics. Everything else needs the bearer key and
 * answers 503 until the service is ready. `GET /metrics` and OTLP posted to `/v1/*` at the root get a
 * 404 naming where they belong (routes/misdirected-routes.ts).
 */
import { Router } from '@koa/router';
import type Koa from 'koa';
import type { HttpIngestDecoder } from '../ingest/decoder.js';
import { createAppShell, mountRouters } from './app-shell.js';
import { notReady, otlpOnOtherPort } from '../model/http-errors.js';
import { ingestHandler } from '../ingest/http/ingest-route.js';
import { registerActionRoutes } from './routes/action-routes.js';
import { registerControlRoutes } from './routes/control-routes.js';
import { registerEventRoutes } from './routes/event-routes.js';
import { registerHistoryRoute } from './routes/history-routes.js';
import { registerHealthRoutes } from './routes/health-routes.js';
import { registerInsightRoutes } from './routes/insight-routes.js';
import { misdirectedRouter } from './routes/misdirected-routes.js';
import { registerRuptureRoutes } from './routes/rupture-routes.js';
import type { ServiceContext } from './service-context.js';

export interface RestAppOptions {
  /** the remote-write decoder for POST /api/v2/write, when available */
  remoteWrite?: HttpIngestDecoder;
  /** extra middleware before the API (the dashboard's static files) */
  before?: Koa.Middleware[];
}

export function createRestApp(svc: ServiceContext, options: RestAppOptions = {}): Koa {
  const app = createAppShell(svc.logger);
  for (const mw of options.before ?? []) app.use(mw);

  const open = new Router({ prefix: '/api/v2', strict: true });
  registerHealthRoutes(open, svc);

  const api = new Router({ prefix: '/api/v2', strict: true });
  api.use(svc.auth.middleware());
  api.use(async (ctx, next) => {
    if (!svc.ready()) throw notReady();
    await next();
  });
  for (const signal of ['metrics', 'logs', 'traces']) {
    api.post(`/v1/${signal}`, () => {
      throw otlpOnOtherPort(svc.ports.otlp);
    });
  }
  if (options.remoteWrite !== undefined) api.post('/write', ingestHandler(svc, options.remoteWrite));
  registerRuptureRoutes(api, svc);
  registerActionRoutes(api, svc);
  registerControlRoutes(api, svc);
  registerInsightRoutes(api, svc);
  registerEventRoutes(api, svc);
  registerHistoryRoute(api, svc);

  mountRouters(app, [open, api, misdirectedRouter(svc)]);
  return app;
}
