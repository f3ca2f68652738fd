/** Explanations, forecasts and simulation injection (api.md §6.3, 6.9, 6.10). */
import type { Router, RouterContext } from '@koa/router';
import { z } from 'zod';
import type { ExplainRecord } from '../../analysis/contract.js';
import { workloadKeyFromHost } from '../../model/workload-key.js';
import { SIMULATION_PATTERNS } from '../../simulation/patterns.js';
import { HttpError, badRequest, fromZod, notFound } from '../../model/http-errors.js';
import { horizonParam } from '../query.js';
import { explainFormulaJson, explainNarrativeJson, explainPipelineJson, explainTraceJson } from '../render/explain-json.js';
import { forecastJson } from '../render/snapshot-json.js';
import { readJson } from '../../ingest/http/request-body.js';
import type { ServiceContext } from '../service-context.js';
import { resolveWorkload } from '../workload-lookup.js';

/** the members of the service context these routes use */
export type InsightRoutesContext = Pick<ServiceContext, 'core' | 'injector' | 'logger' | 'reads'>;

const VIEWS = ['formula', 'pipeline', 'narrative'] as const;

const forecastBody = z.object({
  metric: z.string().min(1, 'must be a non-empty string'),
  workload: z.string().min(1, 'must be a non-empty string').optional(),
  host: z.string().min(1, 'must be a non-empty string').optional(),
  horizon: z.unknown().optional(),
});

const simBody = z.object({
  pattern: z.enum(SIMULATION_PATTERNS, { message: `must be one of ${SIMULATION_PATTERNS.join(', ')}` }),
  host: z.string().refine((h) => workloadKeyFromHost(h) !== undefined, 'must be a workload key namespace/Kind/name, namespace/name or a host name'),
  duration_minutes: z.number().int('must be an integer').min(1, 'must be 1..1440').max(1440, 'must be 1..1440').default(10),
  origin: z
    .string()
    .refine((h) => workloadKeyFromHost(h) !== undefined, 'must be a workload key')
    .optional(),
});

export function registerInsightRoutes(router: Router, svc: InsightRoutesContext): void {
  const findRecord = (id: string): Promise<ExplainRecord | undefined> => svc.reads.explain(id);

  // /explain/{rupture_id}[/formula|/pipeline|/narrative]; the id may itself hold slashes (a workload key)
  router.get('/explain/*rest', async (ctx: RouterContext) => {
    const raw = ctx.path.slice(ctx.path.indexOf('/explain/') + '/explain/'.length);
    const rest = raw.split('/').map(safeDecode);
    const last = rest[rest.length - 1] as string;
    const view = rest.length > 1 && (VIEWS as readonly string[]).includes(last) ? (rest.pop() as (typeof VIEWS)[number]) : undefined;
    const id = rest.join('/');
    const record = await findRecord(id);
    if (record === undefined) {
      throw new HttpError(404, 'not_found', `rupture ${id} not found`, undefined, {
        hint: 'an explain record exists once the workload leaves the normal band (a rupture id, or the workload key for its latest rupture); after POST /sim/inject that takes about a minute',
      });
    }
    ctx.body =
      view === 'formula'
        ? explainFormulaJson(record)
        : view === 'pipeline'
          ? explainPipelineJson(record)
          : view === 'narrative'
            ? explainNarrativeJson(record)
            : explainTraceJson(record);
  });

  const forecast = (key: string | undefined, label: string, metric: string, horizon: number) => {
    if (key === undefined) throw notFound(`unknown workload: ${label}`);
    const result = svc.core.forecast(key, metric, horizon);
    if (result === undefined) {
      return {
        workload: key,
        metric,
        horizon,
        warming_up: true,
        models: [],
        points: [],
        note: `no series ${metric} for ${key} yet: send it or wait for the first analysis step`,
      };
    }
    return forecastJson(result);
  };
  router.post('/forecast', async (ctx) => {
    const parsed = forecastBody.safeParse(await readJson(ctx));
    if (!parsed.success) throw fromZod(parsed.error);
    const target = parsed.data.workload ?? parsed.data.host;
    if (target === undefined) throw badRequest('workload: is required (a workload key, namespace/name or host)', 'workload');
    const horizon = horizonParam(parsed.data.horizon, 'horizon');
    ctx.body = forecast(resolveWorkload(svc.core, target.split('/')), target, parsed.data.metric, horizon);
  });
  const getForecast = (ctx: RouterContext): void => {
    const segments = [ctx.params['a'], ctx.params['b'], ctx.params['c']].filter((s): s is string => s !== undefined);
    const horizon = horizonParam(ctx.query['horizon'], 'horizon');
    ctx.body = forecast(resolveWorkload(svc.core, segments), segments.join('/'), ctx.params['metric'] ?? '', horizon);
  };
  router.get('/forecast/:metric/:a', getForecast);
  router.get('/forecast/:metric/:a/:b', getForecast);
  router.get('/forecast/:metric/:a/:b/:c', getForecast);

  router.post('/sim/inject', async (ctx) => {
    const parsed = simBody.safeParse(await readJson(ctx));
    if (!parsed.success) throw fromZod(parsed.error);
    const workload = workloadKeyFromHost(parsed.data.host) as string;
    const injection = svc.injector.start({
      pattern: parsed.data.pattern,
      workload,
      durationMinutes: parsed.data.duration_minutes,
      origin: parsed.data.origin === undefined ? undefined : workloadKeyFromHost(parsed.data.origin),
    });
    svc.logger.info({ injection: injection.id, pattern: injection.pattern, workload }, 'simulation started');
    ctx.status = 202;
    ctx.body = {
      injection_id: injection.id,
      pattern: injection.pattern,
      started_at: new Date(injection.startedAtMs).toISOString(),
      host: workload,
      workload: resolveRef(workload),
      duration_minutes: injection.durationMinutes,
      ends_at: new Date(injection.endsAtMs).toISOString(),
    };
  });
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function resolveRef(key: string): { namespace: string; kind: string; name: string } {
  const [namespace = 'default', kind = 'host', name = key] = key.split('/');
  return { namespace, kind, name };
}
