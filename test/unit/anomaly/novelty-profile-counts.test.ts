import { expect } from 'chai';
import { NoveltyScore } from '../../../api-server/src/analysis/anomaly/novelty-score.js';
import { NOVELTY, SAVED_F32_SIZE, SAVED_SLOT_SIZE, SLOT_COUNT_MAX } from '../../../api-server/src/analysis/anomaly/novelty-layout.js';
import { deviationFrom16, deviationTo16 } from '../../../api-server/src/analysis/packed/sixteen-bit.js';

/** the saved Float32 values of a score */
function savedProfiles(score: NoveltyScore): Float32Array {
  const bytes = Buffer.from(score.toJSON().profiles, 'base64');
  const out = new Float32Array(SAVED_F32_SIZE);
  new Uint8Array(out.buffer).set(bytes);
  return out;
}

// 2023-11-13 00:00 UTC, a Monday: day slot 0 and week slot 0
const MONDAY = 1_699_833_600;
const WEEK_SLOT = (k: number): number => NOVELTY.daySlots + k;

describe('novelty profiles: the slot counts as bytes beside the (mean, deviation) pairs', () => {
  it('counts each slot up to 255, and saves (mean, deviation, count) triples as before', () => {
    const score = new NoveltyScore();
    // 3 points in the first half-hour, then 1 in the second: day slots 0 and 1, week slots 0 and 1
    for (const [t, y] of [
      [MONDAY, 4],
      [MONDAY + 60, 6],
      [MONDAY + 120, 5],
      [MONDAY + 1800, 9],
    ] as const)
      score.observe(y, t, Number.NaN);
    const saved = savedProfiles(score);
    expect(saved.length).to.equal(3 * (48 + 336) + 2 * 20 + 12);
    // day slot 0: first mean 4, count 3; day slot 1: mean 9, count 1; untouched slots NaN / 0 / 0
    // the mean learns at 1 - 0.9^(60 s / 300 s) per point: 4, then 4 + 2r, then that + r (5 - that), as floats
    const r = Math.min(1, 1 - Math.pow(1 - 0.1, 60 / 300));
    const second = Math.fround((1 - r) * 4 + r * 6);
    expect(saved[0]).to.equal(Math.fround((1 - r) * second + r * 5));
    expect(saved[0]).to.be.closeTo(4.0617, 1e-4);
    // its deviation learns |y - mean| the same way, rounded to 16 bits at each update (ADR 0017):
    // 0, then r · |6 - 4|, then (1 - r) · that + r · |5 - second|
    const to16 = (v: number): number => deviationFrom16(deviationTo16(v));
    const dev2 = to16(r * 2);
    expect(saved[1]).to.equal(to16((1 - r) * dev2 + r * Math.abs(5 - second)));
    // r = 1 - 0.9^0.2 = 0.02085: 0.0417, then 0.9791 · 0.0417 + 0.02085 · 0.9583 = 0.0608
    expect(saved[1]).to.be.closeTo(0.0608, 2e-4);
    expect(deviationTo16(saved[1]!)).to.equal(deviationTo16(saved[1]! * (1 + 2 ** -12)));
    expect(saved[2]).to.equal(3);
    expect(saved[SAVED_SLOT_SIZE + 0]).to.equal(9);
    expect(saved[SAVED_SLOT_SIZE + 1]).to.equal(0);
    expect(saved[SAVED_SLOT_SIZE + 2]).to.equal(1);
    expect(Number.isNaN(saved[SAVED_SLOT_SIZE * 2 + 0])).to.equal(true);
    expect(saved[SAVED_SLOT_SIZE * 2 + 2]).to.equal(0);
    expect(saved[SAVED_SLOT_SIZE * WEEK_SLOT(0) + 2]).to.equal(3);
    expect(saved[SAVED_SLOT_SIZE * WEEK_SLOT(1) + 2]).to.equal(1);

    for (let k = 0; k < 300; k += 1) score.observe(5, MONDAY + 3 + k, Number.NaN);
    const full = savedProfiles(score);
    expect(full[2]).to.equal(SLOT_COUNT_MAX);
    expect(full[SAVED_SLOT_SIZE * WEEK_SLOT(0) + 2]).to.equal(SLOT_COUNT_MAX);
    // the saved state comes back as it was
    expect(NoveltyScore.fromJSON(JSON.parse(JSON.stringify(score.toJSON()))).toJSON()).to.deep.equal(score.toJSON());
  });

  it('a saved count that is not a whole number in [0, 255] is not ours: the score starts afresh', () => {
    const score = new NoveltyScore();
    for (let k = 0; k < 400; k += 1) score.observe(k % 7, MONDAY + 15 * k, Number.NaN);
    const good = score.toJSON();
    expect(NoveltyScore.fromJSON(good).toJSON()).to.deep.equal(good);
    for (const bad of [256, 2.5, -1, Number.NaN]) {
      const profiles = savedProfiles(score);
      profiles[SAVED_SLOT_SIZE * 5 + 2] = bad;
      const restored = NoveltyScore.fromJSON({ ...good, profiles: Buffer.from(profiles.buffer).toString('base64') });
      // fresh: warming up, nothing scored
      expect(restored.observe(1e9, MONDAY, 0)).to.equal(0);
      expect(restored.toJSON().scalars[0]).to.equal(1);
    }
    // nor is a deviation that is negative or NaN (a deviation is kept in 16 bits as |v|: ADR 0017)
    for (const bad of [-0.5, Number.NaN]) {
      const profiles = savedProfiles(score);
      profiles[SAVED_SLOT_SIZE * 5 + 1] = bad;
      const restored = NoveltyScore.fromJSON({ ...good, profiles: Buffer.from(profiles.buffer).toString('base64') });
      expect(restored.observe(1e9, MONDAY, 0)).to.equal(0);
      expect(restored.toJSON().scalars[0]).to.equal(1);
    }
  });
});
