import { expect } from 'chai';
import fc from 'fast-check';
import { ERROR_RING, ModelErrors } from '../../../api-server/src/analysis/ensemble/model-errors.js';

describe('model errors (the five residual rings of one series)', () => {
  it('hand-checked MAE, MSE and sigma; a model without forecasts has no residuals', () => {
    const e = new ModelErrors(2);
    for (const r of [1, -3, 2]) e.push(Float64Array.of(Number.NaN, r));
    expect(e.count(0)).to.equal(0);
    expect(e.count(1)).to.equal(3);
    expect(e.mae(1)).to.equal(2); // (1 + 3 + 2) / 3
    expect(e.mse(1)).to.be.closeTo(14 / 3, 1e-12);
    // mean 0, population variance 14/3
    expect(e.sigma(1)).to.be.closeTo(Math.sqrt(14 / 3), 1e-12);
    expect([e.at(1, 0), e.at(1, 1), e.at(1, 2)]).to.deep.equal([1, -3, 2]);
  });

  it('sigma of large residuals that barely vary keeps its digits, and covers only the last 200 points', () => {
    const e = new ModelErrors(1);
    // 300 points: the first 100 (far off) have left the 200-point window; then 3000 and 3000 + 2^-10
    // alternating (four float steps apart at 3000, where a float's step is 2^-12: both stored exactly)
    for (let p = 0; p < 300; p += 1) e.push(Float64Array.of(p < 100 ? -5e5 : p % 2 === 0 ? 3000 : 3000 + 2 ** -10));
    // population sd of two values half and half: half their distance, 2^-11
    expect(e.sigma(0)).to.be.closeTo(2 ** -11, 1e-12);
  });

  it('holds residuals in single precision: each rounded to the nearest float, the sums of exactly those', () => {
    const e = new ModelErrors(1);
    // 0.1 is not a float: the ring holds 0.100000001490116119384765625; 3000.0015 becomes 3000.00146484375 (6 steps of 2^-12)
    for (const r of [0.1, -3000.0015, 1e39, 5e-324]) e.push(Float64Array.of(r));
    expect([e.at(0, 0), e.at(0, 1)]).to.deep.equal([0.100000001490116119384765625, -3000.00146484375]);
    // beyond the floats' range: the largest float (2^128 - 2^104); below the smallest: 0
    expect(e.at(0, 2)).to.equal(3.4028234663852886e38);
    expect(e.at(0, 3)).to.equal(0);
    expect(e.mae(0)).to.equal((0.100000001490116119384765625 + 3000.00146484375 + 3.4028234663852886e38 + 0) / 4);
  });

  it('keeps each model its last 240 residuals across growth and wrap, with sums equal to a direct computation (property)', () => {
    fc.assert(
      fc.property(
        // the point from which each model forecasts (usability only grows), and the residuals
        fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 5, maxLength: 5 }),
        fc.array(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { maxLength: 1300 }),
        (starts, values) => {
          const e = new ModelErrors(5);
          const kept: number[][] = [[], [], [], [], []];
          values.forEach((v, p) => {
            const point = new Float64Array(5);
            for (let m = 0; m < 5; m += 1) {
              point[m] = p >= starts[m]! ? v * (m + 1) : Number.NaN;
              // the ring keeps the nearest float (error-slots.ts)
              if (p >= starts[m]!) kept[m]!.push(Math.fround(v * (m + 1)));
              if (kept[m]!.length > ERROR_RING) kept[m]!.shift();
            }
            e.push(point);
          });
          for (let m = 0; m < 5; m += 1) {
            const k = kept[m]!;
            expect(e.count(m)).to.equal(k.length);
            for (let i = 0; i < k.length; i += 1) expect(e.at(m, i)).to.equal(k[i]);
            if (k.length === 0) continue;
            const mae = k.reduce((a, x) => a + Math.abs(x), 0) / k.length;
            expect(e.mae(m)).to.be.closeTo(mae, 1e-6 * (1 + mae));
            const last = k.slice(-200);
            const mean = last.reduce((a, x) => a + x, 0) / last.length;
            const sd = last.length < 2 ? 0 : Math.sqrt(last.reduce((a, x) => a + (x - mean) ** 2, 0) / last.length);
            expect(e.sigma(m)).to.be.closeTo(sd, 1e-6 * (1 + sd));
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
