import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { NoveltyScore } from '../../../api-server/src/analysis/anomaly/novelty-score.js';
import { expectNoveltyLearntAsBefore, type SavedNovelty } from '../../support/novelty-state.js';

/**
 * The saved state is a format (version 2): states saved by an earlier build must restore, whatever
 * the chunk's layout in memory becomes. The fixture was saved by the novelty score of commit
 * d91ca4c, whose profile deviations were floats; they are 16 bits since
 * (docs/adr/0017-profile-deviations-in-16-bits.md), so today's state differs from it there, and
 * only there and in what reads them.
 */
interface SavedFixture {
  saved: unknown;
  scoresAfter: number[];
}
const fixture = JSON.parse(readFileSync(new URL('../../fixtures/novelty/saved-v2.json', import.meta.url), 'utf8')) as SavedFixture;

const SAVED_AT = 1500;
const POINTS = 1800;

/** the fixture's series: a daily cycle with noise, a stuck value (900-959), a level shift (1600 on); 5-minute points */
function seriesPoint(k: number, next: () => number): { y: number; t: number; median: number } {
  const t = 1_700_000_000 + k * 300;
  let y = 10 + 3 * Math.sin((2 * Math.PI * t) / 86_400) + next();
  if (k >= 900 && k < 960) y = 12;
  if (k >= 1600) y += 6;
  return { y: Math.round(y * 1000) / 1000, t, median: k >= 300 ? 10 : NaN };
}

function generator(): () => number {
  let seed = 20261125;
  return () => {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

describe('novelty score: the saved state (version 2)', () => {
  it('the same series saves the state the earlier build did, but for the deviations (16 bits now) and what reads them', () => {
    const next = generator();
    const score = new NoveltyScore();
    for (let k = 0; k < SAVED_AT; k += 1) {
      const p = seriesPoint(k, next);
      score.observe(p.y, p.t, p.median);
    }
    const saved = JSON.parse(JSON.stringify(score.toJSON())) as SavedNovelty;
    // the fixture's series has learnt a deviation in 290 slots (day and week), and each moved: so this compares something
    expect(expectNoveltyLearntAsBefore(saved, fixture.saved as SavedNovelty, 'the state')).to.be.above(100);
  });

  it("the earlier build's saved state restores and scores the next 300 points exactly as that build did", () => {
    const next = generator();
    const points = Array.from({ length: POINTS }, (_, k) => seriesPoint(k, next));
    const restored = NoveltyScore.fromJSON(fixture.saved);
    const scores = points.slice(SAVED_AT).map((p) => restored.observe(p.y, p.t, p.median));
    expect(scores).to.deep.equal(fixture.scoresAfter);
    // the window holds departures (the level shift), so the comparison is not of zeros only
    expect(scores.filter((s) => s > 0.5).length).to.be.greaterThan(0);
  });
});
