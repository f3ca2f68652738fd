/** Actions (api.md §6.5) and the operator's result report (operator.md §7.4). */
import type { Router, RouterContext } from '@koa/router';
import { z } from 'zod';
import { ActionError, ActionRoutingError } from '../../actions/action-errors.js';
import { controlWrite } from '../control-write.js';
import { actionOwnerUnavailable, conflict, editionRequired, fromZod, notFound } from '../../model/http-errors.js';
import { limitParam } from '../query.js';
import { actionJson } from '../render/action-json.js';
import { readJson } from '../../ingest/http/request-body.js';
import type { ServiceContext } from '../service-context.js';

/** the members of the service context these routes use */
export type ActionRoutesContext = Pick<ServiceContext, 'actionDecisions' | 'actions' | 'emergencyStop' | 'logger' | 'now'>;

const resultBody = z.object({
  outcome: z.enum(['executed', 'failed', 'rolled_back', 'rollback_failed']),
  previous_replicas: z.number().int().nonnegative().optional(),
  replicas: z.number().int().nonnegative().optional(),
  reason: z.string().max(256).optional(),
  message: z.string().max(2048).optional(),
  dry_run: z.boolean().optional(),
  executor: z.string().min(1).max(64),
});

async function mapActionError<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ActionError) {
      if (error.kind === 'not_found') throw notFound(error.message);
      if (error.kind === 'edition') throw editionRequired(error.message);
      throw conflict(error.message);
    }
    if (error instanceof ActionRoutingError) throw actionOwnerUnavailable(error.message);
    throw error;
  }
}

export function registerActionRoutes(router: Router, svc: ActionRoutesContext): void {
  const stopState = () => {
    const since = svc.actions.emergencyStopSinceMs;
    return { emergency_stop: since !== null, since: since === null ? null : new Date(since).toISOString() };
  };
  router.get('/actions/emergency-stop', (ctx) => {
    ctx.body = stopState();
  });
  router.post('/actions/emergency-stop', async (ctx) => {
    await controlWrite(() => svc.emergencyStop(true, svc.now()));
    svc.logger.warn('emergency stop engaged: Tier-1 automation halted');
    ctx.body = stopState();
  });
  router.delete('/actions/emergency-stop', async (ctx) => {
    await controlWrite(() => svc.emergencyStop(false, svc.now()));
    svc.logger.warn('emergency stop released');
    ctx.body = { emergency_stop: false };
  });
  router.get('/actions', (ctx) => {
    ctx.body = { actions: svc.actions.list().slice(0, limitParam(ctx)).map(actionJson) };
  });
  router.get('/actions/:id', (ctx) => {
    const action = svc.actions.get(ctx.params['id'] ?? '');
    if (action === undefined) throw notFound(`action ${ctx.params['id']} not found`);
    ctx.body = actionJson(action);
  });
  router.post('/actions/:id/approve', async (ctx: RouterContext) => {
    const id = ctx.params['id'] ?? '';
    const action = await mapActionError(() => svc.actionDecisions.approve(id, svc.now()));
    ctx.body = { status: 'approved', id, action: actionJson(action) };
  });
  router.post('/actions/:id/reject', async (ctx: RouterContext) => {
    const id = ctx.params['id'] ?? '';
    await mapActionError(() => svc.actionDecisions.reject(id, svc.now()));
    ctx.body = { status: 'rejected', id };
  });
  router.post('/actions/:id/rollback', async (ctx: RouterContext) => {
    const id = ctx.params['id'] ?? '';
    const action = await mapActionError(() => svc.actionDecisions.rollback(id, svc.now()));
    ctx.body = { status: 'rollback_queued', id, action: actionJson(action) };
  });
  router.post('/actions/:id/result', async (ctx: RouterContext) => {
    const id = ctx.params['id'] ?? '';
    const parsed = resultBody.safeParse(await readJson(ctx));
    if (!parsed.success) throw fromZod(parsed.error);
    const b = parsed.data;
    const action = await mapActionError(() =>
      svc.actionDecisions.reportResult(
        id,
        {
          outcome: b.outcome,
          executor: b.executor,
          ...(b.previous_replicas === undefined ? {} : { previousReplicas: b.previous_replicas }),
          ...(b.replicas === undefined ? {} : { replicas: b.replicas }),
          ...(b.reason === undefined ? {} : { reason: b.reason }),
          ...(b.message === undefined ? {} : { message: b.message }),
          ...(b.dry_run === undefined ? {} : { dryRun: b.dry_run }),
        },
        svc.now(),
      ),
    );
    ctx.body = actionJson(action);
  });
}
