import { expect } from 'chai';
import fc from 'fast-check';
import { ERROR_BLOCK, errorBlockStride, errorBlocksSize, errorNextAt, errorPush, errorStats } from '../../../api-server/src/analysis/ensemble/error-slots.js';
import { ariNewestDiff, ariUpdate, hwSeasonNextAt, hwUpdate, madUpdate } from '../../../api-server/src/analysis/ensemble/models.js';
import { ARI_LAST, BURST_LINE, BURST_POINTS, STABLE_LINE, STABLE_POINTS, STAGES, WIDE, layoutOf, newSeriesMemory, positionsView, timeElementOf } from '../../../api-server/src/analysis/ensemble/series-memory.js';
import type { SeriesEnsemble } from '../../../api-server/src/analysis/ensemble/series-ensemble.js';
import { lineXBase } from '../../../api-server/src/analysis/regression/line-times.js';
import { SORTED_META, sortedAt, sortedMedian, sortedMedianAbsDeviation, sortedMiddleAt, sortedNextRingAt, sortedPush, sortedUseFloats } from '../../../api-server/src/analysis/ensemble/sorted-slots.js';
import { floatFromHalves } from '../../../api-server/src/analysis/packed/sixteen-bit.js';
import { NO_TIMES, lineNextPointAt, linePush, lineRegion } from '../../../api-server/src/analysis/regression/line-slots.js';
import { SeriesSet } from '../../../api-server/src/analysis/series/series-set.js';
import { AnalysisCoreImpl } from '../../../api-server/src/analysis/analysis-core.js';
import type { WorkloadAnalyzer } from '../../../api-server/src/analysis/workload-analyzer.js';
import { bucketTelemetry } from '../analysis/workload-generator.js';

const finite = fc.double({ min: -1e6, max: 1e6, noNaN: true });

