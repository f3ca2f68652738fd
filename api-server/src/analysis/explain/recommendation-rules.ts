/**
 * The recommendation rule table: diagnosis → action type, parameters and a one-line reason
 * (docs/diagnosis.md). Pure. The action engine calls it when it creates an action; the narrative
 * calls it for its "Recommended action" line, so both say the same.
 *
 * | diagnosis          | condition            | type    | params                               |
 * | memory-leak        |                      | restart | strategy: rolling                    |
 * | cpu-saturation     | traffic rising       | scale   | delta sized from the 30-min forecast |
 * | latency-burn       | traffic rising       | scale   | delta sized from the 30-min forecast |
 * | error-creep, crash-loop, cpu-saturation, latency-burn | after a deploy | alert | reason: rollback, event |
 * | failing-dependency |                      | alert   | reason: dependency, dependency       |
 * | crash-loop         |                      | alert   | reason: crash_loop                   |
 * | any other          |                      | alert   | reason: investigate                  |
 * | undetermined       |                      | none: nothing is recommended until an input names the cause |
 *
 * Tier (analytics.md §9.3): 1 for scale and restart in the emergency band, else 2.
 */
import type { ActionRecommendation, ActionType, RuptureState } from '../contract.js';
import type { Diagnosis } from './diagnosis.js';
import { actionTier } from './recommendation.js';

/** CPU (or latency) level a scale aims to keep the forecast under */
export const SCALE_TARGET = 0.7;
/** replica count assumed when the cluster's is unknown */
export const ASSUMED_REPLICAS = 2;
export const MAX_SCALE_DELTA = 5;

export interface RecommendationContext {
  /** workload key `namespace/Kind/name` */
  workload: string;
  state: RuptureState;
  currentReplicas: number | null;
}

/** the rule of the table that applies; null for an undetermined diagnosis (no action yet) */
export function recommendationFor(d: Diagnosis, ctx: RecommendationContext): ActionRecommendation | null {
  if (d.kind === 'undetermined') return null;
  const w = ctx.workload;
  switch (d.kind) {
    case 'memory-leak':
      return make(ctx.state, 'restart', { strategy: 'rolling' }, `Rolling restart of ${w}: ${d.summary} is a leak; a restart frees the memory, more replicas would leak too.`);
    case 'failing-dependency':
      return make(
        ctx.state,
        'alert',
        { reason: 'dependency', dependency: d.dependency ?? '' },
        `Notify the owners of ${d.dependency ?? 'the dependency'}: ${d.summary}; scaling ${w} would only add load on it.`,
      );
    default:
      break;
  }
  if (d.afterDeploy && d.deploy !== null) {
    return make(
      ctx.state,
      'alert',
      { reason: 'rollback', event: d.deploy.event },
      `Roll back ${d.deploy.event} (${d.deploy.description}) of ${w}: ${d.summary}, starting ${d.deploy.minutesBefore} min after it.`,
    );
  }
  if ((d.kind === 'cpu-saturation' || d.kind === 'latency-burn') && d.trafficRising) return scale(ctx, d);
  switch (d.kind) {
    case 'crash-loop':
      return make(ctx.state, 'alert', { reason: 'crash_loop' }, `Investigate the crashes of ${w} (${d.summary}): another restart will not fix a crash loop; read the last exit reason.`);
    case 'cpu-saturation':
      return make(ctx.state, 'alert', { reason: 'investigate' }, `Investigate ${w}: ${d.summary} with flat traffic points at a regression, not load; more replicas would hide it.`);
    default:
      return make(ctx.state, 'alert', { reason: 'investigate' }, `Investigate ${w}: ${d.summary}.`);
  }
}

/**
 * Scale sized from the forecast: n replicas (the cluster's, else 2) at projected load p keep it
 * under 70 % with ceil(n·p/0.7) replicas; delta = that − n, at least 1, at most 5.
 */
export function scaleDelta(projected: number, currentReplicas: number | null): number {
  const n = currentReplicas !== null && Number.isFinite(currentReplicas) && currentReplicas >= 1 ? Math.floor(currentReplicas) : ASSUMED_REPLICAS;
  const p = Number.isFinite(projected) ? Math.max(0, projected) : 1;
  const needed = Math.ceil((n * p) / SCALE_TARGET - 1e-9);
  return Math.min(MAX_SCALE_DELTA, Math.max(1, needed - n));
}

function scale(ctx: RecommendationContext, d: Diagnosis): ActionRecommendation {
  const delta = scaleDelta(d.projected30Min ?? 1, ctx.currentReplicas);
  const known = ctx.currentReplicas !== null && Number.isFinite(ctx.currentReplicas) && ctx.currentReplicas >= 1;
  const params: Record<string, number> = known ? { delta, replicas: Math.floor(ctx.currentReplicas!) + delta } : { delta };
  const p = d.projected30Min;
  const forecast = p === null || !Number.isFinite(p) ? '' : ` (${d.factor ?? 'load'} forecast ${Math.round(Math.min(10, Math.max(0, p)) * 100)} % in 30 min)`;
  return make(ctx.state, 'scale', params, `Scale ${ctx.workload} by +${delta} ${delta === 1 ? 'replica' : 'replicas'}: ${d.summary} under rising traffic${forecast}.`);
}

function make(state: RuptureState, type: ActionType, params: Record<string, string | number>, text: string): ActionRecommendation {
  return { type, params, tier: actionTier(state, type), text };
}
