import { expect } from 'chai';
import { EXPERTS, NOVELTY, SAVED_PROFILE_VALUES, SAVED_SLOT_SIZE, S_EXPERTS, S_HOLD_SCORE, S_H_DAY, S_H_WEEK } from '../../api-server/src/analysis/anomaly/novelty-layout.js';

/** a novelty score's saved state (novelty-state.ts, version 2), as JSON */
export interface SavedNovelty {
  v: number;
  profiles: string;
  contexts: string;
  scalars: (number | null)[];
}

/** the floats of a saved state's base64 profiles */
export function floatsOf(base64: string): Float32Array {
  const bytes = Buffer.from(base64, 'base64');
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

/** the saved scalars that read the profiles' deviations: the day and week experts' maxima and last scores, the suppression's score */
const READ_DEVIATIONS = new Set([S_H_DAY, S_H_WEEK, S_HOLD_SCORE, S_EXPERTS + 2, S_EXPERTS + 3]);
if (S_EXPERTS + 3 >= S_EXPERTS + EXPERTS) throw new Error('the day and week experts are the third and fourth of the last scores');

/**
 * Expects a novelty state learnt with the profiles' deviations in 16 bits (ADR 0017) to be the
 * state a build with float deviations saved for the same points: the context table, the slots'
 * means and counts, the range blocks, the dispersion ring and the scalars exactly, each deviation
 * and each scalar that reads them within 6 %. Returns how many deviations differ.
 */
export function expectNoveltyLearntAsBefore(now: SavedNovelty, before: SavedNovelty, label: string): number {
  expect(now.v, label).to.equal(before.v);
  expect(now.contexts, `${label}: contexts`).to.equal(before.contexts);
  const a = floatsOf(now.profiles);
  const b = floatsOf(before.profiles);
  expect(a.length, label).to.equal(b.length);
  let moved = 0;
  for (let k = 0; k < NOVELTY.daySlots + NOVELTY.weekSlots; k += 1) {
    const at = SAVED_SLOT_SIZE * k;
    // the slot's mean and count do not read the deviation
    expect(Object.is(a[at], b[at]), `${label}: slot ${k}'s mean`).to.equal(true);
    expect(a[at + 2], `${label}: slot ${k}'s count`).to.equal(b[at + 2]);
    expect(a[at + 1], `${label}: slot ${k}'s deviation`).to.be.closeTo(b[at + 1]!, 0.06 * b[at + 1]! + 1e-12);
    if (a[at + 1] !== b[at + 1]) moved += 1;
  }
  expect([...a.subarray(SAVED_PROFILE_VALUES)], `${label}: range blocks and dispersion ring`).to.deep.equal([...b.subarray(SAVED_PROFILE_VALUES)]);
  now.scalars.forEach((v, i) => {
    const was = before.scalars[i];
    if (READ_DEVIATIONS.has(i) && v !== null && was !== null && was !== undefined) expect(v, `${label}: scalar ${i}`).to.be.closeTo(was, 0.06 * Math.abs(was) + 1e-9);
    else expect(v, `${label}: scalar ${i}`).to.equal(was);
  });
  return moved;
}
