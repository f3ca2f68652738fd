import { expect } from 'chai';
import type { Action } from '../../../api-server/src/actions/action.js';
import { newPendingAction } from '../../../api-server/src/actions/new-action.js';
import { snapshotOf } from '../../support/analysis-fixtures.js';

describe('actions/new-action: a pending action for a recommendation', () => {
  const make = (type: Action['type'], params: Record<string, string | number>, text = 'because') =>
    newPendingAction('act_1', snapshotOf('shop/Deployment/api', { confidence: 0.9, fusedR: 4.2 }), 'r_9', { type, params, tier: 2, text }, 'memory', 'internal', 5_000);

  it('describes a scale by target or delta, a restart, and anything else by its text', () => {
    expect(make('scale', { replicas: 4 }).description).to.equal('scale shop/Deployment/api to 4 replicas');
    expect(make('scale', { delta: 2 }).description).to.equal('scale shop/Deployment/api by +2 replicas');
    expect(make('scale', { delta: -1 }).description).to.equal('scale shop/Deployment/api by -1 replicas');
    expect(make('restart', {}).description).to.equal('rolling restart of shop/Deployment/api');
    expect(make('scale', {}, 'scale out').description).to.equal('scale for shop/Deployment/api: scale out');
  });

  it('starts pending with the snapshot\'s confidence and FusedR, a copy of the params, nothing decided yet', () => {
    const params = { delta: 2 };
    const action = make('scale', params);
    expect(action).to.deep.equal({
      id: 'act_1',
      workload: 'shop/Deployment/api',
      type: 'scale',
      params: { delta: 2 },
      tier: 2,
      state: 'pending',
      ruptureId: 'r_9',
      createdAtMs: 5_000,
      updatedAtMs: 5_000,
      executedAtMs: null,
      description: 'scale shop/Deployment/api by +2 replicas',
      confidence: 0.9,
      fusedR: 4.2,
      triggerSignal: 'memory',
      previousReplicas: null,
      reason: null,
      executor: 'internal',
      approvedBy: null,
      approvedAtMs: null,
      blockedBy: null,
      rollbackRequested: false,
      execution: null,
    });
    expect(action.params).not.to.equal(params);
  });
});
