import { expect } from 'chai';
import fc from 'fast-check';
import { NO_TIMES, lineCopyPoints, linePoints, linePush, lineRegion, lineSharePoints, lineSlopeStdError } from '../../../api-server/src/analysis/regression/line-slots.js';

/** the slope's standard error written from the saved points: sqrt(SSE / (n − 2) / Σ(x − x̄)²) with the line's running moments */
function referenceStdError(d: Float64Array, capacity: number): number {
  const { xs, ys, moments } = linePoints(d, 0, capacity, NO_TIMES);
  const n = xs.length;
  const [mx, my, vx, cxy] = moments;
  if (n < 3 || !(vx > 0)) return Number.POSITIVE_INFINITY;
  const b = cxy / vx;
  let sse = 0;
  for (let k = 0; k < n; k += 1) {
    const r = ys[k]! - my - b * (xs[k]! - mx);
    sse += r * r;
  }
  return Math.sqrt(sse / (n - 2) / vx);
}

describe('a sliding line read in place (lineCopyPoints, lineSlopeStdError)', () => {
  it('copies the points and gives the standard error the saved points give, own or shared ring, through the wrap (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.constantFrom(0, -0, 1)), { minLength: 0, maxLength: 700, size: 'max' }),
        fc.integer({ min: 3, max: 40 }),
        fc.integer({ min: 0, max: 30 }),
        fc.boolean(),
        (ys, capacity, extra, shareRing) => {
          const ring = capacity + extra;
          const ringAt = lineRegion(0);
          const d = new Float64Array(shareRing ? ringAt + 2 * ring : lineRegion(capacity));
          if (shareRing) lineSharePoints(d, 0, ringAt, ring);
          const xs = new Float64Array(capacity);
          const yc = new Float64Array(capacity);
          ys.forEach((y, i) => {
            const x = 1_700_000_000 + 15 * i;
            if (shareRing) d[ringAt + 2 * (i % ring) + 1] = y;
            linePush(d, 0, capacity, x, y, NO_TIMES);
            const saved = linePoints(d, 0, capacity, NO_TIMES);
            const n = lineCopyPoints(d, 0, capacity, xs, yc, NO_TIMES);
            expect(n).to.equal(saved.xs.length);
            expect(Array.from(xs.subarray(0, n))).to.deep.equal(saved.xs);
            expect(Array.from(yc.subarray(0, n))).to.deep.equal(saved.ys);
            expect(Object.is(lineSlopeStdError(d, 0, capacity, NO_TIMES), referenceStdError(d, capacity))).to.equal(true, `at ${i}`);
          });
        },
      ),
      { numRuns: 60 },
    );
  });
});
