/**
 * What an external executor's result report (POST /actions/{id}/result, operator.md §7.4) does to
 * an action. Fits: executed/failed for an approved action, rolled_back/rollback_failed for an
 * executed one with a rollback requested; the same report twice is a no-op; anything else is a
 * conflict.
 */
import type { ExecutionReport } from './action-engine-types.js';
import { ActionError } from './action-errors.js';
import type { Action, ActionState } from './action.js';

export type ReportStep =
  | { kind: 'repeat' }
  | { kind: 'executed' }
  | { kind: 'transition'; state: ActionState; reason: string; outcome: 'failed' | 'rolled_back'; detail: string | undefined; rollbackSettled: boolean };

export function reportStep(action: Action, report: ExecutionReport): ReportStep {
  const sameNumbers =
    action.execution !== null &&
    (report.previousReplicas === undefined || report.previousReplicas === action.execution.previousReplicas) &&
    (report.replicas === undefined || report.replicas === action.execution.replicas);
  const conflict = (article: string, fits: string): ActionError =>
    new ActionError('conflict', `action ${action.id} is ${action.state}; ${article} ${report.outcome} report fits ${fits} action`);
  switch (report.outcome) {
    case 'executed':
      if (action.state === 'executed' && sameNumbers) return { kind: 'repeat' };
      if (action.state !== 'approved') throw conflict('an', 'an approved');
      return { kind: 'executed' };
    case 'failed':
      if (action.state === 'failed') return { kind: 'repeat' };
      if (action.state !== 'approved') throw conflict('a', 'an approved');
      return { kind: 'transition', state: 'failed', reason: report.reason ?? report.message ?? 'executor reported failure', outcome: 'failed', detail: report.reason, rollbackSettled: false };
    case 'rolled_back':
      if (action.state === 'rolled_back') return { kind: 'repeat' };
      if (action.state !== 'executed') throw conflict('a', 'an executed');
      return { kind: 'transition', state: 'rolled_back', reason: `rolled back by ${report.executor}`, outcome: 'rolled_back', detail: undefined, rollbackSettled: true };
    case 'rollback_failed':
      if (action.state !== 'executed') throw conflict('a', 'an executed');
      return {
        kind: 'transition',
        state: 'executed',
        reason: `rollback failed: ${report.reason ?? report.message ?? 'unknown'}`,
        outcome: 'failed',
        detail: report.reason,
        rollbackSettled: true,
      };
  }
}
