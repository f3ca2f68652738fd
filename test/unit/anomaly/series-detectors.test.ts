import { expect } from 'chai';
import fc from 'fast-check';
import { SeriesDetectors } from '../../../api-server/src/analysis/anomaly/index.js';

function noisy(i: number): number {
  return 0.5 + 0.01 * Math.sin(i * 1.7) + 0.005 * Math.cos(i * 0.3);
}

describe('anomaly detectors (analytics.md §5.6)', () => {
  it('a spike after a calm stretch fires zscore and mad together: consensus', () => {
    const d = new SeriesDetectors();
    for (let i = 0; i < 100; i += 1) expect(d.observe(noisy(i), i * 15).firings).to.have.length(0);
    const out = d.observe(0.9, 100 * 15);
    const methods = out.firings.map((f) => f.method);
    expect(methods).to.include('zscore');
    expect(methods).to.include('mad');
    expect(out.consensus).to.equal(true);
    // the zscore method's own score (3 sigma = 0.5); `score` is the novelty score, still warming up here
    expect(out.methodScores.zscore).to.be.greaterThan(0.5);
    expect(out.score).to.equal(0);
  });

  it('nothing fires during the 10-value warm-up', () => {
    const d = new SeriesDetectors();
    for (let i = 0; i < 9; i += 1) expect(d.observe(i % 2 === 0 ? 0 : 100, i * 15).firings).to.have.length(0);
  });

  it('scores stay in [0,1] for any input (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.double({ noNaN: false }), fc.double({ min: 0, max: 1 })), { maxLength: 80 }), (ys) => {
        const d = new SeriesDetectors();
        ys.forEach((y, i) => {
          const out = d.observe(y, i * 15);
          expect(out.score).to.be.within(0, 1);
        });
      }),
    );
  });
});
