import { expect } from 'chai';
import fc from 'fast-check';
import {
  NO_TIMES,
  lineCount,
  lineFirstX,
  lineLastX,
  lineLastY,
  linePoints,
  linePredict,
  linePush,
  lineRegion,
  lineSharePoints,
  lineSplitPoints,
  lineSlope,
  lineSlopeStdError,
} from '../../../api-server/src/analysis/regression/line-slots.js';
import { LINE_SPLIT_REGION, lineTimeFits } from '../../../api-server/src/analysis/regression/line-times.js';
import { setFloatHalves } from '../../../api-server/src/analysis/packed/sixteen-bit.js';

const CAPACITY = 5;
const RING = 8;

describe('a sliding line reading its points in a longer ring of (x, y) pairs (lineSharePoints)', () => {
  it('the owner writes the ring first, the line keeps the last 5 of its 8 pairs: hand-checked', () => {
    // region of the line's scalars at 0, the owner's ring of 8 (x, y) pairs right after
    const at = 0;
    const ringAt = lineRegion(0);
    const d = new Float64Array(ringAt + 2 * RING);
    lineSharePoints(d, at, ringAt, RING);
    for (let i = 0; i < 11; i += 1) {
      const slot = ringAt + 2 * (i % RING);
      d[slot + 1] = i * i; // the owner's value, written before the line's push
      linePush(d, at, CAPACITY, i, i * i, NO_TIMES);
    }
    // the line holds x = 6..10, y = 36, 49, 64, 81, 100; they sit at ring slots 6, 7, 0, 1, 2
    expect(lineCount(d, at)).to.equal(5);
    expect(linePoints(d, at, CAPACITY, NO_TIMES).xs).to.deep.equal([6, 7, 8, 9, 10]);
    expect(linePoints(d, at, CAPACITY, NO_TIMES).ys).to.deep.equal([36, 49, 64, 81, 100]);
    expect([d[ringAt + 2 * 2], d[ringAt + 2 * 2 + 1]]).to.deep.equal([10, 100]);
    expect([lineFirstX(d, at, NO_TIMES), lineLastX(d, at, CAPACITY, NO_TIMES), lineLastY(d, at, CAPACITY, NO_TIMES)]).to.deep.equal([6, 10, 100]);
    // least squares over x 6..10 (mean 8), y mean 66: slope = Σ(x-8)(y-66) / Σ(x-8)² = 160 / 10 = 16
    expect(lineSlope(d, at)).to.be.closeTo(16, 1e-9);
    // the ring's slots 3-5 still hold the pairs of x 3, 4, 5: they left the line, not the ring
    expect([d[ringAt + 2 * 3], d[ringAt + 2 * 5]]).to.deep.equal([3, 5]);
  });

  // the owner writes a point's slot before the line removes its oldest point: the ring must be
  // longer than the line (the value window's 300 against 240 and 20), so `extra` starts at 1
  it('gives bit for bit what a line with points of its own gives (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 1500, size: 'max' }), fc.integer({ min: 1, max: 40 }), (ys, extra) => {
        const capacity = 240;
        const ring = capacity + extra;
        const own = new Float64Array(lineRegion(capacity));
        const ringAt = lineRegion(0);
        const shared = new Float64Array(ringAt + 2 * ring);
        lineSharePoints(shared, 0, ringAt, ring);
        ys.forEach((y, i) => {
          const x = 1_700_000_000 + 15 * i;
          shared[ringAt + 2 * (i % ring) + 1] = y;
          linePush(own, 0, capacity, x, y, NO_TIMES);
          linePush(shared, 0, capacity, x, y, NO_TIMES);
          if (i % 97 === 0 || i === ys.length - 1) {
            expect(Object.is(linePredict(shared, 0, x + 15), linePredict(own, 0, x + 15))).to.equal(true, `predict at ${i}`);
            expect(Object.is(lineSlopeStdError(shared, 0, capacity, NO_TIMES), lineSlopeStdError(own, 0, capacity, NO_TIMES))).to.equal(true, `slope error at ${i}`);
          }
        });
        expect(linePoints(shared, 0, capacity, NO_TIMES)).to.deep.equal(linePoints(own, 0, capacity, NO_TIMES));
      }),
      { numRuns: 30 },
    );
  });

  it('split points, the ys in a ring of floats and the xs as 16- or 32-bit offsets from a base, give bit for bit what a line with points of its own gives for float ys (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.float({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 1500, size: 'max' }), fc.integer({ min: 1, max: 40 }), fc.constantFrom(1 as const, 2 as const), (ys, extra, halves) => {
        const capacity = 240;
        const ring = capacity + extra;
        const own = new Float64Array(lineRegion(capacity));
        // the line's 12 scalars (the base, where the xs are and their width among them), the ys'
        // ring of floats (from float element 2 * LINE_SPLIT_REGION), then the xs' ring as 16-bit
        // integers or 32-bit ones, each two 16-bit halves of the memory's Uint16 view
        const ysAt = 2 * LINE_SPLIT_REGION;
        const ysDoubles = Math.ceil(ring / 2);
        const split = new Float64Array(LINE_SPLIT_REGION + ysDoubles + Math.ceil((ring * halves) / 4));
        const t = new Uint16Array(split.buffer);
        const timesAt = 4 * (LINE_SPLIT_REGION + ysDoubles);
        lineSplitPoints(split, 0, ysAt, timesAt, ring, halves);
        ys.forEach((y, i) => {
          const x = 15 * i;
          expect(lineTimeFits(split, 0, x)).to.equal(true);
          setFloatHalves(t, 2 * (ysAt + (i % ring)), y);
          linePush(own, 0, capacity, x, y, NO_TIMES);
          linePush(split, 0, capacity, x, y, t);
          // base 0: the offset is x itself (at most 22 485 here), low half first
          if (halves === 1) expect(t[timesAt + (i % ring)]).to.equal(x);
          else expect([t[timesAt + 2 * (i % ring)], t[timesAt + 2 * (i % ring) + 1]]).to.deep.equal([x & 0xffff, x >>> 16]);
          if (i % 97 === 0 || i === ys.length - 1) {
            expect(Object.is(linePredict(split, 0, x + 15), linePredict(own, 0, x + 15))).to.equal(true, `predict at ${i}`);
            expect(Object.is(lineSlopeStdError(split, 0, capacity, t), lineSlopeStdError(own, 0, capacity, NO_TIMES))).to.equal(true, `slope error at ${i}`);
          }
        });
        expect(linePoints(split, 0, capacity, t)).to.deep.equal(linePoints(own, 0, capacity, NO_TIMES));
        expect([lineFirstX(split, 0, t), lineLastX(split, 0, capacity, t), lineLastY(split, 0, capacity, t)]).to.deep.equal([
          lineFirstX(own, 0, NO_TIMES),
          lineLastX(own, 0, capacity, NO_TIMES),
          lineLastY(own, 0, capacity, NO_TIMES),
        ]);
      }),
      { numRuns: 30 },
    );
  });
});
