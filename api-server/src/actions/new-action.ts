/**
 * A new pending action for a recommendation of the rule table (analysis/explain/recommendation-rules.ts),
 * with the one-line description people read in the console and the API.
 */
import type { ActionRecommendation, WorkloadSnapshot } from '../analysis/contract.js';
import type { Action } from './action.js';

export function newPendingAction(
  id: string,
  snapshot: WorkloadSnapshot,
  ruptureId: string,
  recommendation: ActionRecommendation,
  triggerSignal: string,
  executor: Action['executor'],
  nowMs: number,
): Action {
  const workload = snapshot.key;
  return {
    id,
    workload,
    type: recommendation.type,
    params: { ...recommendation.params },
    tier: recommendation.tier,
    state: 'pending',
    ruptureId,
    createdAtMs: nowMs,
    updatedAtMs: nowMs,
    executedAtMs: null,
    description: describe(workload, recommendation.type, recommendation.params, recommendation.text),
    confidence: snapshot.confidence,
    fusedR: snapshot.fusedR,
    triggerSignal,
    previousReplicas: null,
    reason: null,
    executor,
    approvedBy: null,
    approvedAtMs: null,
    blockedBy: null,
    rollbackRequested: false,
    execution: null,
  };
}

function describe(workload: string, type: string, params: Record<string, string | number>, text: string): string {
  if (type === 'scale') {
    const replicas = params['replicas'];
    const delta = params['delta'];
    if (typeof replicas === 'number') return `scale ${workload} to ${replicas} replicas`;
    if (typeof delta === 'number') return `scale ${workload} by ${delta >= 0 ? '+' : ''}${delta} replicas`;
  }
  if (type === 'restart') return `rolling restart of ${workload}`;
  return `${type} for ${workload}: ${text}`;
}
