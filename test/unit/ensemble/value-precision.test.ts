import { expect } from 'chai';
import fc from 'fast-check';
import { SeriesEnsemble } from '../../../api-server/src/analysis/ensemble/series-ensemble.js';
import { STAGE, WIDE } from '../../../api-server/src/analysis/ensemble/series-memory.js';
import { FINE_RUN_LIMIT, floatHolds } from '../../../api-server/src/analysis/ensemble/value-precision.js';
import { SeriesSet } from '../../../api-server/src/analysis/series/series-set.js';

const keepsDoubles = (e: SeriesEnsemble): boolean => e.memory[STAGE] === WIDE;

describe('value precision: a series keeps its values as floats unless floats would not serve it (value-precision.ts)', () => {
  it('a steady value that is not a float (0.3 each step) stays in floats; the window keeps 0.3 rounded, the last value as given', () => {
    const e = new SeriesEnsemble();
    for (let i = 0; i < 400; i++) e.observe(0.3, 15 * i);
    expect(keepsDoubles(e)).to.equal(false);
    expect(e.storedValue(0.3)).to.equal(Math.fround(0.3));
    expect(Math.fround(0.3)).to.not.equal(0.3);
    expect(new Set(e.toJSON().points.map(([, y]) => y))).to.deep.equal(new Set([Math.fround(0.3)]));
    // what the forecast calls the current value is the last one given
    expect(e.forecast(30).current).to.equal(0.3);
    expect(e.toJSON()).to.not.have.property('doubles');
  });

  it('a counter near 1e9 moving by 10 a step (a float steps by 64 there): doubles from its 8th fine change on, hand-checked', () => {
    const e = new SeriesEnsemble();
    // the first point has no change; points 2..8 are fine changes 1..7 (10 / 1e9 < 2^-17)
    for (let i = 0; i < FINE_RUN_LIMIT; i++) e.observe(1e9 + 10 * i, 15 * i);
    expect(keepsDoubles(e)).to.equal(false);
    // as floats the seven changes of 10 were lost: 1e9 and 1e9 + 64 only
    expect(new Set(e.toJSON().points.map(([, y]) => y))).to.deep.equal(new Set([1e9, 1e9 + 64]));
    e.observe(1e9 + 10 * FINE_RUN_LIMIT, 15 * FINE_RUN_LIMIT);
    expect(keepsDoubles(e)).to.equal(true);
    for (let i = FINE_RUN_LIMIT + 1; i < 400; i++) e.observe(1e9 + 10 * i, 15 * i);
    // from then on each value is kept as given: the last 300 are exact
    const ys = e.toJSON().points.map(([, y]) => y);
    expect(ys.slice(-10)).to.deep.equal(Array.from({ length: 10 }, (_, k) => 1e9 + 10 * (390 + k)));
    expect(e.storedValue(1e9 + 5)).to.equal(1e9 + 5);
    // and saved so: a restore keeps doubles
    const saved = e.toJSON();
    expect(saved.doubles).to.equal(true);
    const restored = SeriesEnsemble.fromJSON(JSON.parse(JSON.stringify(saved)));
    expect(keepsDoubles(restored)).to.equal(true);
    expect(restored.toJSON()).to.deep.equal(saved);
  });

  it('repeats do not break a run of fine changes; a coarse change does', () => {
    const e = new SeriesEnsemble();
    let y = 5e8;
    let i = 0;
    const at = (v: number): void => {
      e.observe(v, 15 * i++);
    };
    at(y);
    // 7 fine changes, each followed by a repeat: a run of 7
    for (let k = 0; k < FINE_RUN_LIMIT - 1; k++) {
      y += 3;
      at(y);
      at(y);
    }
    // a coarse change (1 %) ends it; 7 more fine changes do not reach 8
    y *= 1.01;
    at(y);
    for (let k = 0; k < FINE_RUN_LIMIT - 1; k++) at((y += 3));
    expect(keepsDoubles(e)).to.equal(false);
    // the 8th in a row does
    at((y += 3));
    expect(keepsDoubles(e)).to.equal(true);
  });

  it('values a float does not hold (beyond 3.4e38, below its normal range) move the series to doubles at once', () => {
    expect([0, -0, 1, 2 ** -126, -(2 ** -126), 3.4028234663852886e38].map(floatHolds)).to.deep.equal([true, true, true, true, true, true]);
    expect([1e39, -1e39, 1e-40, -1e-45, 2 ** -127].map(floatHolds)).to.deep.equal([false, false, false, false, false]);
    for (const y of [1e39, 1e-40]) {
      const e = new SeriesEnsemble();
      e.observe(1, 0);
      e.observe(y, 15);
      expect(keepsDoubles(e), String(y)).to.equal(true);
      expect(e.toJSON().points[1]).to.deep.equal([15, y]);
    }
  });

  it('noisy telemetry stays in floats (property: 2 000 points of a level with 0.1-10 % noise)', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-3, max: 1e7, noNaN: true }), fc.double({ min: 1e-3, max: 0.1, noNaN: true }), fc.integer({ min: 1, max: 2 ** 30 }), (level, noise, seed) => {
        let s = seed;
        const e = new SeriesEnsemble();
        for (let i = 0; i < 2000; i++) {
          s = (s * 1103515245 + 12345) % 2147483648;
          e.observe(level * (1 + noise * (s / 2147483648 - 0.5)), 15 * i);
        }
        expect(keepsDoubles(e)).to.equal(false);
      }),
      { numRuns: 20 },
    );
  });

  it('a series set saves and restores a series that keeps doubles as one', () => {
    const set = new SeriesSet(32);
    for (let i = 0; i < 400; i++) {
      set.observe('bytes_total', 4e9 + 7 * i, 15 * i);
      set.observe('cpu', 0.3 + 0.1 * Math.sin(i), 15 * i);
    }
    expect(keepsDoubles(set.ensemble('bytes_total')!)).to.equal(true);
    expect(keepsDoubles(set.ensemble('cpu')!)).to.equal(false);
    const saved = JSON.parse(JSON.stringify(set.toJSON())) as ReturnType<SeriesSet['toJSON']>;
    const restored = SeriesSet.fromJSON(saved, 32);
    expect(keepsDoubles(restored.ensemble('bytes_total')!)).to.equal(true);
    expect(keepsDoubles(restored.ensemble('cpu')!)).to.equal(false);
    expect(JSON.parse(JSON.stringify(restored.toJSON()))).to.deep.equal(saved);
  });

  it('the detectors score the value as the series keeps it, and report it as given', () => {
    const set = new SeriesSet(32);
    for (let i = 0; i < 60; i++) set.observe('cpu', 0.25 + (i % 2) * 0.01, 15 * i);
    const p = set.observe('cpu', 7.3, 15 * 60)!;
    expect(p.value).to.equal(7.3);
    const z = p.firings.find((f) => f.method === 'zscore')!;
    expect(z.value).to.equal(7.3);
    // the z-score over the window as kept (floats, 7.3 rounded among them): the score of 7.3
    // itself would differ by 3e-8 of it
    const ys = set.ensemble('cpu')!.toJSON().points.map(([, y]) => y);
    const mu = ys.reduce((a, v) => a + v, 0) / ys.length;
    const sigma = Math.sqrt(ys.reduce((a, v) => a + v * v, 0) / ys.length - mu * mu);
    const kept = (Math.fround(7.3) - mu) / (sigma + 1e-10);
    expect(Math.abs(z.score - kept)).to.be.below(1e-10 * kept);
    expect(Math.abs(z.score - (7.3 - mu) / (sigma + 1e-10))).to.be.above(1e-8 * kept);
  });
});
