import { expect } from 'chai';
import fc from 'fast-check';
import { DEFAULT_HEALTH_WEIGHTS, normaliseWeights, WeightTable } from '../../../api-server/src/analysis/weights/health-weights.js';
import { healthScoreOf } from '../../../api-server/src/analysis/signals/formulas.js';
import { WEIGHTED_SIGNALS } from '../../../api-server/src/model/signals.js';

const w = (stress: number, fatigue = 0, mood = 0, pressure = 0, humidity = 0, contagion = 0) => ({ stress, fatigue, mood, pressure, humidity, contagion });

describe('analysis health weights (analytics.md §3.5)', () => {
  it('first matching selector wins: exact key, ns/*, *; otherwise the defaults', () => {
    const t = new WeightTable([
      { selector: 'shop/Deployment/cart', weights: w(1) },
      { selector: 'shop/*', weights: w(2, 2) },
      { selector: '*', weights: w(0, 0, 1) },
    ]);
    expect(t.weightsFor('shop/Deployment/cart').stress).to.equal(1);
    expect(t.weightsFor('shop/Deployment/web')).to.deep.equal(w(0.5, 0.5));
    expect(t.weightsFor('other/Deployment/x')).to.deep.equal(w(0, 0, 1));
    expect(new WeightTable([]).weightsFor('a/b/c')).to.deep.equal(DEFAULT_HEALTH_WEIGHTS);
    expect(new WeightTable([{ selector: 'shopping/*', weights: w(1) }]).weightsFor('shop/Deployment/x')).to.deep.equal(DEFAULT_HEALTH_WEIGHTS);
  });

  it('health score with an override: {stress 2, fatigue 2} → 0.5/0.5', () => {
    const t = new WeightTable([{ selector: 'ns/*', weights: w(2, 2) }]);
    const p = { stress: 0.4, fatigue: 0.2, mood: 0.3, pressure: 0.5, humidity: 0.1, contagion: 0.2 };
    expect(healthScoreOf(t.weightsFor('ns/Deployment/a'), p)).to.be.closeTo(0.7, 1e-12);
    expect(healthScoreOf(t.weightsFor('xx/Deployment/a'), p)).to.be.closeTo(0.695, 1e-12);
  });

  it('degenerate entries (all zero, negative, non-finite) fall back to the defaults', () => {
    expect(normaliseWeights(w(0))).to.deep.equal(DEFAULT_HEALTH_WEIGHTS);
    expect(normaliseWeights(w(-1, NaN, Infinity))).to.deep.equal(DEFAULT_HEALTH_WEIGHTS);
  });

  it('property: weights always sum to 1 and are in [0, 1]', () => {
    const anyNumber = fc.oneof(fc.double(), fc.constant(Number.MAX_VALUE), fc.constant(0), fc.double({ min: 0, max: 1e6, noNaN: true }));
    fc.assert(
      fc.property(fc.tuple(anyNumber, anyNumber, anyNumber, anyNumber, anyNumber, anyNumber), (v) => {
        const out = normaliseWeights(w(...v));
        const sum = WEIGHTED_SIGNALS.reduce((a, k) => a + out[k], 0);
        expect(sum).to.be.closeTo(1, 1e-9);
        for (const k of WEIGHTED_SIGNALS) expect(out[k]).to.be.within(0, 1);
      }),
      { numRuns: 500 },
    );
  });
});
