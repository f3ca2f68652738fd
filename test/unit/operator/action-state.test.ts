import { expect } from 'chai';
import { stateOf } from '../../../operator/src/reconcile/action-reconciler.js';
import type { SidecarAction } from '../../../operator/src/sidecar/sidecar-client.js';

const action = (state: SidecarAction['state'], extra: Partial<SidecarAction> = {}): SidecarAction => ({
  id: 'act_0123456789ab',
  workload: 'shop/Deployment/cart',
  type: 'scale',
  params: { delta: 2 },
  tier: 2,
  state,
  rupture_id: 'r_1',
  created_at: '2026-01-01T00:00:00Z',
  description: 'scale',
  confidence: 0.9,
  fused_rupture_index: 4.2,
  approved_by: null,
  blocked_by: null,
  rollback_requested: false,
  execution: null,
  ...extra,
});

describe('operator: HealthAction status.state from the engine (operator.md §7.3 table)', () => {
  it('maps every row of the table', () => {
    expect(stateOf(action('pending'), undefined, false)).to.equal('Pending');
    expect(stateOf(action('approved'), undefined, false)).to.equal('Approved');
    expect(stateOf(action('approved'), { startedAt: '2026-01-01T00:00:01Z' }, false)).to.equal('Executing');
    expect(stateOf(action('approved'), { startedAt: '2026-01-01T00:00:01Z', finishedAt: '2026-01-01T00:00:02Z' }, false)).to.equal('Approved');
    expect(stateOf(action('executed'), undefined, false)).to.equal('Executed');
    expect(stateOf(action('executed', { rollback_requested: true }), undefined, false)).to.equal('RollingBack');
    expect(stateOf(action('rolled_back'), undefined, false)).to.equal('RolledBack');
    expect(stateOf(action('failed'), undefined, false)).to.equal('Failed');
    expect(stateOf(action('failed'), undefined, true)).to.equal('Rejected');
    expect(stateOf(undefined, undefined, true)).to.equal('Rejected');
    expect(stateOf(undefined, undefined, false)).to.equal('Expired');
  });
});