// Group prefetching (SeriesSet.prefetch) reads the elements these helpers name before the next
// observe: each must be where that observe then writes, or the prefetch reads the wrong lines.
describe('prefetch: the next element of each window is where the next push writes', () => {
  it('line: lineNextPointAt holds the pushed x and y, while filling and once full (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(fc.tuple(finite, finite), { minLength: 1, maxLength: 60, size: 'max' }), (capacity, points) => {
        const d = new Float64Array(3 + lineRegion(capacity));
        const at = 3;
        for (const [x, y] of points) {
          const next = lineNextPointAt(d, at, capacity);
          linePush(d, at, capacity, x, y, NO_TIMES);
          expect(d[next]).to.equal(x);
          expect(d[next + 1]).to.equal(y);
        }
      }),
    );
  });

  it('sorted window: sortedNextRingAt holds the pushed value; sortedMiddleAt names the median rank (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(finite, { minLength: 1, maxLength: 60, size: 'max' }), (capacity, values) => {
        const meta = 0;
        const ring = SORTED_META;
        const d = new Float64Array(ring + capacity);
        const p = new Uint16Array(capacity);
        const kept: number[] = [];
        for (const v of values) {
          const next = sortedNextRingAt(d, meta, ring, capacity);
          sortedPush(d, meta, ring, p, 0, capacity, v);
          kept.push(v);
          if (kept.length > capacity) kept.shift();
          expect(d[next]).to.equal(v);
          const n = d[meta + 1]!;
          const ascending = [...kept].sort((a, b) => a - b);
          expect(d[ring + p[sortedMiddleAt(d, meta, 0)]!]).to.equal(ascending[Math.floor(n / 2)]);
        }
      }),
    );
  });

  it('sorted window with a ring stride of 2: the same window, the elements between slots untouched (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(finite, { minLength: 1, maxLength: 60, size: 'max' }), (capacity, values) => {
        const ring = SORTED_META;
        const plain = new Float64Array(ring + capacity);
        const wide = new Float64Array(ring + 2 * capacity);
        const plainRanks = new Uint16Array(capacity);
        const wideRanks = new Uint16Array(capacity);
        // the elements a series keeps its sample times in
        for (let k = 0; k < capacity; k++) wide[ring + 2 * k + 1] = -k - 0.5;
        for (const v of values) {
          const next = sortedNextRingAt(wide, 0, ring, capacity, 2);
          expect(next).to.equal(ring + 2 * (sortedNextRingAt(plain, 0, ring, capacity) - ring));
          const left = sortedPush(wide, 0, ring, wideRanks, 0, capacity, v, 2);
          expect(Object.is(left, sortedPush(plain, 0, ring, plainRanks, 0, capacity, v))).to.equal(true);
          expect(wide[next]).to.equal(v);
          const n = plain[1]!;
          for (let k = 0; k < n; k++) expect(sortedAt(wide, 0, ring, wideRanks, capacity, k, 2)).to.equal(sortedAt(plain, 0, ring, plainRanks, capacity, k));
          // the same ranks, each a slot's offset: twice as far with a stride of 2
          expect(Array.from(wideRanks.subarray(0, n))).to.deep.equal(Array.from(plainRanks.subarray(0, n), (at) => 2 * at));
          for (let k = 0; k < capacity; k++) expect(wide[ring + 2 * k + 1]).to.equal(-k - 0.5);
        }
      }),
    );
  });

  it('sorted window of floats: the same window as of doubles for float values, in half the bytes (property)', () => {
    const floatValue = fc.float({ noNaN: true, noDefaultInfinity: true, min: Math.fround(-1e30), max: Math.fround(1e30) });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(floatValue, { minLength: 1, maxLength: 60, size: 'max' }), fc.double({ min: -1e30, max: 1e30, noNaN: true }), (capacity, values, center) => {
        const ring = SORTED_META;
        const plain = new Float64Array(ring + capacity);
        const plainRanks = new Uint16Array(capacity);
        // the floats after the scalars (float element 2 * ring on), the positions after them, in one memory
        const floatSlots = Math.ceil(capacity / 2);
        const memory = new Float64Array(ring + floatSlots + Math.ceil(capacity / 4));
        const halves = new Uint16Array(memory.buffer);
        const floatRing = 2 * ring;
        const sorted = 4 * (ring + floatSlots);
        sortedUseFloats(memory, 0, true);
        for (const v of values) {
          const next = sortedNextRingAt(memory, 0, floatRing, capacity);
          const left = sortedPush(memory, 0, floatRing, halves, sorted, capacity, v);
          expect(Object.is(left, sortedPush(plain, 0, ring, plainRanks, 0, capacity, v))).to.equal(true);
          expect(Object.is(floatFromHalves(halves, 2 * next), v)).to.equal(true);
          const n = plain[1]!;
          for (let k = 0; k < n; k++) expect(Object.is(sortedAt(memory, 0, floatRing, halves, capacity, k), sortedAt(plain, 0, ring, plainRanks, capacity, k))).to.equal(true);
          expect(sortedMedian(memory, 0, floatRing, halves, sorted)).to.equal(sortedMedian(plain, 0, ring, plainRanks, 0));
          expect(sortedMedianAbsDeviation(memory, 0, floatRing, halves, sorted, center)).to.equal(sortedMedianAbsDeviation(plain, 0, ring, plainRanks, 0, center));
          // ranks equal by value (equal values may be in another order)
          for (let k = 0; k < n; k++) expect(floatFromHalves(halves, 2 * (floatRing + halves[sorted + k]!))).to.equal(plain[ring + plainRanks[k]!]);
        }
      }),
    );
  });

  it('residual blocks: errorNextAt is the first element of the block the next push writes, past the ring of blocks', () => {
    const models = 3;
    // the points pushed and the closed blocks' sums from 0, the blocks after them
    const bl = errorStats(models);
    const d = new Float64Array(bl + errorBlocksSize(models, 240));
    const residuals = new Float64Array(models);
    for (let p = 0; p < 600; p++) {
      for (let m = 0; m < models; m++) residuals[m] = p * 10 + m + 0.5;
      const next = errorNextAt(d, 0, bl, models);
      const before = d.slice();
      errorPush(d, 0, bl, models, residuals);
      // model 0's count in that block (the low six bits of its counts): the points of the block so far
      expect((d[next] as number) % 64).to.equal((p % ERROR_BLOCK) + 1);
      // nothing else changed but the points pushed, that block and, when it starts, the closed blocks' sums
      const from = p % ERROR_BLOCK === 0 ? bl : 1;
      for (let i = from; i < d.length; i++) if (i < next || i >= next + errorBlockStride(models)) expect(d[i], `element ${i} at point ${p}`).to.equal(before[i]);
    }
  });

  it('models: ariNewestDiff is the newest difference, hwSeasonNextAt the season element the next update writes', () => {
    const d = newSeriesMemory(STAGES.length - 1);
    const u = positionsView(d);
    const layout = STAGES[STAGES.length - 1]!;
    let written = 0;
    for (let p = 0; p < 700; p++) {
      // the value window keeps floats (value-precision.ts): a series passes its values so rounded
      const y = Math.fround(10 + Math.sin(p / 7) * 3 + p * 0.013);
      const last = d[ARI_LAST]!;
      madUpdate(d, positionsView(d), layout, y);
      ariUpdate(d, positionsView(d), layout, y);
      expect(ariNewestDiff(d, positionsView(d), layout)).to.equal(p > 0 ? y - last : 0);
      const season = hwSeasonNextAt(d, layout);
      const before = Uint16Array.from(u);
      hwUpdate(d, u, layout, y);
      // the update writes that element (the first season's last point rewrites them all; the
      // first point is the first season's origin, so its element stays +0)
      if (p !== 239 && p !== 0) {
        for (let i = layout.season; i < layout.season + 240; i++) if (i !== season) expect(u[i], `season element ${i} at point ${p}`).to.equal(before[i]);
        // a bfloat16 keeps its value when the update moves it by less than half its step
        if (u[season] !== before[season]) written += 1;
      }
    }
    expect(written).to.be.above(600);
  });
});

