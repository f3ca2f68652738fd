import { expect } from 'chai';
import fc from 'fast-check';
import { ttfSeconds } from '../../../api-server/src/analysis/explain/ttf.js';

describe('ttf_seconds (analytics.md §8.5)', () => {
  it('gives (1.0 − m)/α_b, floored and clamped to [0, 3600]', () => {
    expect(ttfSeconds(0.4, 0.001)).to.equal(600);
    expect(ttfSeconds(0.5, 0.003)).to.equal(166);
    expect(ttfSeconds(0, 1e-5)).to.equal(3600);
    expect(ttfSeconds(1.2, 0.01)).to.equal(0);
  });

  it('answers 3600 without a rising slope', () => {
    expect(ttfSeconds(0.4, 0)).to.equal(3600);
    expect(ttfSeconds(0.4, -0.01)).to.equal(3600);
    expect(ttfSeconds(Number.NaN, 0.01)).to.equal(3600);
    expect(ttfSeconds(0.4, Number.POSITIVE_INFINITY)).to.equal(0);
  });

  it('is an integer in [0, 3600] for any input', () => {
    fc.assert(
      fc.property(fc.double(), fc.double(), (m, a) => {
        const t = ttfSeconds(m, a);
        expect(Number.isInteger(t)).to.equal(true);
        expect(t).to.be.within(0, 3600);
      }),
    );
  });
});
