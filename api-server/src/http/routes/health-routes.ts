/** /health (alias /version), /ready and /metrics: open, no key (api.md §2). */
import { Readable } from 'node:stream';
import type { Router, RouterContext } from '@koa/router';
import { notReady } from '../../model/http-errors.js';
import { exposition } from '../../observability/exposition.js';
import type { ServiceContext } from '../service-context.js';

/** the members of the service context these routes use */
export type HealthRoutesContext = Pick<ServiceContext, 'actions' | 'auth' | 'clusterStatus' | 'core' | 'memoryGuard' | 'metrics' | 'pipeline' | 'publisher' | 'ready' | 'settings' | 'startedAtMs' | 'version'>;

export function registerHealthRoutes(router: Router, svc: HealthRoutesContext): void {
  const health = (ctx: RouterContext): void => {
    ctx.body = {
      status: svc.ready() ? 'ok' : 'starting',
      rupture_detection: svc.ready() ? 'active' : 'starting',
      uptime_seconds: Math.floor((Date.now() - svc.startedAtMs) / 1000),
      version: svc.version,
      edition: svc.settings.edition,
      // required: a bearer key is checked; off: no key configured (development), any value works
      authentication: svc.auth.mode,
      emergency_stop: svc.actions.emergencyStopSinceMs !== null,
      workloads: svc.core.workloadKeys().length,
      ingest_queue: svc.pipeline.waiting,
      // resident memory against the limit; new workloads are refused above the mark (docs/memory.md)
      memory: svc.memoryGuard.status(),
      // the message bus and the sinks: connected, backlog (stored, not yet delivered), failures
      outbound: svc.publisher.status(),
      // cluster mode: this replica, its partitions and the workloads it analyses; absent standalone
      ...(svc.clusterStatus === undefined ? {} : { cluster: svc.clusterStatus() }),
    };
  };
  router.get('/health', health);
  router.get('/version', health);
  router.get('/ready', (ctx) => {
    if (!svc.ready()) throw notReady();
    ctx.body = { status: 'ready' };
  });
  router.get('/metrics', async (ctx) => {
    ctx.set('Content-Type', svc.metrics.registry.contentType);
    // in parts, never one string of the whole text (observability/exposition.ts)
    ctx.body = Readable.from(exposition(svc.metrics.registry), { objectMode: false });
  });
}
