import { expect } from 'chai';
import { EXPERTS, NOVELTY, SAVED_PROFILE_VALUES, SAVED_SLOT_SIZE, S_DAY_DEV, S_EXPERTS, S_HOLD_SCORE, S_H_DAY, S_H_WEEK, S_WEEK_DEV } from '../../api-server/src/analysis/anomaly/novelty-layout.js';

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

/** |a - b| within `relative` of |b|, or `absolute` */
function near(a: number, b: number, relative: number, absolute: number): boolean {
  return Object.is(a, b) || Math.abs(a - b) <= relative * Math.abs(b) + absolute;
}

/**
 * Expects a novelty state learnt with the profiles' deviations in 16 bits (ADR 0017) to be the
 * state a build with float deviations saved for the same points: the context table, the slots'
 * means and counts, the range blocks, the dispersion ring and the scalars exactly, each deviation
 * and each scalar that reads them within 6 %. Returns how many deviations differ.
 *
 * `valuesAsFloats`: the state was learnt from the series' values rounded to floats, the one before
 * from doubles (series/value-precision.ts): the contexts and counts still exactly, the means, range
 * blocks, dispersion ring and other scalars within 1e-3 relative (or 1e-8 absolute, round-off of
 * a difference), the deviations within 6 % or 1e-9. The scalars that read the deviations are not
 * compared for a series whose deviations were all round-off (below 1e-9: a steady value, whose
 * doubles' arithmetic left deviations of 1e-10 that a float's leaves at 0, and scores that read them).
 */
export function expectNoveltyLearntAsBefore(now: SavedNovelty, before: SavedNovelty, label: string, valuesAsFloats = false): number {
  expect(now.v, label).to.equal(before.v);
  expect(now.contexts, `${label}: contexts`).to.equal(before.contexts);
  const a = floatsOf(now.profiles);
  const b = floatsOf(before.profiles);
  expect(a.length, label).to.equal(b.length);
  let moved = 0;
  let roundOffOnly = true;
  const relative = valuesAsFloats ? 1e-3 : 0;
  const absolute = valuesAsFloats ? 1e-8 : 0;
  for (let k = 0; k < NOVELTY.daySlots + NOVELTY.weekSlots; k += 1) {
    const at = SAVED_SLOT_SIZE * k;
    // the slot's mean and count do not read the deviation
    expect(near(a[at]!, b[at]!, relative, absolute), `${label}: slot ${k}'s mean ${a[at]} against ${b[at]}`).to.equal(true);
    expect(a[at + 2], `${label}: slot ${k}'s count`).to.equal(b[at + 2]);
    expect(a[at + 1], `${label}: slot ${k}'s deviation`).to.be.closeTo(b[at + 1]!, 0.06 * b[at + 1]! + (valuesAsFloats ? 1e-9 : 1e-12));
    if (a[at + 1] !== b[at + 1]) moved += 1;
    if (b[at + 1]! >= 1e-9) roundOffOnly = false;
  }
  const rest = [...a.subarray(SAVED_PROFILE_VALUES)];
  const restBefore = [...b.subarray(SAVED_PROFILE_VALUES)];
  expect(rest.length, `${label}: range blocks and dispersion ring`).to.equal(restBefore.length);
  rest.forEach((v, i) => expect(near(v, restBefore[i]!, relative, absolute), `${label}: range blocks and dispersion ring, element ${i}: ${v} against ${restBefore[i]}`).to.equal(true));
  now.scalars.forEach((v, i) => {
    const was = before.scalars[i];
    const readsDeviations = READ_DEVIATIONS.has(i) || (valuesAsFloats && (i === S_DAY_DEV || i === S_WEEK_DEV));
    if (readsDeviations && valuesAsFloats && roundOffOnly) return;
    if (readsDeviations && v !== null && was !== null && was !== undefined) expect(v, `${label}: scalar ${i}`).to.be.closeTo(was, 0.06 * Math.abs(was) + 1e-9);
    else if (valuesAsFloats && typeof v === 'number' && typeof was === 'number') expect(near(v, was, relative, absolute), `${label}: scalar ${i}: ${v} against ${was}`).to.equal(true);
    else expect(v, `${label}: scalar ${i}`).to.equal(was);
  });
  return moved;
}
