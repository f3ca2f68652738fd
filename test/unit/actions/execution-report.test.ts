import { expect } from 'chai';
import type { ExecutionReport } from '../../../api-server/src/actions/action-engine-types.js';
import { ActionError } from '../../../api-server/src/actions/action-errors.js';
import type { Action, ActionState } from '../../../api-server/src/actions/action.js';
import { reportStep } from '../../../api-server/src/actions/execution-report.js';
import { newPendingAction } from '../../../api-server/src/actions/new-action.js';
import { snapshotOf } from '../../support/analysis-fixtures.js';

function actionIn(state: ActionState, execution: { previousReplicas: number; replicas: number } | null = null): Action {
  const action = newPendingAction('act_00000000000a', snapshotOf('shop/Deployment/api'), 'r_1', { type: 'scale', params: { delta: 2 }, tier: 1, text: 'scale +2' }, 'stress', 'external', 1_000);
  action.state = state;
  if (execution !== null) action.execution = { ...execution, executedAtMs: 2_000, dryRun: false, executor: 'operator' };
  return action;
}

const report = (outcome: ExecutionReport['outcome'], extra: Partial<ExecutionReport> = {}): ExecutionReport => ({ outcome, executor: 'operator', ...extra });

function conflict(action: Action, r: ExecutionReport): string {
  try {
    reportStep(action, r);
  } catch (error) {
    expect(error).to.be.instanceOf(ActionError);
    expect((error as ActionError).kind).to.equal('conflict');
    return (error as Error).message;
  }
  throw new Error('expected a conflict');
}

describe('actions/execution-report: what an external executor\'s report does to an action', () => {
  it('executed: fits an approved action; the same numbers again are a repeat, other numbers a conflict', () => {
    expect(reportStep(actionIn('approved'), report('executed', { replicas: 5 }))).to.deep.equal({ kind: 'executed' });
    const done = actionIn('executed', { previousReplicas: 3, replicas: 5 });
    expect(reportStep(done, report('executed', { previousReplicas: 3, replicas: 5 }))).to.deep.equal({ kind: 'repeat' });
    expect(reportStep(done, report('executed'))).to.deep.equal({ kind: 'repeat' });
    expect(conflict(done, report('executed', { replicas: 6 }))).to.equal('action act_00000000000a is executed; an executed report fits an approved action');
    expect(conflict(actionIn('pending'), report('executed'))).to.equal('action act_00000000000a is pending; an executed report fits an approved action');
  });

  it('failed: the reason, else the message, else a default; fits an approved action only', () => {
    const failed = (extra: Partial<ExecutionReport>) => reportStep(actionIn('approved'), report('failed', extra));
    expect(failed({ reason: 'Forbidden', message: 'no RBAC' })).to.deep.equal({ kind: 'transition', state: 'failed', reason: 'Forbidden', outcome: 'failed', detail: 'Forbidden', rollbackSettled: false });
    expect(failed({ message: 'no RBAC' })).to.deep.include({ reason: 'no RBAC', detail: undefined });
    expect(failed({})).to.deep.include({ reason: 'executor reported failure' });
    expect(reportStep(actionIn('failed'), report('failed'))).to.deep.equal({ kind: 'repeat' });
    expect(conflict(actionIn('pending'), report('failed'))).to.equal('action act_00000000000a is pending; a failed report fits an approved action');
  });

  it('rolled_back and rollback_failed: fit an executed action and settle the rollback request', () => {
    const executed = actionIn('executed', { previousReplicas: 3, replicas: 5 });
    expect(reportStep(executed, report('rolled_back'))).to.deep.equal({ kind: 'transition', state: 'rolled_back', reason: 'rolled back by operator', outcome: 'rolled_back', detail: undefined, rollbackSettled: true });
    expect(reportStep(actionIn('rolled_back'), report('rolled_back'))).to.deep.equal({ kind: 'repeat' });
    expect(conflict(actionIn('approved'), report('rolled_back'))).to.equal('action act_00000000000a is approved; a rolled_back report fits an executed action');
    expect(reportStep(executed, report('rollback_failed', { reason: 'NotFound' }))).to.deep.equal({
      kind: 'transition',
      state: 'executed',
      reason: 'rollback failed: NotFound',
      outcome: 'failed',
      detail: 'NotFound',
      rollbackSettled: true,
    });
    expect(reportStep(executed, report('rollback_failed'))).to.deep.include({ reason: 'rollback failed: unknown' });
    expect(conflict(actionIn('rolled_back'), report('rollback_failed'))).to.equal('action act_00000000000a is rolled_back; a rollback_failed report fits an executed action');
  });
});