describe("prefetch: a full line's next point is its oldest, and timeElementOf names that point's time", () => {
  // touchNextPoint and touchDetectorLines read the time of the point a full line removes next
  const lineOldest = (e: SeriesEnsemble, line: number, capacity: number): [number, number] => {
    const d = e.memory;
    const layout = layoutOf(d);
    const at = lineNextPointAt(d, line, capacity);
    const t = timeElementOf(layout, at);
    const offset = layout.timeHalves === 1 ? e.positions[t]! : e.positions[t]! + 65_536 * e.positions[t + 1]!;
    // the value: a float of the memory (its element `at`, read through its halves)
    return [lineXBase(d, line) + offset, floatFromHalves(e.positions, 2 * at)];
  };

  it('the stable and burst lines, 16-bit offsets through a rebase and 32-bit ones after a gap (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 241, max: 700 }), fc.constantFrom(0, 61_000, 100_000), fc.integer({ min: 1, max: 1_000 }), (n, gap, seed) => {
        // a series set observes the ensemble and its detectors, which keep the burst line
        const set = new SeriesSet(32);
        const xs: number[] = [];
        const ys: number[] = [];
        for (let i = 0; i < n; i++) {
          // a gap after the first point: past 65 536 s the window needs 32-bit offsets (TIMES32)
          const x = 15 * i + (i > 0 ? gap : 0);
          const y = Math.sin(i * seed) * 100 + i;
          set.observe('cpu', y, x);
          xs.push(x);
          ys.push(Math.fround(y));
        }
        const e = set.ensemble('cpu')!;
        // the gap of 100 000 s is inside the window only while its first point is
        expect(layoutOf(e.memory).timeHalves).to.equal(gap === 100_000 ? 2 : 1);
        expect(lineOldest(e, STABLE_LINE, STABLE_POINTS)).to.deep.equal([xs[n - STABLE_POINTS], ys[n - STABLE_POINTS]]);
        expect(lineOldest(e, BURST_LINE, BURST_POINTS)).to.deep.equal([xs[n - BURST_POINTS], ys[n - BURST_POINTS]]);
      }),
    );
  });

  it('is -1 in the WIDE stage, whose times are beside their values', () => {
    expect(timeElementOf(layoutOf(newSeriesMemory(WIDE)), 0)).to.equal(-1);
  });
});

describe('prefetch changes nothing', () => {
  it('a series set prefetched before every step gives the same points and state as one that is not (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.oneof(finite, fc.constantFrom(0, 1, Number.NaN)), { minLength: 3, maxLength: 3 }), { minLength: 20, maxLength: 400, size: 'max' }), (steps) => {
        const names = ['cpu', 'mem', 'health_score'];
        const plain = new SeriesSet(32);
        const touched = new SeriesSet(32);
        for (let s = 0; s < steps.length; s++) {
          const at = 1_700_000_000 + s * 15;
          const values = steps[s]!;
          touched.prefetch(at);
          touched.prefetchContexts(names, values, names.length);
          for (let k = 0; k < names.length; k++) {
            expect(touched.observe(names[k]!, values[k]!, s * 15, at)).to.deep.equal(plain.observe(names[k]!, values[k]!, s * 15, at));
          }
        }
        expect(touched.toJSON()).to.deep.equal(plain.toJSON());
      }),
      { numRuns: 30 },
    );
  });
});

describe('prefetch a workload ahead (WorkloadAnalyzer.touchAhead)', () => {
  it('touching every workload between steps changes no output and no state', () => {
    const ORIGIN = 1_700_000_000_000 - (1_700_000_000_000 % 15_000);
    const ids = (): (() => string) => {
      let n = 0;
      return () => (n++).toString(16).padStart(12, '0');
    };
    const plain = new AnalysisCoreImpl({ newHexId: ids() });
    const touched = new AnalysisCoreImpl({ newHexId: ids() });
    const keys = ['a/Deployment/steady', 'a/Deployment/rupturing', 'b/StatefulSet/pods'];
    const analyzers = (touched as unknown as { workloads: Map<string, WorkloadAnalyzer> }).workloads;
    for (let b = 0; b < 160; b++) {
      for (const core of [plain, touched]) {
        for (const [w, key] of keys.entries()) {
          const t = bucketTelemetry({ key, withLogs: w === 1, withTraces: w === 1, ruptureFromBucket: w === 1 ? 110 : undefined }, b, ORIGIN);
          // the third workload's samples come from two pods
          t.metrics.forEach((m, i) => core.observeMetric(w === 2 ? { ...m, pod: `p${i % 2}` } : m));
          t.logs.forEach((l) => core.observeLog(l));
          t.spans.forEach((s) => core.observeSpan(s));
        }
      }
      for (const w of analyzers.values()) w.touchAhead();
      const stepMs = ORIGIN + (b + 1) * 15_000 + 1;
      expect(touched.step(stepMs)).to.deep.equal(plain.step(stepMs));
    }
    for (const key of keys) expect(touched.exportWorkload(key)).to.deep.equal(plain.exportWorkload(key));
  });
});
