import { expect } from 'chai';
import fc from 'fast-check';
import { SeriesEnsemble } from '../../../api-server/src/analysis/ensemble/series-ensemble.js';
import { detectPoint, type Firing } from '../../../api-server/src/analysis/anomaly/series-detectors.js';
import { allocateNovelty, noveltyToJSON, releaseNovelty } from '../../../api-server/src/analysis/anomaly/novelty-score.js';
import { errorBlocksSize, errorPush, errorPushZeros, errorStats } from '../../../api-server/src/analysis/ensemble/error-slots.js';
import { ariUpdate, ariUpdateAtZero, hwUpdate, hwUpdateAtZero, madUpdate } from '../../../api-server/src/analysis/ensemble/models.js';
import {
  ARI_DIFFS,
  ARI_LAST,
  ARI_SINCE_FIT,
  HW_N,
  ONE_STEP,
  RES_ZERO_RUN,
  SEASON,
  STAGES,
  VALUE_POINTS,
  ZERO_RUN,
  newSeriesMemory,
  positionsView,
} from '../../../api-server/src/analysis/ensemble/series-memory.js';
import { SORTED_META, sortedMedianAbsDeviation, sortedPush, sortedZeroDeviation } from '../../../api-server/src/analysis/ensemble/sorted-slots.js';

const STEP_SECONDS = 15;
const AT = 1_700_000_000;

/** a series as SeriesSet runs it: the ensemble, then the detectors and the novelty score on the same point */
class Series {
  readonly ensemble = new SeriesEnsemble();
  readonly novelty = allocateNovelty();
  zeroPoints = 0;

  constructor(private readonly forget: boolean) {}

  observe(y: number, k: number): { prediction: number | null; firings: readonly Firing[] } {
    if (this.forget) this.ensemble.forgetZeroRuns();
    if (Object.is(y, 0) && (this.ensemble.memory[ZERO_RUN] as number) >= VALUE_POINTS) this.zeroPoints += 1;
    const prediction = this.ensemble.observe(y, k * STEP_SECONDS);
    const firings = detectPoint(this.ensemble, this.novelty, y, k * STEP_SECONDS, AT + k * STEP_SECONDS);
    return { prediction, firings: firings.map((f) => ({ ...f })) };
  }

  release(): void {
    releaseNovelty(this.novelty);
  }
}

/** every element of the two memories bit for bit (Object.is), the derived runs aside */
function expectSameMemory(a: Float64Array, b: Float64Array, point: number): void {
  expect(a.length, `memory size at point ${point}`).to.equal(b.length);
  for (let i = 0; i < a.length; i += 1) {
    if (i === ZERO_RUN || i === RES_ZERO_RUN) continue;
    if (!Object.is(a[i], b[i])) expect.fail(`element ${i} differs at point ${point}: ${a[i]} against ${b[i]}`);
  }
}

/** feeds `values` to a series taking the shortcuts and to one that forgets its runs before every point */
function compareRuns(values: readonly number[]): number {
  const fast = new Series(false);
  const full = new Series(true);
  try {
    values.forEach((y, k) => {
      const a = fast.observe(y, k);
      const b = full.observe(y, k);
      expect(Object.is(a.prediction, b.prediction), `prediction at point ${k}`).to.equal(true);
      expect(a.firings, `firings at point ${k}`).to.deep.equal(b.firings);
      expectSameMemory(fast.ensemble.memory, full.ensemble.memory, k);
    });
    expect(noveltyToJSON(fast.novelty)).to.deep.equal(noveltyToJSON(full.novelty));
    expect(full.zeroPoints).to.equal(0);
    return fast.zeroPoints;
  } finally {
    fast.release();
    full.release();
  }
}

const zeros = (n: number): number[] => new Array<number>(n).fill(0);

