import { expect } from 'chai';
import fc from 'fast-check';
import { TimedLevels } from '../../../api-server/src/analysis/decision/timed-levels.js';
import { climbPairsAt, DEFAULT_CLIMB, SaturationClimb, type ClimbConfig } from '../../../api-server/src/analysis/decision/saturation-climb.js';
import { fitLine } from '../../../api-server/src/analysis/decision/level-trend.js';
import type { Baseline } from '../../../api-server/src/analysis/decision/level-departure.js';

/** SaturationClimb as it was written over an array of [time, level] tuples (push, shift, a scan per mean) */
class ReferenceClimb {
  points: [number, number][] = [];
  last = false;
  constructor(private readonly config: ClimbConfig = DEFAULT_CLIMB) {}
  observe(level: number, timeMs: number, baseline: Baseline | null): boolean {
    const c = this.config;
    this.points.push([timeMs, level]);
    const oldest = timeMs - (c.means - 1) * c.lagMs - c.toleranceMs;
    while (this.points.length > 0 && this.points[0]![0] < oldest) this.points.shift();
    this.last = baseline !== null && this.judge(timeMs, baseline);
    return this.last;
  }
  private judge(timeMs: number, b: Baseline): boolean {
    const c = this.config;
    const means: number[] = [];
    for (let k = c.means - 1; k >= 0; k--) {
      const m = this.meanAt(timeMs - k * c.lagMs);
      if (m === null) return false;
      means.push(m);
    }
    const rises = means.slice(1).map((m, i) => m - means[i]!);
    if (Math.min(...rises) < Math.max(c.minRise, b.spread)) return false;
    if (Math.max(...rises) > c.evenness * Math.min(...rises)) return false;
    const level = means[means.length - 1]!;
    if (level - b.mean < Math.max(c.spreads * b.spread, c.material)) return false;
    const line = fitLine(means);
    const now = Math.max(level, line.end);
    const minutes = now >= c.ceiling ? 0 : ((c.ceiling - now) / line.slope) * (c.lagMs / 60_000);
    return minutes <= c.withinMin;
  }
  private meanAt(t: number): number | null {
    for (const [time, level] of this.points) if (Math.abs(time - t) <= this.config.toleranceMs) return level;
    return null;
  }
}

const MIN = 60_000;

