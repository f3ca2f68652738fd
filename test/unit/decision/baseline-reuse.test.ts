import { expect } from 'chai';
import fc from 'fast-check';
import { LevelTrend } from '../../../api-server/src/analysis/decision/level-trend.js';
import { DEPARTURES, LevelDeparture } from '../../../api-server/src/analysis/decision/level-departure.js';

const MIN = 60_000;

describe('decision: the trend baseline read without an object per step', () => {
  it('baselineInto writes what the baseline getter returns, and nothing while it is null (fast-check)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 60, size: 'max' }), fc.boolean(), (levels, learn) => {
        const t = new LevelTrend('saturation');
        const out = { mean: -1, spread: -1 };
        levels.forEach((level, i) => {
          t.observe(level, i * 5 * MIN, learn);
          const expected = t.baseline;
          const before = { ...out };
          const got = t.baselineInto(out);
          expect(got).to.equal(expected !== null);
          if (expected === null) expect(out).to.deep.equal(before);
          else expect(out).to.deep.equal(expected);
        });
      }),
      { numRuns: 200 },
    );
  });

  it('a departure keeps the baseline at its start when the caller reuses one object for every step (fast-check)', () => {
    const step = fc.record({ level: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0.95, 0.3)), mean: fc.double({ min: 0, max: 0.5, noNaN: true }), spread: fc.double({ min: 0, max: 0.05, noNaN: true }), learnt: fc.boolean() });
    fc.assert(
      fc.property(fc.constantFrom('error_rate', 'cpu', 'memory'), fc.array(step, { maxLength: 150, size: 'max' }), (input, steps) => {
        const fresh = new LevelDeparture(DEPARTURES[input]!);
        const reused = new LevelDeparture(DEPARTURES[input]!);
        const shared = { mean: 0, spread: 0 };
        for (const s of steps) {
          shared.mean = s.mean;
          shared.spread = s.spread;
          const a = fresh.observe(s.level, s.learnt ? { mean: s.mean, spread: s.spread } : null);
          const b = reused.observe(s.level, s.learnt ? shared : null);
          expect(b).to.equal(a);
          expect(reused.toJSON()).to.deep.equal(fresh.toJSON());
        }
      }),
      { numRuns: 200 },
    );
  });
});
