/**
 * GET /api/v2/history/{namespace}/{kind}/{name}: the stored KPI snapshot history of one workload
 * (analytics.md §11 tiers) for the dashboard's FusedR chart. Not in api.md §6; it shadows no route.
 *
 * Query: `span` one of 1h, 6h, 2d, 30d, 1y (default 1h), counted back from the workload's latest
 * snapshot time (sample time, not the server clock); `tier` raw, 1m, 5m or 1h (default by span:
 * ≤ 6 h raw, ≤ 2 d 1m, ≤ 30 d 5m, else 1h). Answer:
 * `{workload, tier, span, from, to, points: [{t, fused_r, health_score}]}`; 404 unknown workload.
 */
import type { Router, RouterContext } from '@koa/router';
import { badQuery, notFound } from '../../model/http-errors.js';
import { queryString } from '../query.js';
import type { ServiceContext } from '../service-context.js';
import { resolveWorkload } from '../workload-lookup.js';
import type { HistoryTier } from '../../model/retention.js';

/** the members of the service context these routes use */
export type HistoryRouteContext = Pick<ServiceContext, 'reads'>;

const HOUR = 3_600_000;
export const HISTORY_SPANS: Record<string, number> = { '1h': HOUR, '6h': 6 * HOUR, '2d': 48 * HOUR, '30d': 720 * HOUR, '1y': 8760 * HOUR };
const TIERS: readonly HistoryTier[] = ['raw', '1m', '5m', '1h'];

export function tierForSpan(spanMs: number): HistoryTier {
  if (spanMs <= 6 * HOUR) return 'raw';
  if (spanMs <= 48 * HOUR) return '1m';
  if (spanMs <= 720 * HOUR) return '5m';
  return '1h';
}

const r3 = (x: number): number => Math.round(x * 1000) / 1000;
const r4 = (x: number): number => Math.round(x * 10000) / 10000;

export function registerHistoryRoute(router: Router, svc: HistoryRouteContext): void {
  router.get('/history/:a/:b/:c', async (ctx: RouterContext) => {
    const segments = [ctx.params['a'], ctx.params['b'], ctx.params['c']].filter((s): s is string => s !== undefined);
    const spanName = queryString(ctx, 'span') ?? '1h';
    const spanMs = HISTORY_SPANS[spanName];
    if (spanMs === undefined) throw badQuery(`span must be one of ${Object.keys(HISTORY_SPANS).join(', ')}`, 'span');
    const tierRaw = queryString(ctx, 'tier');
    if (tierRaw !== undefined && !(TIERS as readonly string[]).includes(tierRaw)) throw badQuery(`tier must be one of ${TIERS.join(', ')}`, 'tier');
    const key = resolveWorkload(svc.reads, segments);
    const snapshot = key === undefined ? undefined : svc.reads.snapshot(key);
    if (key === undefined || snapshot === undefined) throw notFound(`unknown workload: ${segments.join('/')}`);
    const tier = (tierRaw as HistoryTier | undefined) ?? tierForSpan(spanMs);
    const toMs = snapshot.timeMs;
    const fromMs = toMs - spanMs;
    const points = await svc.reads.history(tier, key, fromMs, toMs);
    ctx.body = {
      workload: key,
      tier,
      span: spanName,
      from: new Date(fromMs).toISOString(),
      to: new Date(toMs).toISOString(),
      points: points.map((p) => ({ t: new Date(p.t).toISOString(), fused_r: r3(p.fused_r), health_score: r4(p.health) })),
    };
  });
}
