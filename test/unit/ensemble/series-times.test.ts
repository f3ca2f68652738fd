import { expect } from 'chai';
import fc from 'fast-check';
import { SeriesEnsemble } from '../../../api-server/src/analysis/ensemble/series-ensemble.js';
import { BURST_POINTS, STABLE_LINE, STAGES, TIMES32, VALUE_POINTS, WIDE, layoutOf } from '../../../api-server/src/analysis/ensemble/series-memory.js';
import { lineXBase } from '../../../api-server/src/analysis/regression/line-times.js';
import { burstLineOf, detectPoint, seriesBurstSlopeStdError, seriesBurstSpan } from '../../../api-server/src/analysis/anomaly/series-detectors.js';
import { allocateNovelty, releaseNovelty } from '../../../api-server/src/analysis/anomaly/novelty-score.js';

const INT32_MAX = 2 ** 31 - 1;

function stageOf(e: SeriesEnsemble): number {
  return e.memory[1] as number;
}

/** the times as stored: the offsets of slots [0, n) (16-bit, or two 16-bit halves each, low first) and the base */
function stored(e: SeriesEnsemble, n: number): { base: number; offsets: number[] } {
  const { times: at, timeHalves } = layoutOf(e.memory);
  const u = e.positions;
  const offsets: number[] = [];
  for (let k = 0; k < n; k += 1) offsets.push(timeHalves === 1 ? (u[at + k] as number) : (u[at + 2 * k] as number) | ((u[at + 2 * k + 1] as number) << 16));
  return { base: lineXBase(e.memory, STABLE_LINE), offsets };
}

/** the times toJSON gives back, oldest first */
function timesOf(e: SeriesEnsemble): number[] {
  return e.toJSON().points.map(([x]) => x);
}

