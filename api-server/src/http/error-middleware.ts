import type { Context, Next } from 'koa';
import { HttpError, methodNotAllowed } from '../model/http-errors.js';

export interface ErrorLogger {
  error(fields: Record<string, unknown>, message: string): void;
  debug(fields: Record<string, unknown>, message: string): void;
}

const CLIENT_ABORTS = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/** Koa's app-level error hook: a client that goes away mid-response (SSE, aborted uploads) is not an error. */
export function quietClientAborts(logger: ErrorLogger) {
  return (error: NodeJS.ErrnoException): void => {
    if (error.code !== undefined && CLIENT_ABORTS.has(error.code)) logger.debug({ code: error.code }, 'client went away');
    else logger.error({ err: error }, 'response error');
  };
}

/** Answers every thrown error as JSON (api.md §1.3); anything unexpected is a logged 500. */
export function errorMiddleware(logger: ErrorLogger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
      // the router answers a known path with another method by status 405 and an Allow header
      if (ctx.status === 405) ctx.body = methodNotAllowed('').body();
    } catch (error) {
      const http =
        error instanceof HttpError ? error : new HttpError(500, 'internal', 'internal error');
      if (!(error instanceof HttpError)) logger.error({ err: error, path: ctx.path, method: ctx.method }, 'unexpected error');
      ctx.status = http.status;
      for (const [name, value] of Object.entries(http.headers)) ctx.set(name, value);
      ctx.body = http.body();
    }
  };
}
