import { expect } from 'chai';
import fc from 'fast-check';
import { NearMissTracker } from '../../../api-server/src/analysis/business/near-miss.js';

const T0 = 1_700_000_000_000;
const DAY = 24 * 3600_000;

function run(t: NearMissTracker, values: number[], start: number): boolean[] {
  return values.map((r, i) => t.step(r, start + i * 15_000));
}

describe('near-miss state machine and recovery_debt (analytics.md §7.2)', () => {
  it('records a near-miss when FusedR falls below 1.0 after reaching 2.0', () => {
    const t = new NearMissTracker();
    expect(run(t, [0.5, 2.1, 1.5, 1.2, 0.9], T0)).to.deep.equal([false, false, false, false, true]);
    expect(t.isInNearMiss()).to.equal(false);
    expect(t.recoveryDebt(T0 + 60_000)).to.equal(1);
  });

  it('does not count a real rupture (FusedR ≥ 3.0)', () => {
    const t = new NearMissTracker();
    expect(run(t, [2.5, 3.0, 0.5], T0)).to.deep.equal([false, false, false]);
    expect(t.recoveryDebt(T0 + 60_000)).to.equal(0);
    // 2.0 re-enters after the rupture; the next drop below 1.0 counts
    expect(run(t, [2.0, 0.99], T0 + 60_000)).to.deep.equal([false, true]);
  });

  it('stays in near-miss between 1.0 and 2.0 and ignores NaN', () => {
    const t = new NearMissTracker();
    run(t, [2.2, Number.NaN, 1.0, 1.99], T0);
    expect(t.isInNearMiss()).to.equal(true);
  });

  it('counts near-misses of the last 7 days only', () => {
    const t = new NearMissTracker();
    run(t, [2.2, 0.1], T0);
    run(t, [2.2, 0.1], T0 + 3 * DAY);
    expect(t.recoveryDebt(T0 + 3 * DAY + 60_000)).to.equal(2);
    expect(t.recoveryDebt(T0 + 7 * DAY + 15_000)).to.equal(1);
    run(t, [0.1], T0 + 8 * DAY);
    expect(t.exportState().recordedAtMs).to.deep.equal([T0 + 3 * DAY + 15_000]);
    const u = NearMissTracker.fromState(JSON.parse(JSON.stringify(t.exportState())));
    expect(u.recoveryDebt(T0 + 8 * DAY)).to.equal(1);
  });

  it('always gives a finite, non-negative integer debt', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.double(), fc.double({ min: 0, max: 4 }))), fc.double(), (values, now) => {
        const t = new NearMissTracker();
        run(t, values, T0);
        const d = t.recoveryDebt(now);
        expect(Number.isInteger(d)).to.equal(true);
        expect(d).to.be.at.least(0);
      }),
    );
  });
});
