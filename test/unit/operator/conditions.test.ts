import { expect } from 'chai';
import { scopeRefusal, setCondition, statusDiffers } from '../../../operator/src/reconcile/conditions.js';

describe('operator: conditions, scope rule and the status-write guard', () => {
  const t0 = new Date('2026-01-01T00:00:00Z');
  const t1 = new Date('2026-01-01T00:01:00Z');

  it('lastTransitionTime moves only when status flips', () => {
    const a = setCondition(undefined, 'Synced', 'True', 'InEngine', 'm', 1, t0);
    const b = setCondition(a, 'Synced', 'True', 'InEngine', 'other message', 2, t1);
    expect(b[0]).to.include({ lastTransitionTime: t0.toISOString(), message: 'other message', observedGeneration: 2 });
    const c = setCondition(b, 'Synced', 'False', 'EngineUnavailable', 'down', 2, t1);
    expect(c[0]).to.include({ lastTransitionTime: t1.toISOString(), status: 'False' });
    expect(setCondition(c, 'Accepted', 'True', 'Accepted', 'ok', 2, t1).map((x) => x.type)).to.deep.equal(['Synced', 'Accepted']);
  });

  it('scope: keys inside the namespace; * only from the operator namespace', () => {
    expect(scopeRefusal('shop/Deployment/a', 'shop', 'ops')).to.equal(undefined);
    expect(scopeRefusal('shop/*', 'shop', 'ops')).to.equal(undefined);
    expect(scopeRefusal('shopping/*', 'shop', 'ops')?.reason).to.equal('NamespaceMismatch');
    expect(scopeRefusal('*', 'shop', 'ops')?.reason).to.equal('ClusterScopeNotAllowed');
    expect(scopeRefusal('*', 'ops', 'ops')).to.equal(undefined);
  });

  it('a status that differs only in lastSyncTime or key/condition order is not rewritten', () => {
    const conditions = setCondition(setCondition(undefined, 'A', 'True', 'R', 'm', 1, t0), 'B', 'False', 'S', 'n', 1, t0);
    const current = { phase: 'Active', lastSyncTime: t0.toISOString(), conditions, observedGeneration: 1 };
    expect(statusDiffers(current, { observedGeneration: 1, conditions: [...conditions].reverse(), phase: 'Active' })).to.equal(false);
    expect(statusDiffers(current, { phase: 'Expired' })).to.equal(true);
    expect(statusDiffers(undefined, { phase: 'Active' })).to.equal(true);
  });
});
