import { expect } from 'chai';
import fc from 'fast-check';
import {
  NOVELTY,
  NoveltyScore,
  allocateNovelty,
  noveltyExpertScores,
  noveltyFromJSON,
  noveltyToJSON,
  observeNovelty,
  releaseNovelty,
} from '../../../api-server/src/analysis/anomaly/novelty-score.js';
import { NOVELTY_FIRES_AT, SeriesDetectors } from '../../../api-server/src/analysis/anomaly/index.js';

const T0 = 1_700_000_000; // epoch seconds
const STEP = 15;

/** 0, 1, 0, 1, ...: range [0, 1], median 0.5, every |y - median| = 0.5 */
function square(score: NoveltyScore, points: number, from = 0): void {
  for (let i = from; i < from + points; i += 1) score.observe(i % 2, T0 + i * STEP, 0.5);
}

describe('novelty score (docs/nab.md)', () => {
  it('scores nothing during the 300-point warm-up, whatever the input', () => {
    const s = new NoveltyScore();
    for (let i = 0; i < NOVELTY.warmupPoints; i += 1) expect(s.observe(i === 299 ? 1e6 : i % 2, T0 + i * STEP, 0.5)).to.equal(0);
  });

  it('range expert: 0.2 of the range above the past maximum scores 0.2 / (0.2 + 0.1) = 2/3', () => {
    const s = new NoveltyScore();
    square(s, 400);
    const out = s.observe(1.2, T0 + 400 * STEP, 0.5);
    expect(s.expertScores().range).to.be.closeTo(2 / 3, 1e-12);
    expect(out).to.be.at.least(2 / 3);
    // inside the range the range expert is silent
    s.observe(0.5, T0 + 401 * STEP, 0.5);
    expect(s.expertScores().range).to.equal(0);
  });

  it('dispersion expert: a 12-point mean 13/12 of the past maximum scores 13/25', () => {
    const s = new NoveltyScore();
    square(s, 400); // every |y - median| = 0.5, so the 12-point mean and its decaying maximum are 0.5
    s.observe(1, T0 + 400 * STEP, 0); // |1 - 0| = 1: the mean becomes (11 × 0.5 + 1) / 12 = 13/24
    // e = (13/24) / 0.5 = 13/12, scored e / (1 + e) = 13/25
    expect(s.expertScores().dispersion).to.be.closeTo(13 / 25, 1e-8);
  });

  it('context expert: a transition never seen scores the 10-point mean of unseen fractions against its decayed maximum', () => {
    const s = new NoveltyScore();
    // 0, 1, 0, 1, ...: levels 0 and 3 of [0, 1]. The first contexts (from point 6) are all unseen,
    // at points 6 and 7 (the two phases), then every context is known: the 10-point mean peaks at
    // 1 - 0.9^2 = 0.19 at point 7 and decays towards 0; its maximum decays by 0.9998 per point.
    square(s, 400);
    expect(s.expertScores().context).to.be.below(1e-12);
    // 1 after 1: every context ending here (lengths 2 to 7) is new, so the mean becomes ~0.1
    s.observe(1, T0 + 400 * STEP, 0.5);
    const e = 0.1 / (0.19 * Math.pow(NOVELTY.historyDecay, 392));
    expect(s.expertScores().context).to.be.closeTo(e / (1 + e), 1e-6);
    expect(s.expertScores().range).to.equal(0); // inside the range: only the order is new
    // the next point repeats a context just learnt (1, 1 → 0 is new once; then the square resumes)
    s.observe(0, T0 + 401 * STEP, 0.5);
    s.observe(1, T0 + 402 * STEP, 0.5);
    s.observe(0, T0 + 403 * STEP, 0.5);
    const learnt = s.expertScores().context;
    square(s, 200, 404);
    expect(s.expertScores().context).to.be.below(learnt);
  });

  it('context expert through runs of one level: a score restored before every point (which looks every context up) scores as one that runs on (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            // a run of one value: its level repeats, and a level held for eight points makes the
            // next points of that level skip their lookups
            fc.tuple(fc.constantFrom(0, 1, 2, 3.5, 10), fc.integer({ min: 1, max: 40 })).map(([y, n]) => Array.from({ length: n }, () => y)),
            fc.array(fc.double({ min: -5, max: 15, noNaN: true }), { minLength: 1, maxLength: 8 }),
          ),
          { minLength: 40, maxLength: 80, size: 'max' },
        ),
        (segments) => {
          const ys = segments.flat();
          const running = allocateNovelty();
          let restored = allocateNovelty();
          try {
            ys.forEach((y, i) => {
              const t = T0 + i * STEP;
              const med = i % 5 === 0 ? NaN : 1;
              const next = noveltyFromJSON(noveltyToJSON(restored));
              releaseNovelty(restored);
              restored = next;
              expect(observeNovelty(restored, y, t, med)).to.equal(observeNovelty(running, y, t, med));
              expect(noveltyExpertScores(restored)).to.deep.equal(noveltyExpertScores(running));
            });
          } finally {
            releaseNovelty(running);
            releaseNovelty(restored);
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('run expert: a value stuck 20 % longer than the longest earlier run scores once, (0.3 / 0.1) / (1 + 0.3 / 0.1)', () => {
    const s = new NoveltyScore();
    const at = (i: number): number => T0 + i * STEP;
    let i = 0;
    // distinct values (no exact repeat) except one run of 11 equal values: 10 repeats
    for (; i < 200; i += 1) s.observe(Math.sin(i), at(i), NaN);
    for (let k = 0; k < 11; k += 1, i += 1) s.observe(5, at(i), NaN);
    for (; i < 400; i += 1) s.observe(Math.sin(i), at(i), NaN);
    const scores: number[] = [];
    for (let k = 0; k < 20; k += 1, i += 1) {
      s.observe(0.5, at(i), NaN);
      scores.push(s.expertScores().run);
    }
    // repeats 1..19 after the first 0.5: only the 13th (excess (13 - 10) / 10 = 0.3 > 0.2) scores
    expect(scores.filter((x) => x > 0)).to.have.length(1);
    expect(scores[13]).to.be.closeTo(0.3 / 0.4, 1e-12);
    // once the value moves the run is over, and it is the longest now
    s.observe(0.25, at(i), NaN);
    expect(s.expertScores().run).to.equal(0);
  });

  it('suppresses repeats: a lesser departure within 100 points of a report reports 0, after them it reports', () => {
    const s = new NoveltyScore();
    square(s, 400);
    const first = s.observe(2, T0 + 400 * STEP, 0.5); // 1 range above the maximum: 1 / 1.1
    expect(first).to.be.closeTo(1 / 1.1, 1e-12);
    square(s, 50, 401);
    const repeat = s.observe(-0.1, T0 + 451 * STEP, 0.5); // below the minimum, a lesser departure
    const x = s.expertScores();
    const best = Math.max(x.range, x.dispersion, x.day, x.week);
    expect(best).to.be.greaterThan(0).and.lessThan(first);
    expect(repeat).to.equal(0);
    square(s, NOVELTY.suppressPoints + 1, 452);
    const later = s.observe(-0.1, T0 + (453 + NOVELTY.suppressPoints) * STEP, 0.5);
    expect(later).to.be.greaterThan(0);
  });

  it('day profile: a value far from what this half hour usually shows is a departure', () => {
    const s = new NoveltyScore();
    // 8 days of a daily square: 1 in the first half of the UTC day, 0 in the second, at 5-minute rows
    const dayStart = Math.floor(T0 / 86_400) * 86_400;
    const rows = 8 * 288;
    for (let i = 0; i < rows; i += 1) {
      const t = dayStart + i * 300;
      s.observe(t % 86_400 < 43_200 ? 1 : 0, t, NaN);
    }
    // the next day: 0 in the morning slot where the profile says 1
    const t = dayStart + rows * 300;
    s.observe(0, t, NaN);
    expect(s.expertScores().day).to.be.greaterThan(0.5);
    expect(s.expertScores().range).to.equal(0); // inside the range: only the profiles see it
  });

  it('saved and restored, it continues exactly as if it had not stopped (property)', () => {
    fc.assert(
      // repeated small values too, so that runs and known contexts occur
      fc.property(fc.array(fc.oneof(fc.double({ min: -1e3, max: 1e3, noNaN: true }), fc.constantFrom(0, 1, 2)), { minLength: 320, maxLength: 700, size: 'max' }), fc.nat(), (ys, cutAt) => {
        const cut = 300 + (cutAt % (ys.length - 300));
        const whole = new NoveltyScore();
        let part = new NoveltyScore();
        ys.forEach((y, i) => {
          const med = i % 3 === 0 ? NaN : 0;
          const a = whole.observe(y, T0 + i * STEP, med);
          if (i === cut) part = NoveltyScore.fromJSON(JSON.parse(JSON.stringify(part.toJSON())) as unknown);
          const b = part.observe(y, T0 + i * STEP, med);
          expect(b).to.equal(a);
        });
      }),
      { numRuns: 30 },
    );
  });

  it('an unreadable, damaged or old (version 1) saved state gives a fresh, warming-up score', () => {
    const trained = new NoveltyScore();
    square(trained, 400);
    const good = JSON.parse(JSON.stringify(trained.toJSON())) as Record<string, unknown>;
    expect(good.v).to.equal(2);
    const ints = Buffer.from(good.contexts as string, 'base64');
    const badLevel = Buffer.from(ints);
    badLevel.writeInt32LE(NOVELTY.contextLevels, ints.byteLength - 4); // a level the score never makes
    const badKey = Buffer.from(ints);
    badKey.writeInt32LE(3, 0); // slot 0 holding a key no context has (3 falls in slot 3)
    const old = { v: 1, profiles: good.profiles, scalars: (good.scalars as unknown[]).slice(0, 19) };
    for (const bad of [
      null,
      42,
      {},
      { v: 2 },
      { v: 1, profiles: 'AAAA', scalars: [] },
      old,
      { ...good, v: 1 },
      { ...good, contexts: undefined },
      { ...good, contexts: ints.subarray(4).toString('base64') },
      { ...good, contexts: badLevel.toString('base64') },
      { ...good, contexts: badKey.toString('base64') },
      { ...good, scalars: (good.scalars as unknown[]).slice(1) },
    ]) {
      const s = NoveltyScore.fromJSON(bad);
      expect(s.observe(1e9, T0, 0)).to.equal(0);
    }
    // the good state continues: not warming up
    expect(NoveltyScore.fromJSON(good).observe(1e9, T0 + 400 * STEP, 0.5)).to.be.greaterThan(0.5);
  });

  it('never leaves [0, 1] and never returns NaN, for any input (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.oneof(fc.double(), fc.double({ min: 0, max: 1 }), fc.constant(0)), fc.oneof(fc.double(), fc.constant(0.5), fc.constant(Number.NaN))), { minLength: 290, maxLength: 420, size: 'max' }),
        (pts) => {
          const s = new NoveltyScore();
          pts.forEach(([y, med], i) => {
            const out = s.observe(y, T0 + i * STEP, med);
            expect(Number.isNaN(out)).to.equal(false);
            expect(out).to.be.within(0, 1);
          });
        },
      ),
      { numRuns: 40 },
    );
  });

  it('the service fires `novelty` at the documented threshold and restores it with the series', () => {
    const d = new SeriesDetectors();
    for (let i = 0; i < 400; i += 1) d.observe(0.5 + 0.01 * (i % 2), i * 15, T0 + i * 15);
    const out = d.observe(3, 400 * 15, T0 + 400 * 15);
    expect(out.score).to.be.at.least(NOVELTY_FIRES_AT);
    expect(out.firings.map((f) => f.method)).to.include('novelty');
    const restored = SeriesDetectors.fromJSON(JSON.parse(JSON.stringify(d.toJSON())) as unknown);
    const a = d.observe(0.5, 401 * 15, T0 + 401 * 15);
    const b = restored.observe(0.5, 401 * 15, T0 + 401 * 15);
    expect(b.methodScores.novelty).to.equal(a.methodScores.novelty);
  });
});
