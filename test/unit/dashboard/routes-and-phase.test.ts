import { expect } from 'chai';
import fc from 'fast-check';
import { phaseOf } from '../../../dashboard/src/model/phase.js';
import { hrefOf, keyOf, parseRoute, refOfKey } from '../../../dashboard/src/model/routes.js';

describe('dashboard routes and phases', () => {
  it('round-trips any workload through its hash route', () => {
    const segment = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !s.includes('/'));
    fc.assert(
      fc.property(segment, segment, segment, (namespace, kind, name) => {
        const ref = { namespace, kind, name };
        expect(parseRoute(hrefOf({ view: 'workload', ref }))).to.deep.equal({ view: 'workload', ref });
      }),
    );
  });

  it('parses the fixed views and falls back to the fleet', () => {
    expect(parseRoute('#/actions')).to.deep.equal({ view: 'actions' });
    expect(parseRoute('#/controls')).to.deep.equal({ view: 'controls' });
    expect(parseRoute('')).to.deep.equal({ view: 'fleet' });
    expect(parseRoute('#/w/a/b')).to.deep.equal({ view: 'fleet' });
    expect(parseRoute('#/w/%E0%A4%A/b/c')).to.deep.equal({ view: 'fleet' });
    expect(refOfKey('shop/Deployment/cart')).to.deep.equal({ namespace: 'shop', kind: 'Deployment', name: 'cart' });
    expect(refOfKey('shop//cart')).to.equal(undefined);
    expect(keyOf({ namespace: 'shop', kind: 'Deployment', name: 'cart' })).to.equal('shop/Deployment/cart');
  });

  it('derives Calibrating, Active and Rupture when the server sends no phase', () => {
    expect(phaseOf({ state: 'stable', fused_rupture_index: 0, status: 'calibrating', calibration_progress: 40, calibration_eta_minutes: 14 })).to.deep.equal({ phase: 'Calibrating', progress: 40, etaMinutes: 14 });
    expect(phaseOf({ state: 'elevated', fused_rupture_index: 1.2, status: 'active' }).phase).to.equal('Active');
    expect(phaseOf({ state: 'critical', fused_rupture_index: 3, status: 'active' }).phase).to.equal('Rupture');
    expect(phaseOf({ state: 'stable', fused_rupture_index: 0, status: 'active', phase: 'Rupture' }).phase).to.equal('Rupture');
    expect(phaseOf({ state: 'stable', fused_rupture_index: 0, status: 'pending_telemetry' }).progress).to.equal(0);
  });
});
