/** Suppressions, context events, weight overrides (api.md §6.6-6.8) and failure objectives (docs/diagnosis.md). */
import type { Router } from '@koa/router';
import { contextBody } from '../../control/context-events.js';
import { suppressionBody } from '../../control/suppressions.js';
import { normaliseOverrides, renderOverride, weightOverridesBody } from '../../control/weight-overrides.js';
import { failureObjectivesBody, objectivesFrom } from '../../control/failure-objectives.js';
import { controlWrite } from '../control-write.js';
import { badRequest, fromZod, notFound } from '../../model/http-errors.js';
import { limitParam, queryString, sinceParam } from '../query.js';
import { contextEventJson, suppressionJson } from '../render/control-json.js';
import { readJson } from '../../ingest/http/request-body.js';
import type { ServiceContext } from '../service-context.js';

/** the members of the service context these routes use */
export type ControlRoutesContext = Pick<ServiceContext, 'control' | 'controlWrites' | 'now'>;

export function registerControlRoutes(router: Router, svc: ControlRoutesContext): void {
  router.post('/suppressions', async (ctx) => {
    const parsed = suppressionBody.safeParse(await readJson(ctx));
    if (!parsed.success) throw fromZod(parsed.error);
    const s = await controlWrite(() => svc.controlWrites.addSuppression(parsed.data, svc.now()));
    ctx.status = 201;
    ctx.body = suppressionJson(s, svc.now());
  });
  router.get('/suppressions', (ctx) => {
    const now = svc.now();
    ctx.body = { suppressions: svc.control.listSuppressions(now).slice(0, limitParam(ctx)).map((s) => suppressionJson(s, now)) };
  });
  router.delete('/suppressions/:id', async (ctx) => {
    if (!(await controlWrite(() => svc.controlWrites.removeSuppression(ctx.params['id'] ?? '')))) throw notFound(`suppression ${ctx.params['id']} not found`);
    ctx.status = 204;
  });

  router.post('/context', async (ctx) => {
    const parsed = contextBody.safeParse(await readJson(ctx));
    if (!parsed.success) throw fromZod(parsed.error);
    const event = await controlWrite(() => svc.controlWrites.addContext(parsed.data, svc.now()));
    ctx.status = 201;
    ctx.body = contextEventJson(event);
  });
  router.get('/context', (ctx) => {
    const workload = queryString(ctx, 'workload');
    const sinceMs = sinceParam(ctx);
    ctx.body = {
      events: svc.control
        .listContext({ limit: limitParam(ctx), ...(workload === undefined ? {} : { workload }), ...(sinceMs === undefined ? {} : { sinceMs }) })
        .map(contextEventJson),
    };
  });
  router.delete('/context/:id', async (ctx) => {
    if (!(await controlWrite(() => svc.controlWrites.removeContext(ctx.params['id'] ?? '')))) throw notFound(`context event ${ctx.params['id']} not found`);
    ctx.status = 204;
  });

  router.get('/config/weights', (ctx) => {
    ctx.body = svc.control.currentWeights().map(renderOverride);
  });
  router.post('/config/weights', async (ctx) => {
    const body = await readJson(ctx);
    if (!Array.isArray(body)) throw badRequest('body must be a JSON array of weight overrides');
    const parsed = weightOverridesBody.safeParse(body);
    if (!parsed.success) throw fromZod(parsed.error);
    const list = normaliseOverrides(parsed.data);
    await controlWrite(() => svc.controlWrites.replaceWeights(list));
    ctx.body = { applied: list.length };
  });

  router.get('/config/objectives', (ctx) => {
    ctx.body = svc.control.currentObjectives();
  });
  router.post('/config/objectives', async (ctx) => {
    const body = await readJson(ctx);
    if (!Array.isArray(body)) throw badRequest('body must be a JSON array of failure objectives');
    const parsed = failureObjectivesBody.safeParse(body);
    if (!parsed.success) throw fromZod(parsed.error);
    const list = objectivesFrom(parsed.data);
    await controlWrite(() => svc.controlWrites.replaceObjectives(list));
    ctx.body = { applied: list.length };
  });
}
