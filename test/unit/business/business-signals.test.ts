import { expect } from 'chai';
import fc from 'fast-check';
import { blastRadius, businessSignals, sloBurnVelocity } from '../../../api-server/src/analysis/business/business-signals.js';

const SLO = { targetPercent: 99, windowDays: 30, errorBudgetMinutes: 432 };

describe('business signals (analytics.md §7.2)', () => {
  it('gives slo_burn_velocity = E / (1 − target/100)', () => {
    expect(sloBurnVelocity(0.01, SLO)).to.be.closeTo(1, 1e-9);
    expect(sloBurnVelocity(0.002, { ...SLO, targetPercent: 99.9 })).to.be.closeTo(2, 1e-9);
    expect(sloBurnVelocity(0.5, { ...SLO, targetPercent: 100 })).to.equal(0);
    expect(sloBurnVelocity(0.5, undefined)).to.equal(0);
  });

  it('counts distinct callers for blast_radius', () => {
    expect(blastRadius(['a', 'b', 'a', ''])).to.equal(2);
    expect(businessSignals({ errorRateLast: 0.01, slo: SLO, callers: ['x', 'y'], recoveryDebt: 3 })).to.deep.include({ blastRadius: 2, recoveryDebt: 3 });
  });

  it('never yields NaN or Infinity', () => {
    fc.assert(
      fc.property(fc.double(), fc.double(), (e, target) => {
        const v = sloBurnVelocity(e, { ...SLO, targetPercent: target });
        expect(Number.isFinite(v)).to.equal(true);
        expect(v).to.be.at.least(0);
        const b = businessSignals({ errorRateLast: e, slo: null, callers: [], recoveryDebt: target });
        expect(Number.isFinite(b.recoveryDebt)).to.equal(true);
      }),
    );
  });
});
