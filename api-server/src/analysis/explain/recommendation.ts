/**
 * Recommendation decision list (analytics.md §9.2) and tier rule (§9.3). Pure: the caller
 * decides when a recommendation is created (§9.1); this only says what it would be.
 *
 * Non-finite signal values never match a threshold (NaN comparisons are false; +∞ matches, −∞ not).
 * A non-finite, negative or fractional current replica count is treated as unknown (floor of a
 * finite non-negative value is used).
 */
import type { ActionRecommendation, ActionType, RuptureState } from '../contract.js';
import type { ContagionSource } from '../traces/service-graph.js';

export interface RecommendationSignals {
  stress: number;
  fatigue: number;
  pressure: number;
  entropy: number;
  contagion: number;
}

export interface RecommendationInput {
  /** workload key `namespace/Kind/name` (named in texts) */
  workload: string;
  /** band/state of the step (§4.4) */
  state: RuptureState;
  signals: RecommendationSignals;
  /** callers with edge error rate > 0.1 (ServiceGraph.contagionSources) */
  contagionSources: readonly ContagionSource[];
  /** replica count known from the cluster, null when unknown */
  currentReplicas: number | null;
}

/** Tier 1 when the band is emergency and the type is scale or restart; otherwise Tier 2 (§9.3). */
export function actionTier(state: RuptureState, type: ActionType): 1 | 2 {
  return state === 'emergency' && (type === 'scale' || type === 'restart') ? 1 : 2;
}

/** The worst contagion source: highest error rate, then most calls, then name. Null when none. */
export function worstContagionSource(sources: readonly ContagionSource[]): ContagionSource | null {
  let best: ContagionSource | null = null;
  for (const s of sources) {
    if (best === null || s.errorRate > best.errorRate || (s.errorRate === best.errorRate && (s.calls > best.calls || (s.calls === best.calls && s.service < best.service)))) {
      best = s;
    }
  }
  return best;
}

/** First rule of §9.2 that applies, with its tier (§9.3). */
export function recommendAction(input: RecommendationInput): ActionRecommendation {
  const { workload, state, signals: s } = input;
  const emergency = state === 'emergency';
  const source = s.contagion >= 0.5 ? worstContagionSource(input.contagionSources) : null;
  if (source !== null && s.fatigue >= 0.7) {
    return make(state, 'restart', {}, `Circuit-break the failing dependency ${source.service} and perform a rolling restart of ${workload}.`);
  }
  if (source !== null) {
    return make(state, 'alert', { reason: 'circuit_break', dependency: source.service }, `Circuit-break the failing dependency ${source.service}: its errors are propagating into ${workload}.`);
  }
  if (emergency && s.fatigue >= 0.7) {
    return make(state, 'restart', {}, `Immediate rolling restart of ${workload}.`);
  }
  if (emergency) return scale(state, workload, 2, input.currentReplicas);
  if (s.fatigue >= 0.75) {
    return make(state, 'restart', {}, `Rolling restart of ${workload} to reset fatigue before it reaches burnout (0.80).`);
  }
  if (s.stress >= 0.7) return scale(state, workload, 1, input.currentReplicas);
  if (s.pressure >= 0.6) {
    return make(state, 'alert', { reason: 'investigate' }, `Investigate ${workload}: the rate of change is escalating.`);
  }
  if (s.entropy >= 0.6) {
    return make(state, 'alert', { reason: 'monitor' }, `Monitor ${workload} closely: its behaviour is unpredictable.`);
  }
  return make(state, 'alert', { reason: 'monitor' }, `Monitor ${workload}; no automated action.`);
}

function scale(state: RuptureState, workload: string, delta: number, currentReplicas: number | null): ActionRecommendation {
  const known = currentReplicas !== null && Number.isFinite(currentReplicas) && currentReplicas >= 0;
  if (known) {
    const replicas = Math.max(1, Math.floor(currentReplicas) + delta);
    return make(state, 'scale', { delta, replicas }, `Scale ${workload} to ${replicas} replicas (+${delta}).`);
  }
  return make(state, 'scale', { delta }, `Scale ${workload} by +${delta} ${delta === 1 ? 'replica' : 'replicas'}.`);
}

function make(state: RuptureState, type: ActionType, params: Record<string, string | number>, text: string): ActionRecommendation {
  return { type, params, tier: actionTier(state, type), text };
}
