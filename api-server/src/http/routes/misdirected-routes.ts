/**
 * Requests that reached a port of the service that does not serve them, answered with a 404 that
 * says where they belong (issue 35): Prometheus' default `GET /metrics` (and /health, /ready,
 * /version) at the root of the REST or dashboard port, whose routes live under /api/v2; and
 * OTLP/HTTP posted to /v1/{metrics,logs,traces} on those ports instead of the OTLP port.
 * The body keeps the error shape of errors.ts (`error`, `code: not_found`) and adds `hint`.
 */
import { Router } from '@koa/router';
import { HttpError } from '../../model/http-errors.js';
import type { ServiceContext } from '../service-context.js';

/** the members of the service context these routes use */
export type MisdirectedRoutesContext = Pick<ServiceContext, 'ports'>;

/** Root paths of the open /api/v2 routes: never a view of the dashboard's single-page app. */
export const OPEN_ROUTES_AT_ROOT = ['/metrics', '/health', '/ready', '/version'] as const;
const OTLP_SIGNALS = ['metrics', 'logs', 'traces'] as const;

export function misdirectedRouter(svc: MisdirectedRoutesContext): Router {
  const router = new Router({ strict: true });
  for (const path of OPEN_ROUTES_AT_ROOT) {
    router.get(path, () => {
      const rest = svc.ports.rest;
      throw new HttpError(404, 'not_found', `${path} is served under /api/v2: GET /api/v2${path}`, undefined, {
        hint: `use http://<host>:${rest}/api/v2${path} (the REST port ${rest}; the dashboard port answers it too)`,
        path: `/api/v2${path}`,
        rest_port: rest,
      });
    });
  }
  for (const signal of OTLP_SIGNALS) {
    router.post(`/v1/${signal}`, () => {
      const otlp = svc.ports.otlp;
      throw new HttpError(404, 'not_found', `OTLP is not served on this port: POST /v1/${signal} to the OTLP port ${otlp}`, undefined, {
        hint: `send OTLP/HTTP to http://<host>:${otlp}/v1/${signal} (SVC_OTLP_PORT); this port serves the /api/v2 REST routes`,
        otlp_port: otlp,
      });
    });
  }
  return router;
}