describe('the sample times of the value window as 16- or 32-bit offsets from a base (series-memory.ts)', () => {
  it('the times of the service (seconds since the first step, 15 s apart) are their own offsets from base 0: hand-checked', () => {
    const e = new SeriesEnsemble();
    [0, 15, 30, 45].forEach((x, i) => e.observe(i + 0.5, x));
    expect(stored(e, 4)).to.deep.equal({ base: 0, offsets: [0, 15, 30, 45] });
    // 2 bytes a time: the 16-point stage's 16 times take 4 doubles, after the 16 values (floats: 8 doubles)
    const layout = layoutOf(e.memory);
    expect(layout.regions[2]).to.deep.equal([layout.valueRing / 2 + 8, 4]);
    expect(layout.times).to.equal(4 * (layout.valueRing / 2 + 8));
    expect(e.positions[layout.times + 3]).to.equal(45);
    expect(timesOf(e)).to.deep.equal([0, 15, 30, 45]);
  });

  it('a window spanning 65 536 s or more: the base moves to its oldest time while 16 bits hold it, else 32-bit offsets for good: hand-checked', () => {
    // 4 370 points 15 s apart: the 4 370th, 65 550 s, is past 16 bits from base 0; the window's
    // oldest then is point 4 070's, 61 050 s, and 65 550 is 4 500 from it
    const e = new SeriesEnsemble();
    for (let i = 0; i < 4370; i += 1) e.observe(i % 7, 15 * i);
    expect(lineXBase(e.memory, STABLE_LINE)).to.equal(0);
    e.observe(1, 65_550);
    expect(stageOf(e)).to.equal(STAGES.length - 1);
    expect(lineXBase(e.memory, STABLE_LINE)).to.equal(61_050);
    expect(Math.max(...stored(e, VALUE_POINTS).offsets)).to.equal(4500);
    expect(timesOf(e)).to.deep.equal(Array.from({ length: VALUE_POINTS }, (_, k) => 15 * (4071 + k)));
    // a gap of 65 521 s inside the window: no base holds 0 and 65 550 in 16 bits
    const gap = new SeriesEnsemble();
    [0, 15, 30, 65_550].forEach((x, i) => gap.observe(i, x));
    expect(stageOf(gap)).to.equal(TIMES32);
    expect(stored(gap, 4)).to.deep.equal({ base: 0, offsets: [0, 15, 30, 65_550] });
    expect(timesOf(gap)).to.deep.equal([0, 15, 30, 65_550]);
    // 600 bytes more than the 300-point stage: 300 offsets of 32 bits, not 16
    expect(gap.memory.length * 8 - STAGES[1]!.size * 8).to.equal(600);
  });

  it('a first time past 2^31 (epoch milliseconds) moves the base to it; later times are offsets from there: hand-checked', () => {
    const e = new SeriesEnsemble();
    const t0 = 1_767_225_600_000; // 2026-01-01 in ms
    [t0, t0 + 15_000, t0 + 30_000].forEach((x, i) => e.observe(i, x));
    expect(stored(e, 3)).to.deep.equal({ base: t0, offsets: [0, 15_000, 30_000] });
    expect(timesOf(e)).to.deep.equal([t0, t0 + 15_000, t0 + 30_000]);
    expect(stageOf(e)).to.equal(0);
  });

  it('32-bit offsets: an offset leaving int32 after a long life rebases every stored time: hand-checked', () => {
    const e = new SeriesEnsemble(TIMES32);
    const near = INT32_MAX - 7; // 2 147 483 640: still an offset from base 0
    e.observe(1, near - 15);
    e.observe(2, near);
    expect(stored(e, 2)).to.deep.equal({ base: 0, offsets: [near - 15, near] });
    // 2 147 483 655 - 0 is past int32: the base moves to it, the stored times become -30 and -15 from it
    e.observe(3, near + 15);
    expect(stored(e, 3)).to.deep.equal({ base: near + 15, offsets: [-30, -15, 0] });
    const at = layoutOf(e.memory).times;
    expect([e.positions[at], e.positions[at + 1]]).to.deep.equal([0x10000 - 30, 0xffff]);
    expect(timesOf(e)).to.deep.equal([near - 15, near, near + 15]);
    expect(stageOf(e)).to.equal(TIMES32);
  });

  it('a jump back of more than 2^31 with the window still spanning it, a fractional time or -0: the WIDE stage, times as doubles: hand-checked', () => {
    // a far-past time: 3e9 s before the stored ones, no base fits both
    const jump = new SeriesEnsemble();
    jump.observe(1, 0);
    jump.observe(2, 15);
    jump.observe(3, -3e9);
    expect(stageOf(jump)).to.equal(WIDE);
    expect(timesOf(jump)).to.deep.equal([0, 15, -3e9]);
    // 0.5 is the base plus 0 (the first point moves the base to it), 1.5 the base plus 1; 1.75 fits no base with 0.5
    const half = new SeriesEnsemble();
    half.observe(1, 0.5);
    half.observe(2, 1.5);
    expect(stored(half, 2)).to.deep.equal({ base: 0.5, offsets: [0, 1] });
    half.observe(3, 1.75);
    expect(stageOf(half)).to.equal(WIDE);
    expect(layoutOf(half.memory).times).to.equal(-1);
    expect(timesOf(half)).to.deep.equal([0.5, 1.5, 1.75]);
    // -0 is not +0 + 0: stored as a double, its sign kept
    const zero = new SeriesEnsemble();
    zero.observe(1, -0);
    expect(stageOf(zero)).to.equal(WIDE);
    expect(Object.is(timesOf(zero)[0], -0)).to.equal(true);
    // the WIDE stage is as large as the 300-point stage plus 3 000 bytes (the times and values as doubles, not 16-bit offsets and floats)
    expect(jump.memory.length * 8 - (STAGES[1]!.size * 8)).to.equal(3000);
  });

  it('reads every time back exactly and behaves bit for bit as a series with double times (WIDE), through rebases and widening (property)', () => {
    const step = fc.oneof(
      { weight: 20, arbitrary: fc.constant(15) },
      { weight: 2, arbitrary: fc.integer({ min: 30_000, max: 70_000 }) },
      { weight: 2, arbitrary: fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }) },
      { weight: 1, arbitrary: fc.constantFrom(2 ** 31, -(2 ** 31), 3e9, 0) },
      { weight: 1, arbitrary: fc.double({ min: -100, max: 100, noNaN: true }) },
    );
    const start = fc.oneof(
      fc.constantFrom(0, 1_767_225_600, 1_767_225_600_000, INT32_MAX - 300, -(2 ** 31)),
      fc.integer({ min: INT32_MAX - 15 * 400, max: INT32_MAX }),
      fc.double({ min: -1e12, max: 1e12, noNaN: true }),
    );
    fc.assert(
      fc.property(start, fc.array(step, { minLength: 1, maxLength: 800, size: 'max' }), fc.array(fc.float({ min: Math.fround(-1e3), max: Math.fround(1e3), noNaN: true }), { minLength: 1, maxLength: 50, size: 'max' }), (x0, steps, values) => {
        // float values: what the narrow series keeps of them is exactly what the WIDE one keeps
        const narrow = new SeriesEnsemble();
        const wide = new SeriesEnsemble(WIDE);
        const noveltyA = allocateNovelty();
        const noveltyB = allocateNovelty();
        try {
          const fed: number[] = [];
          let x = x0;
          steps.forEach((dx, i) => {
            x += dx;
            const y = i % 11 === 0 ? 0 : (values[i % values.length] as number);
            fed.push(x);
            expect(Object.is(narrow.observe(y, x), wide.observe(y, x))).to.equal(true, `prediction at ${i}`);
            expect(detectPoint(narrow, noveltyA, y, x, x)).to.deep.equal(detectPoint(wide, noveltyB, y, x, x), `firings at ${i}`);
            if (i % 97 === 0) {
              expect(narrow.forecast(30)).to.deep.equal(wide.forecast(30));
              expect(narrow.stableLine.toJSON()).to.deep.equal(wide.stableLine.toJSON());
            }
            // the burst line's points are the last 20 of the same rings: its x base follows each rebase
            expect(seriesBurstSpan(narrow)).to.equal(seriesBurstSpan(wide), `burst span at ${i}`);
            expect(Object.is(seriesBurstSlopeStdError(narrow), seriesBurstSlopeStdError(wide))).to.equal(true, `burst slope error at ${i}`);
          });
          // the last 300 times, bit for bit (Object.is in deep.equal: -0 is not 0)
          const times = timesOf(narrow);
          expect(times).to.deep.equal(fed.slice(-VALUE_POINTS));
          times.forEach((t, k) => expect(Object.is(t, fed[fed.length - times.length + k])).to.equal(true));
          expect(narrow.toJSON().points).to.deep.equal(wide.toJSON().points);
          expect(narrow.stableLine.toJSON()).to.deep.equal(wide.stableLine.toJSON());
          const burst = burstLineOf(narrow).toJSON();
          expect(burst).to.deep.equal(burstLineOf(wide).toJSON());
          expect(burst.xs).to.deep.equal(fed.slice(-BURST_POINTS));
        } finally {
          releaseNovelty(noveltyA);
          releaseNovelty(noveltyB);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('integer times stay 16-bit offsets while the window spans less than 65 536 s, the base moving to its oldest time when needed, then 32-bit (property against a model)', () => {
    let runsRebased = 0;
    let runsWidened = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2_000_000_000 }),
        fc.array(fc.oneof({ weight: 40, arbitrary: fc.constant(15) }, { weight: 1, arbitrary: fc.integer({ min: -70_000, max: 70_000 }) }), { minLength: 1, maxLength: 900, size: 'max' }),
        (x0, steps) => {
          const e = new SeriesEnsemble();
          // the model: base 0; a time whose offset is not 0..65 535 moves the base to the smallest
          // of it and the window's times when all are within 65 535 of it, else 32 bits for good
          let base = 0;
          let narrow = true;
          let rebases = 0;
          const fed: number[] = [];
          let x = x0;
          steps.forEach((dx, i) => {
            x += dx;
            const fits = (v: number, b: number): boolean => v - b >= 0 && v - b <= 0xffff;
            if (narrow && !fits(x, base)) {
              const window = [x, ...fed.slice(-VALUE_POINTS)];
              const oldest = Math.min(...window);
              if (window.every((v) => fits(v, oldest))) {
                base = oldest;
                rebases += 1;
              } else narrow = false;
            }
            fed.push(x);
            e.observe(i % 5, x);
            expect(stageOf(e) < TIMES32).to.equal(narrow, `16-bit at ${i}`);
            if (narrow) expect(lineXBase(e.memory, STABLE_LINE)).to.equal(base);
          });
          expect(timesOf(e)).to.deep.equal(fed.slice(-VALUE_POINTS));
          if (rebases > 1) runsRebased += 1;
          if (!narrow) runsWidened += 1;
        },
      ),
      { numRuns: 80 },
    );
    // a jump of more than 65 535 - the window's span rebases or widens: both happen
    expect(runsRebased).to.be.greaterThan(10);
    expect(runsWidened).to.be.greaterThan(10);
  });

  it('32-bit offsets: integer times stay exact while each new time is within int32 of every stored one, rebasing when needed (property against a model)', () => {
    let runsRebased = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: INT32_MAX - 15 * 400, max: INT32_MAX }),
        fc.array(fc.oneof({ weight: 30, arbitrary: fc.constant(15) }, { weight: 1, arbitrary: fc.integer({ min: -1_500_000_000, max: 1_500_000_000 }) }), { minLength: 1, maxLength: 700, size: 'max' }),
        (x0, steps) => {
          const e = new SeriesEnsemble(TIMES32);
          // the model: base 0; a time whose offset is not int32 moves the base to it when every stored time is within int32 of it, else WIDE for good
          let base = 0;
          let wide = false;
          let rebases = 0;
          const fed: number[] = [];
          let x = x0;
          steps.forEach((dx, i) => {
            x += dx;
            const fits = (v: number, b: number): boolean => v - b >= -(2 ** 31) && v - b <= INT32_MAX;
            if (!wide && !fits(x, base)) {
              if (fed.slice(-VALUE_POINTS).every((v) => fits(v, x))) {
                base = x;
                rebases += 1;
              } else wide = true;
            }
            fed.push(x);
            e.observe(i % 5, x);
            expect(stageOf(e) === WIDE).to.equal(wide, `stage at ${i}`);
            if (!wide) expect(lineXBase(e.memory, STABLE_LINE)).to.equal(base);
          });
          expect(timesOf(e)).to.deep.equal(fed.slice(-VALUE_POINTS));
          if (rebases > 0) runsRebased += 1;
        },
      ),
      { numRuns: 80 },
    );
    // the runs start within 6 000 s below 2^31 and mostly step 15 s: most leave int32's range from base 0
    expect(runsRebased).to.be.greaterThan(20);
  });
});
