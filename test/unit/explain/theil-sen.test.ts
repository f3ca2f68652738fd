import { expect } from 'chai';
import fc from 'fast-check';
import { selectInPlace, theilSenSlope, THEIL_SEN_MAX_POINTS } from '../../../api-server/src/analysis/explain/failure-eta.js';

/** the definition, written plainly: every pairwise slope of the chosen points, sorted, the middle one(s) */
function referenceTheilSen(xs: readonly number[], ys: readonly number[], from = 0): number {
  const last = Math.min(xs.length, ys.length) - 1;
  const start = Math.max(0, from);
  const n = last - start + 1;
  if (n < 3) return Number.NaN;
  const take = Math.min(n, THEIL_SEN_MAX_POINTS);
  const idx: number[] = [];
  for (let k = take - 1; k >= 0; k--) idx.push(last - Math.round((k * (n - 1)) / Math.max(1, take - 1)));
  const slopes: number[] = [];
  for (let i = 0; i < idx.length; i++) {
    for (let j = i + 1; j < idx.length; j++) {
      const dx = xs[idx[j]!]! - xs[idx[i]!]!;
      const dy = ys[idx[j]!]! - ys[idx[i]!]!;
      if (dx > 0 && Number.isFinite(dx) && Number.isFinite(dy)) slopes.push(dy / dx);
    }
  }
  if (slopes.length === 0) return Number.NaN;
  slopes.sort((a, b) => a - b);
  const m = slopes.length >> 1;
  return slopes.length % 2 === 1 ? slopes[m]! : (slopes[m - 1]! + slopes[m]!) / 2;
}

describe('theilSenSlope (median selected in place)', () => {
  it('selectInPlace: the k-th smallest, everything before it ≤ it, everything after ≥ it', () => {
    const a = Float64Array.from([5, 1, 4, 1, 3, 9, 2, 6]);
    // sorted: 1 1 2 3 4 5 6 9
    expect(selectInPlace(a, 8, 3)).to.equal(3);
    for (let i = 0; i < 3; i++) expect(a[i]).to.be.at.most(3);
    for (let i = 4; i < 8; i++) expect(a[i]).to.be.at.least(3);
    expect(selectInPlace(Float64Array.from([7]), 1, 0)).to.equal(7);
    expect(selectInPlace(Float64Array.from([2, 2, 2, 2]), 4, 2)).to.equal(2);
  });

  it('gives exactly what sorting every pairwise slope gives, for any series and start (fast-check)', () => {
    const value = fc.oneof(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.integer({ min: -3, max: 3 }), fc.constantFrom(0, Number.NaN, Number.POSITIVE_INFINITY));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.oneof(fc.integer({ min: 0, max: 50 }), fc.double({ min: 0, max: 1e4, noNaN: true })), value), { minLength: 0, maxLength: 150, size: 'max' }),
        fc.integer({ min: -2, max: 160 }),
        fc.boolean(),
        (points, from, sortedX) => {
          const pts = sortedX ? [...points].sort((a, b) => a[0] - b[0]) : points;
          const xs = pts.map((p) => p[0]);
          const ys = pts.map((p) => p[1]);
          const expected = referenceTheilSen(xs, ys, from);
          const got = theilSenSlope(xs, ys, from);
          if (Number.isNaN(expected)) expect(Number.isNaN(got)).to.equal(true);
          else expect(got).to.equal(expected);
        },
      ),
      { numRuns: 600 },
    );
  });

  it('reads typed arrays as it reads arrays', () => {
    const xs = [0, 15, 30, 45, 60];
    const ys = [1, 2, 10, 4, 5];
    // the ten pairwise slopes per second: −0.4, −1/6, six of 1/15, 0.3, 8/15; the median is 1/15
    expect(theilSenSlope(Float64Array.from(xs), Float64Array.from(ys))).to.equal(theilSenSlope(xs, ys));
    expect(theilSenSlope(xs, ys)).to.be.closeTo(1 / 15, 1e-12);
  });
});
