/** Ruptures, KPIs, anomalies and data flow (api.md §6.1, 6.2, 6.4, 6.11). */
import type { Router, RouterContext } from '@koa/router';
import { notFound } from '../../model/http-errors.js';
import { limitParam, sinceParam } from '../query.js';
import { anomalyJson, kpiJson, listItemJson, snapshotJson } from '../render/snapshot-json.js';
import type { ServiceContext } from '../service-context.js';
import { unknownWorkload } from '../unknown-workload.js';
import { resolveWorkload } from '../workload-lookup.js';
import type { SignalName } from '../../model/signals.js';
import { SIGNAL_NAMES } from '../../model/signals.js';

/** the members of the service context these routes use */
export type RuptureRoutesContext = Pick<ServiceContext, 'injector' | 'now' | 'pipeline' | 'reads' | 'startedAtMs'>;

const ANOMALY_DEFAULT_WINDOW_MS = 15 * 60_000;

function segmentsOf(params: Record<string, string | undefined>): string[] {
  return [params['a'], params['b'], params['c']].filter((s): s is string => s !== undefined);
}

export function registerRuptureRoutes(router: Router, svc: RuptureRoutesContext): void {
  router.get('/ruptures', (ctx) => {
    const limit = limitParam(ctx);
    const keys = svc.reads.workloadKeys().sort().slice(0, limit);
    ctx.body = { ruptures: keys.map((k) => svc.reads.snapshot(k)).filter((s) => s !== undefined).map(listItemJson) };
  });

  const rupture = (ctx: RouterContext): void => {
    const segments = segmentsOf(ctx.params);
    const key = resolveWorkload(svc.reads, segments);
    const snapshot = key === undefined ? undefined : svc.reads.snapshot(key);
    if (snapshot === undefined) throw unknownWorkload(segments.length === 1 ? `no data for host: ${segments[0]}` : `unknown workload: ${segments.join('/')}`, segments, svc.injector.list());
    ctx.body = snapshotJson(snapshot);
  };
  router.get('/rupture/:a', rupture);
  router.get('/rupture/:a/:b', rupture);
  router.get('/rupture/:a/:b/:c', rupture);

  const kpi = (ctx: RouterContext): void => {
    const signal = ctx.params['signal'] ?? '';
    if (!(SIGNAL_NAMES as readonly string[]).includes(signal)) throw notFound(`unknown signal: ${signal}`);
    const segments = segmentsOf(ctx.params);
    const key = resolveWorkload(svc.reads, segments);
    const snapshot = key === undefined ? undefined : svc.reads.snapshot(key);
    if (snapshot === undefined) throw unknownWorkload(`unknown workload: ${segments.join('/')}`, segments, svc.injector.list());
    ctx.body = kpiJson(snapshot, signal as SignalName, segments.length === 1);
  };
  router.get('/kpi/:signal/:a', kpi);
  router.get('/kpi/:signal/:a/:b', kpi);
  router.get('/kpi/:signal/:a/:b/:c', kpi);

  const anomalies = async (ctx: RouterContext): Promise<void> => {
    const limit = limitParam(ctx);
    const since = sinceParam(ctx) ?? svc.now() - ANOMALY_DEFAULT_WINDOW_MS;
    const segments = segmentsOf(ctx.params);
    let filter;
    if (segments.length > 0) {
      const key = resolveWorkload(svc.reads, segments);
      if (key === undefined) throw unknownWorkload(`unknown workload: ${segments.join('/')}`, segments, svc.injector.list());
      filter = (a: { workload: string }) => a.workload === key;
    }
    if (since > svc.now()) {
      ctx.body = { anomalies: [] };
      return;
    }
    ctx.body = { anomalies: (await svc.reads.anomalies(since, limit, filter)).map(anomalyJson) };
  };
  router.get('/anomalies', anomalies);
  router.get('/anomalies/:a', anomalies);
  router.get('/anomalies/:a/:b', anomalies);
  router.get('/anomalies/:a/:b/:c', anomalies);

  router.get('/dataflow', (ctx) => {
    ctx.body = { ...svc.pipeline.totals, since: new Date(svc.startedAtMs).toISOString() };
  });
}
