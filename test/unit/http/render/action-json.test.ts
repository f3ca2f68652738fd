import { expect } from 'chai';
import type { Action } from '../../../../api-server/src/actions/action.js';
import { actionJson } from '../../../../api-server/src/http/render/action-json.js';

const T = Date.UTC(2026, 10, 27, 1, 0, 0);

function actionOf(overrides: Partial<Action> = {}): Action {
  return {
    id: 'act_0000000000a1',
    workload: 'shop/Deployment/cart',
    type: 'scale',
    params: { delta: 1 },
    tier: 2,
    state: 'pending',
    ruptureId: 'r_0000000000b2',
    createdAtMs: T,
    updatedAtMs: T + 1_000,
    executedAtMs: null,
    description: 'scale +1 replica',
    confidence: 0.83456,
    fusedR: 4.12345,
    triggerSignal: 'stress',
    previousReplicas: null,
    reason: null,
    executor: 'external',
    approvedBy: null,
    approvedAtMs: null,
    blockedBy: 'cooldown',
    rollbackRequested: false,
    execution: null,
    ...overrides,
  };
}

describe('http/render/action-json: the wire form of an action', () => {
  it('renders times as ISO strings, rounds confidence and FusedR to 3 places, repeats them in the older names', () => {
    const json = actionJson(actionOf());
    expect(json).to.deep.include({
      id: 'act_0000000000a1',
      status: 'pending',
      state: 'pending',
      created_at: '2026-11-27T01:00:00.000Z',
      updated_at: '2026-11-27T01:00:01.000Z',
      executed_at: null,
      confidence: 0.835,
      fused_rupture_index: 4.123,
      blocked_by: 'cooldown',
      execution: null,
      host: 'shop/Deployment/cart',
      action_type: 'scale',
      r: 4.123,
      approved: false,
      executed: false,
      timestamp: '2026-11-27T01:00:00.000Z',
    });
  });

  it('derives approved and executed from the state', () => {
    const flags = (state: Action['state']) => {
      const json = actionJson(actionOf({ state }));
      return [json.approved, json.executed];
    };
    expect(flags('approved')).to.deep.equal([true, false]);
    expect(flags('executed')).to.deep.equal([true, true]);
    expect(flags('rolled_back')).to.deep.equal([true, true]);
    expect(flags('rejected')).to.deep.equal([false, false]);
  });

  it('renders an execution report in snake case', () => {
    const json = actionJson(
      actionOf({ state: 'executed', executedAtMs: T + 5_000, execution: { previousReplicas: 2, replicas: 3, executedAtMs: T + 5_000, dryRun: false, executor: 'operator' } }),
    );
    expect(json.executed_at).to.equal('2026-11-27T01:00:05.000Z');
    expect(json.execution).to.deep.equal({ previous_replicas: 2, replicas: 3, executed_at: '2026-11-27T01:00:05.000Z', dry_run: false, executor: 'operator' });
  });
});
