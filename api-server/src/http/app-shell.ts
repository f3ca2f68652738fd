/**
 * What every HTTP application of the service has around its routes: in front, the error
 * middleware (every error one JSON shape, errors.ts) and quiet logging of clients that went away;
 * behind, 405 + Allow for a known path asked with another method and a 404 JSON body for any other
 * path.
 */
import type { Router } from '@koa/router';
import Koa from 'koa';
import { errorMiddleware, quietClientAborts, type ErrorLogger } from './error-middleware.js';
import { notFound } from '../model/http-errors.js';

/** a new application with the error handling in front */
export function createAppShell(logger: ErrorLogger): Koa {
  const app = new Koa();
  app.on('error', quietClientAborts(logger));
  app.use(errorMiddleware(logger));
  return app;
}

/** mounts `routers` in order, then the 404 for every path none of them knows */
export function mountRouters(app: Koa, routers: readonly Router[]): void {
  for (const router of routers) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  app.use((ctx) => {
    ctx.status = 404;
    ctx.body = notFound().body();
  });
}
