import { expect } from 'chai';
import fc from 'fast-check';
import type { InputTrend } from '../../../api-server/src/analysis/explain/diagnosis.js';
import { theilSenSlope } from '../../../api-server/src/analysis/explain/failure-eta.js';
import { BLOCK_MS, LONG_MS, LevelHistory } from '../../../api-server/src/analysis/explain/level-history.js';

/**
 * The level history as it was before its blocks went into one array of doubles (an object of four
 * numbers a block), kept as the reference the array must reproduce bit for bit.
 */
class BlockObjectsHistory {
  private readonly blocks: { startMs: number; sum: number; sumT: number; n: number }[] = [];

  observe(value: number, nowMs: number): void {
    if (!Number.isFinite(value) || !Number.isFinite(nowMs)) return;
    const startMs = Math.floor(nowMs / BLOCK_MS) * BLOCK_MS;
    const last = this.blocks[this.blocks.length - 1];
    if (last !== undefined && startMs < last.startMs) return;
    if (last !== undefined && last.startMs === startMs) {
      last.sum += value;
      last.sumT += nowMs;
      last.n += 1;
    } else {
      this.blocks.push({ startMs, sum: value, sumT: nowMs, n: 1 });
    }
    while (this.blocks.length > 0 && this.blocks[0]!.startMs < startMs - LONG_MS) this.blocks.shift();
  }

  trend(input: string, nowMs: number): InputTrend | null {
    const mean = (b: { sum: number; n: number }): number => b.sum / b.n;
    const full = this.blocks.filter((b) => b.n >= 20 && b.startMs >= nowMs - LONG_MS - BLOCK_MS);
    if (full.length < 2) return null;
    let at = 0;
    for (let i = 1; i < full.length; i++) if (mean(full[i]!) < mean(full[at]!)) at = i;
    const last = full.length - 1;
    if (at === last) return null;
    const low = mean(full[at]!);
    const near = low + 0.2 * (mean(full[last]!) - low);
    let knee = at;
    for (let i = at + 1; i < last; i++) if (mean(full[i]!) <= near) knee = i;
    const climb = full.slice(knee);
    const xs = climb.map((b) => b.sumT / b.n / 1000);
    const ys = climb.map(mean);
    const slope = climb.length >= 3 ? theilSenSlope(xs, ys) : (ys[1]! - ys[0]!) / (xs[1]! - xs[0]!);
    const offsets = ys.map((y, i) => y - slope * xs[i]!).sort((a, b) => a - b);
    const m = offsets.length >> 1;
    const intercept = offsets.length % 2 === 1 ? offsets[m]! : (offsets[m - 1]! + offsets[m]!) / 2;
    const to = intercept + slope * (nowMs / 1000);
    const newest = this.blocks[this.blocks.length - 1]!;
    const recent = newest.n >= 4 ? mean(newest) : mean(full[last]!);
    if (recent < low + (to - low) / 2) return null;
    const span = nowMs / 1000 - full[at]!.sumT / full[at]!.n / 1000;
    return { input, from: low, to, spanSeconds: span, slopePerSecond: span > 0 ? (to - low) / span : 0, burstSlopePerSecond: 0, robustSlopePerSecond: slope };
  }
}

/** a step of the history: the gap since the last one (s), the value's shape, and whether to read the trend after it */
const step = fc.record({
  gapSeconds: fc.oneof({ weight: 20, arbitrary: fc.constant(15) }, { weight: 1, arbitrary: fc.integer({ min: -1_800, max: 4 * 3_600 }) }),
  value: fc.oneof(
    { weight: 10, arbitrary: fc.double({ min: 0, max: 1, noNaN: true }) },
    { weight: 1, arbitrary: fc.constantFrom(Number.NaN, Infinity, -0, 0) },
  ),
  creep: fc.double({ min: -1e-5, max: 1e-4, noNaN: true }),
  read: fc.boolean(),
});

describe('level history: the blocks in one array of doubles', () => {
  it('observe and trend as the history of block objects, bit for bit, through gaps, times going back, non-finite values and the 6-h bound (property)', () => {
    // reads that found a trend: the property must compare trends, not only nulls
    let trends = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 100, maxLength: 3_000, size: 'max' }), fc.integer({ min: 0, max: 2 ** 40 }), (steps, startMs) => {
        const h = new LevelHistory();
        const ref = new BlockObjectsHistory();
        let t = startMs;
        let level = 0;
        for (const s of steps) {
          t += s.gapSeconds * 1000;
          level += s.creep * 15;
          const v = Number.isFinite(s.value) && s.value !== 0 ? level + 0.01 * s.value : s.value;
          h.observe(v, t);
          ref.observe(v, t);
          if (s.read) {
            const got = h.trend('error_rate', t);
            expect(got).to.deep.equal(ref.trend('error_rate', t));
            if (got !== null) trends += 1;
          }
        }
        expect(h.trend('error_rate', t)).to.deep.equal(ref.trend('error_rate', t));
      }),
      { numRuns: 150 },
    );
    expect(trends).to.be.above(1_000);
  });

  it('a creep of 7 hours: the trend of the newest 6 hours, equal to the reference (hand-checked bound: the oldest block kept starts at most 6 h before the newest)', () => {
    const h = new LevelHistory();
    const ref = new BlockObjectsHistory();
    let t = 0;
    for (; t < 7 * 3600_000; t += 15_000) {
      const v = 0.01 + (0.05 * t) / 3600_000;
      h.observe(v, t);
      ref.observe(v, t);
    }
    const got = h.trend('error_rate', t - 15_000)!;
    expect(got).to.deep.equal(ref.trend('error_rate', t - 15_000));
    // the newest block starts at 6:45; the oldest kept at 0:45 (6 h before); its mean, over 0:45-1:00, is 0.01 + 0.05 · 0.875 h
    expect(got.from).to.be.closeTo(0.01 + 0.05 * (0.75 + (0.25 * (60 - 1)) / 60 / 2), 1e-9);
  });
});
