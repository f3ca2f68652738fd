/**
 * The wire form of an action (api.md §6.5): the interface's shape, the older field names it also
 * lists (`host`, `action_type`, `r`, `approved`, `executed`, `timestamp`), and the operator's extra
 * fields (operator.md §7.4).
 */
import type { Action } from '../../actions/action.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function actionJson(action: Action): Record<string, unknown> {
  const createdAt = new Date(action.createdAtMs).toISOString();
  const fusedR = Math.round(action.fusedR * 1000) / 1000;
  return {
    id: action.id,
    workload: action.workload,
    type: action.type,
    params: action.params,
    tier: action.tier,
    status: action.state,
    state: action.state,
    rupture_id: action.ruptureId,
    created_at: createdAt,
    updated_at: iso(action.updatedAtMs),
    executed_at: iso(action.executedAtMs),
    description: action.description,
    confidence: Math.round(action.confidence * 1000) / 1000,
    fused_rupture_index: fusedR,
    reason: action.reason,
    approved_by: action.approvedBy,
    blocked_by: action.blockedBy,
    rollback_requested: action.rollbackRequested,
    execution:
      action.execution === null
        ? null
        : {
            previous_replicas: action.execution.previousReplicas,
            replicas: action.execution.replicas,
            executed_at: new Date(action.execution.executedAtMs).toISOString(),
            dry_run: action.execution.dryRun,
            executor: action.execution.executor,
          },
    // the older shape
    host: action.workload,
    action_type: action.type,
    r: fusedR,
    approved: action.state === 'approved' || action.state === 'executed' || action.state === 'rolled_back',
    executed: action.state === 'executed' || action.state === 'rolled_back',
    timestamp: createdAt,
  };
}