describe('decision: TimedLevels, a ring of (time, level) pairs', () => {
  it('holds what an array of tuples with push and shift holds, through growth and wrap-around (fast-check)', () => {
    const op = fc.oneof(
      fc.tuple(fc.constant('push' as const), fc.oneof(fc.integer({ min: 0, max: 200 }), fc.constantFrom(Number.NaN, -0)), fc.double({ noNaN: false })),
      fc.tuple(fc.constant('drop' as const), fc.oneof(fc.integer({ min: 0, max: 200 }), fc.constant(Number.NaN)), fc.constant(0)),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300, size: 'max' }), fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 20 }), fc.integer({ min: 1, max: 40 }), (ops, t, tolerance, room) => {
        const ring = new TimedLevels(room);
        const model: [number, number][] = [];
        for (const [kind, time, level] of ops) {
          if (kind === 'push') {
            ring.push(time, level);
            model.push([time, level]);
          } else {
            ring.dropBefore(time);
            while (model.length > 0 && model[0]![0] < time) model.shift();
          }
          expect(ring.count).to.equal(model.length);
        }
        expect(ring.toPairs()).to.deep.equal(model);
        const first = model.findIndex(([time]) => Math.abs(time - t) <= tolerance);
        expect(ring.firstWithin(t, tolerance)).to.equal(first);
        if (first >= 0) expect(Object.is(ring.levelAt(first), model[first]![1])).to.equal(true);
      }),
      { numRuns: 400 },
    );
  });

  it('finds what the scan finds when the times come in order (its search), at any time and tolerance (fast-check)', () => {
    // non-decreasing times: steps of 15 s with jitter and repeats, from anywhere (large ones round
    // when a query's time is subtracted), sometimes an infinity at the end; drops between pushes
    const start = fc.oneof(fc.integer({ min: -1e6, max: 1e6 }), fc.double({ min: -1e300, max: 1e300, noNaN: true }), fc.constant(1.7e12));
    const gap = fc.oneof(fc.constant(0), fc.constant(15_000), fc.integer({ min: 0, max: 30_000 }), fc.double({ min: 0, max: 1e5, noNaN: true }));
    const query = fc.oneof(fc.double({ noNaN: false }), fc.integer({ min: -2, max: 40 }));
    fc.assert(
      fc.property(start, fc.array(fc.tuple(gap, fc.boolean()), { maxLength: 200, size: 'max' }), fc.boolean(), fc.array(fc.tuple(query, query, fc.double({ noNaN: false })), { maxLength: 20 }), (t0, steps, infinite, queries) => {
        const ring = new TimedLevels();
        const model: [number, number][] = [];
        let t = t0;
        for (const [g, drop] of steps) {
          t += g;
          ring.push(t, g);
          model.push([t, g]);
          if (drop) {
            const oldest = t - 5 * 15_000;
            ring.dropBefore(oldest);
            while (model.length > 0 && model[0]![0] < oldest) model.shift();
          }
        }
        if (infinite) {
          ring.push(Number.POSITIVE_INFINITY, 1);
          model.push([Number.POSITIVE_INFINITY, 1]);
        }
        // about each pair, and at its tolerance's two edges
        const probes: [number, number][] = model.flatMap(([time], k): [number, number][] => [
          [time + (k % 7) * 1_000 - 3_000, 7_500],
          [time + 7_500, 7_500],
          [time - 7_500, 7_500],
        ]);
        // a query as a step index of the model (its time, tolerance 0 or 7.5 s) or any double
        for (const [a, b, tol] of queries) {
          const at = (q: number) => (Number.isInteger(q) && q >= 0 && q < model.length ? model[q]![0] : q);
          probes.push([at(a), Math.abs(b) <= 40 ? 7_500 : tol], [at(a) + (Number.isFinite(b) ? b : 0), Math.abs(tol)]);
        }
        for (const [time, tolerance] of probes) {
          const first = model.findIndex(([x]) => Math.abs(x - time) <= tolerance);
          expect(ring.firstWithin(time, tolerance), `firstWithin(${time}, ${tolerance})`).to.equal(first);
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe('decision: the climb queue\'s room', () => {
  it('a queue starts with the room it is given, doubles when full, and refuses a room that is not a positive integer', () => {
    const q = new TimedLevels(3);
    expect(q.room).to.equal(3);
    for (let k = 0; k < 4; k++) q.push(k, k);
    expect([q.room, q.count]).to.deep.equal([6, 4]);
    expect(new TimedLevels().room).to.equal(16);
    expect(() => new TimedLevels(0)).to.throw(RangeError, /positive integer/);
    expect(() => new TimedLevels(2.5)).to.throw(RangeError, /positive integer/);
  });

  it('holds 82 pairs at 15-s steps (20 minutes and 7.5 s back, and the one pushed), and never grows', () => {
    // floor((4 · 300 000 + 7 500) / 15 000) + 2 = 80 + 2
    expect(climbPairsAt(DEFAULT_CLIMB, 15_000)).to.equal(82);
    const ring = new TimedLevels(climbPairsAt(DEFAULT_CLIMB, 15_000));
    const window = (DEFAULT_CLIMB.means - 1) * DEFAULT_CLIMB.lagMs + DEFAULT_CLIMB.toleranceMs;
    let most = 0;
    for (let step = 0; step < 600; step++) {
      const t = 1_700_000_000_000 + step * 15_000;
      ring.push(t, 0.3);
      most = Math.max(most, ring.count);
      ring.dropBefore(t - window);
    }
    expect(most).to.equal(82);
    expect(ring.room).to.equal(82);
  });
});

describe('decision: SaturationClimb over TimedLevels', () => {
  it('gives the verdicts and the state of the tuple-array version, steps jittered, gaps and baselines changing (fast-check)', () => {
    const step = fc.record({
      dtMs: fc.oneof(fc.constant(15_000), fc.integer({ min: 0, max: 40_000 }), fc.constant(6 * MIN)),
      level: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, -0, 0.95, 1)),
      rise: fc.double({ min: -0.01, max: 0.05, noNaN: true }),
      baseline: fc.option(fc.record({ mean: fc.double({ min: 0, max: 0.6, noNaN: true }), spread: fc.double({ min: 0, max: 0.05, noNaN: true }) }), { nil: null, freq: 4 }),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 400, size: 'max' }), fc.boolean(), (steps, climbing) => {
        const climb = new SaturationClimb();
        const reference = new ReferenceClimb();
        let t = 0;
        let level = 0.2;
        for (const s of steps) {
          t += s.dtMs;
          // a climbing input rises every step (so the five means can be a line), else it jumps about
          level = climbing ? level + s.rise / 20 : s.level;
          expect(climb.observe(level, t, s.baseline)).to.equal(reference.observe(level, t, s.baseline));
          expect(climb.verdict).to.equal(reference.last);
        }
        expect(climb.toJSON().points).to.deep.equal(reference.points);
      }),
      { numRuns: 300 },
    );
  });

  it('judges a steady climb of 15-s steps as the tuple-array version did, true verdicts included', () => {
    const climb = new SaturationClimb();
    const reference = new ReferenceClimb();
    const base = { mean: 0.2, spread: 0.01 };
    let trues = 0;
    for (let i = 0; i < 200; i++) {
      const level = 0.25 + 0.1 * (i / 20);
      const verdict = climb.observe(level, i * 15_000, base);
      expect(verdict).to.equal(reference.observe(level, i * 15_000, base));
      if (verdict) trues += 1;
    }
    expect(trues).to.be.greaterThan(0);
  });
});
