import { expect } from 'chai';
import fc from 'fast-check';
import { SeriesDetectors } from '../../../api-server/src/analysis/anomaly/index.js';
import { SeriesEnsemble } from '../../../api-server/src/analysis/ensemble/series-ensemble.js';

/** a seeded uniform generator in [0, 1) (mulberry32), so a failing seed can be replayed */
function uniform(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const firesCaIlr = (out: { firings: readonly { method: string }[] }): boolean => out.firings.some((f) => f.method === 'ca_ilr');

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

  it('ca_ilr stays quiet on white noise: metricR sits at its cap there, the burst slope is not told from the noise (property over seeds)', () => {
    // before the slope's significance test, ca_ilr fired on 80 % of these points (median of 200 seeds)
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const next = uniform(seed);
        const d = new SeriesDetectors();
        let fired = 0;
        for (let i = 0; i < 400; i += 1) if (firesCaIlr(d.observe(next(), i * 15))) fired += 1;
        // 0.5 % median, 4.3 % the worst of 200 seeds
        expect(fired / 400).to.be.at.most(0.06);
      }),
      { numRuns: 30 },
    );
  });

  it('ca_ilr fires within the first ten points of a ramp out of a noisy flat stretch (property over seeds)', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const next = uniform(seed);
        const d = new SeriesDetectors();
        let first = -1;
        for (let i = 0; i < 330 && first < 0; i += 1) {
          // 0.3 ± 0.02, then +0.01 a point from point 300 (a climb of 2.5 % a minute)
          const out = d.observe(0.3 + 0.04 * (next() - 0.5) + (i >= 300 ? 0.01 * (i - 300) : 0), i * 15);
          if (firesCaIlr(out) && i >= 300) first = i - 300;
        }
        expect(first).to.be.within(0, 10);
      }),
      { numRuns: 30 },
    );
  });

  it('scores stay in [0,1] for any input (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.double({ noNaN: false }), fc.double({ min: 0, max: 1 })), { maxLength: 80, size: 'max' }), (ys) => {
        const d = new SeriesDetectors();
        ys.forEach((y, i) => {
          const out = d.observe(y, i * 15);
          expect(out.score).to.be.within(0, 1);
        });
      }),
    );
  });
  it('seasonal: |residual| / sigma of the last 181-200 residuals (the newest 10 blocks of 20), from the 10th residual on (property, 1e-9 relative)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.integer({ min: 250, max: 700 }),
        fc.double({ min: 1e-3, max: 1e4, noNaN: true }),
        (seed, points, level) => {
          const next = uniform(seed);
          const d = new SeriesDetectors();
          // the same points into an ensemble of its own: its Holt-Winters forecast before each point
          const e = new SeriesEnsemble();
          const residuals: number[] = [];
          for (let i = 0; i < points; i += 1) {
            const y = level * (1 + 0.3 * Math.sin((2 * Math.PI * i) / 240) + 0.05 * (next() - 0.5)) + (next() < 0.02 ? level * (next() - 0.5) : 0);
            e.observe(y, i * 15);
            const usable = e.seasonalUsableBefore;
            // the residual of the value as the series keeps it (a float)
            const residual = e.storedValue(y) - e.seasonalForecastBefore;
            const out = d.observe(y, i * 15);
            if (!usable) {
              expect(out.methodScores.seasonal).to.equal(0);
              continue;
            }
            residuals.push(residual);
            const n = residuals.length;
            const newest = Math.floor((n - 1) / 20);
            const window = residuals.slice(Math.max(0, (newest - 9) * 20));
            expect(window.length).to.be.at.most(200);
            if (n >= 200) expect(window.length).to.be.at.least(181);
            const mean = window.reduce((a, r) => a + r, 0) / window.length;
            const sigma = Math.sqrt(window.reduce((a, r) => a + (r - mean) ** 2, 0) / window.length);
            if (n < 10 || sigma < 1e-10) {
              expect(out.methodScores.seasonal).to.equal(0);
              continue;
            }
            const score = Math.abs(residual) / sigma;
            const want = score / (score + 3);
            expect(Math.abs(out.methodScores.seasonal - want), `point ${i}: ${out.methodScores.seasonal} against ${want}`).to.be.at.most(1e-9 * want);
            expect(out.firings.some((f) => f.method === 'seasonal')).to.equal(score > 3);
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