describe('zero fixed point: a series of +0 skips what it would not change', () => {
  it('a series that is +0 from its first point reaches the fixed point after a season and 300 points, and then skips', () => {
    const series = new Series(false);
    try {
      let firstShortcut = -1;
      for (let k = 0; k < 700; k += 1) {
        if (firstShortcut < 0 && (series.ensemble.memory[ZERO_RUN] as number) >= VALUE_POINTS) firstShortcut = k;
        series.observe(0, k);
      }
      // Holt-Winters forecasts once it has seen more than a season (from index 241 on); that point
      // and the next 299 are the 300 full updates that left the models at the fixed point (indices
      // 241-540); index 541 is the first to take the shortcut
      expect(firstShortcut).to.equal(SEASON + 1 + VALUE_POINTS);
      expect(series.zeroPoints).to.equal(700 - firstShortcut);
      const d = series.ensemble.memory;
      for (let m = 0; m < 5; m += 1) expect(Object.is(d[ONE_STEP + m], 0), `forecast ${m}`).to.equal(true);
      expect(d[RES_ZERO_RUN]).to.equal(200);
    } finally {
      series.release();
    }
  });

  it('leaves the fixed point on the first other value, -0 included, and counts again from there', () => {
    for (const other of [1, -1e-300, -0, 5e-324]) {
      const series = new Series(false);
      try {
        zeros(700).forEach((y, k) => series.observe(y, k));
        expect(series.ensemble.memory[ZERO_RUN]).to.equal(VALUE_POINTS);
        series.observe(other, 700);
        expect(series.ensemble.memory[ZERO_RUN], String(other)).to.equal(0);
      } finally {
        series.release();
      }
    }
  });

  it('gives the same outputs and the same state, bit for bit, as the full update at every point: zeros from the start, then a spike', () => {
    const values = [...zeros(900), 0.25, ...zeros(700), 3, 3, 3, ...zeros(600)];
    // indices 541-899 take the shortcut; after the spike the models decay towards +0 without
    // reaching it exactly within these points (Holt-Winters' season keeps a trace of it)
    expect(compareRuns(values)).to.equal(900 - (SEASON + 1 + VALUE_POINTS));
  });

  it('gives the same outputs and the same state, bit for bit, as the full update at every point: a level that falls to +0 and stays', () => {
    const values = [...Array.from({ length: 400 }, (_, k) => 0.3 + 0.1 * Math.sin(k / 5)), ...zeros(1500)];
    // the models reach +0 only when the level and the season have decayed to it exactly (they may never)
    compareRuns(values);
  });

  it('gives the same outputs and the same state, bit for bit, as the full update at every point (property: runs of +0 between other values)', () => {
    const other = fc.oneof(fc.double({ min: -1e3, max: 1e3, noNaN: true }), fc.constantFrom(-0, 5e-324, -5e-324, 1e-300));
    const segment = fc.oneof(fc.integer({ min: 0, max: 800 }).map(zeros), fc.array(other, { minLength: 1, maxLength: 5 }));
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 6 }), (segments) => {
        compareRuns([...zeros(560), ...segments.flat()]);
      }),
      { numRuns: 25 },
    );
  });
});

describe('zero fixed point: each shortcut against the update it replaces', () => {
  it('errorPushZeros: the same blocks as errorPush of +0 residuals once the block in progress holds +0 only, a new block included', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: 0, maxLength: 20, size: 'max' }), fc.integer({ min: 0, max: 2000 }), (before, zeroPoints) => {
        const models = 5;
        const st = 0;
        const bl = errorStats(models);
        const d = new Float64Array(bl + errorBlocksSize(models, 240));
        const residuals = new Float64Array(models);
        for (const v of before) {
          residuals.fill(v);
          errorPush(d, st, bl, models, residuals);
        }
        // 300 points of +0 (the fixed point's run, zero-point.ts) and then some
        residuals.fill(0);
        for (let k = 0; k < 300 + zeroPoints; k += 1) errorPush(d, st, bl, models, residuals);
        for (let k = 0; k < 25; k += 1) {
          const full = d.slice();
          errorPush(full, st, bl, models, residuals);
          errorPushZeros(d, st, bl, models);
          for (let i = 0; i < d.length; i += 1) expect(Object.is(d[i], full[i]), `element ${i}`).to.equal(true);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('ariUpdateAtZero and hwUpdateAtZero: the state ariUpdate and hwUpdate leave at the fixed point, a refit due included', () => {
    const layout = STAGES[STAGES.length - 1]!;
    const d = newSeriesMemory(STAGES.length - 1);
    for (let k = 0; k < SEASON + 2 * ARI_DIFFS; k += 1) {
      madUpdate(d, positionsView(d), layout, 0);
      ariUpdate(d, positionsView(d), layout, 0);
      hwUpdate(d, positionsView(d), layout, 0);
    }
    for (let k = 0; k < 25; k += 1) {
      // the value window takes the +0 in both (the window's update is not ARI's)
      madUpdate(d, positionsView(d), layout, 0);
      const full = d.slice();
      ariUpdate(full, positionsView(full), layout, 0);
      hwUpdate(full, positionsView(full), layout, 0);
      ariUpdateAtZero(d);
      hwUpdateAtZero(d);
      for (let i = 0; i < d.length; i += 1) expect(Object.is(d[i], full[i]), `element ${i} after ${k}`).to.equal(true);
    }
    expect(d[ARI_LAST]).to.equal(0);
    expect(d[HW_N]).to.equal(SEASON + 2 * ARI_DIFFS + 25);
    expect(d[ARI_SINCE_FIT]).to.be.below(10);
  });

  it('sortedZeroDeviation: the value and the search hint of sortedMedianAbsDeviation about +0 of a window of +0, for any count and hint', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: -5, max: 60 }), (count, hint) => {
        const meta = 0;
        const ring = SORTED_META;
        const d = new Float64Array(ring + count);
        const p = new Uint16Array(count);
        for (let k = 0; k < count; k += 1) sortedPush(d, meta, ring, p, 0, count, 0);
        d[meta + 2] = hint;
        const full = d.slice();
        const expected = sortedMedianAbsDeviation(full, meta, ring, p, 0, 0);
        expect(Object.is(sortedZeroDeviation(d, meta), expected)).to.equal(true);
        for (let i = 0; i < d.length; i += 1) expect(Object.is(d[i], full[i]), `element ${i}`).to.equal(true);
      }),
    );
  });
});
