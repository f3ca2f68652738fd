/**
 * The novelty score of one series: how far the newest point is from everything the series has
 * shown before, in [0, 1], causal (no look-ahead) and O(1) per point. It is the `novelty`
 * detection method of the service and the anomaly score `npm run eval:nab` scores (docs/nab.md).
 *
 * Six experts each measure one kind of departure, d >= 0:
 * - range:      how far y lies outside [min, max] of the previous ~2000 points, in units of that
 *               range (20 blocks of 100 points; the open block counts too);
 * - dispersion: mean |y - median| over the last 12 points (median of the series' 300-value window);
 * - day:        |y - profile| / (slot deviation + series deviation) against an adaptive profile of
 *               48 half-hour slots of the UTC day;
 * - week:       the same against 336 half-hour slots of the UTC week;
 * - context:    after CAD OSE: y quantised into 4 levels of the [min, max] seen so far; the
 *               fraction of the contexts ending here (its last 2..7 levels) not in a fixed
 *               512-slot table of seen contexts, averaged over 10 points;
 * - run:        a value repeated exactly for 20 % longer than the longest earlier run (of 10
 *               points or more): the excess in units of that run, at that one point.
 * Range and run score d / (d + 0.1). The other four are calibrated against their own past:
 * e = d / h, where h is the decaying maximum of that expert's earlier d (h <- max(d, 0.9998 h) per
 * point, a half-life of ~3 500 points), scored e / (1 + e): 0.5 means "as large as the largest
 * departure this series has recently shown". The score is the largest of the six.
 * Repeats are suppressed: within 100 points of a point that scored >= 0.5, only a higher score is
 * reported (0 otherwise), so one incident reports its onset instead of every point of it.
 * Nothing is scored during the first 300 points (warm-up).
 *
 * Profile slots learn at 10 % per 5 minutes of sample time (1 - 0.9^(dt / 300 s) per point), so a
 * profile means the same at the service's 15-second buckets as at NAB's 5-minute rows; a slot is
 * used from its third point on. Windows and the decay count points (analytics.md §5.6).
 *
 * Memory: one chunk per series (4 182 bytes, padded to 4 184) of a shared slab (novelty-slab.ts,
 * layout in novelty-layout.ts: pages of 256 chunks, each page one ArrayBuffer), so a series' state
 * is no JS heap object of its own. A chunk holds 31 Float64 scalars (28 saved; 3 derived: the
 * closed range blocks' extremes and the context expert's steady level), 52 Float32 values (range
 * blocks, dispersion ring), 1 671 Uint16 (the context table's 16-bit tags, novelty-contexts.ts,
 * the last 7 levels, and the 384 profile slots as a float mean's two halves and a 16-bit
 * deviation side by side) and 384 Uint8 (the slots' counts); all but the derived scalars persist
 * with `toJSON` (version 2, the table as its contexts' keys) and come back with `fromJSON`.
 *
 * Two APIs over the same state: functions over chunk ids (`allocateNovelty`, `observeNovelty`, ...,
 * `releaseNovelty`) for an owner of many series that releases their chunks itself, and the
 * `NoveltyScore` class, a thin wrapper whose chunk is released when it is garbage collected.
 */

import { NOVELTY, DAY_S, WEEK_S, WEEK_SHIFT_S, P_SLOT, P_DAY, P_WEEK, V_RING, S_POINTS, S_LAST_X, S_V_COUNT, S_H_DISP, S_H_DAY, S_H_WEEK, S_DAY_DEV, S_WEEK_DEV, S_LAST_HOLD, S_HOLD_SCORE, S_EXPERTS, S_CTX_MEAN, S_H_CTX, F64_SIZE, EXPERTS, C_RING, F32_AT, U16_AT, slab, F64_STRIDE, F32_STRIDE, U16_STRIDE, U8_STRIDE, U8_AT, COUNT_DAY, COUNT_WEEK, pagesF64, pagesF32, pagesU16, pagesU8 } from './novelty-layout.js';
import { SLAB_PAGE_BITS, SLAB_PAGE_MASK } from './novelty-slab.js';
import { unseenContexts, runExcess, rangeDeparture, pushRange, dispersion, profileDeparture } from './novelty-experts.js';
import { initChunk, resetChunk, restoreChunk, noveltyToJSON } from './novelty-state.js';
import type { NoveltyState } from './novelty-state.js';

export { NOVELTY } from './novelty-layout.js';
export { noveltyFromJSON, noveltyToJSON, type NoveltyState } from './novelty-state.js';
export { touchNoveltyContexts } from './novelty-experts.js';

/** the last point's expert scores before suppression (0 while warming up) */
export interface NoveltyExperts {
  range: number;
  dispersion: number;
  day: number;
  week: number;
  context: number;
  run: number;
}

/** A fresh novelty state (warming up) in a chunk of the shared slab: its id. Give it back with releaseNovelty. */
export function allocateNovelty(): number {
  const id = slab.allocate();
  initChunk(id);
  return id;
}

/**
 * Gives chunk `id` back for reuse; the id must not be used afterwards. Throws on an id that is not
 * allocated (unknown, or released already). Not for the chunk of a NoveltyScore, which releases its own.
 */
export function releaseNovelty(id: number): void {
  slab.release(id);
}

/** whether `id` is an allocated novelty chunk */
export function isNoveltyLive(id: number): boolean {
  return slab.isLive(id);
}

/** the shared slab's size: pages of 256 chunks, chunks allocated and free, bytes held (off the JS heap) */
export function noveltySlabStats(): { pages: number; chunksInUse: number; chunksFree: number; bytes: number } {
  return slab.stats();
}

/** the calibrated experts (dispersion, day, week, context): their departures in observeNovelty's order */
const CALIBRATED = 4;
/** where each calibrated expert's decaying maximum is kept */
const CALIBRATED_HISTORY = Int32Array.of(S_H_DISP, S_H_DAY, S_H_WEEK, S_H_CTX);
/** where the first calibrated expert's score is kept (the other three follow in the same order) */
const CALIBRATED_SCORE = S_EXPERTS + 1;
/** observeNovelty's departures of the calibrated experts (synchronous, so one array serves every chunk) */
const CALIBRATED_DEPARTURES = new Float64Array(CALIBRATED);

/** the last point's step and time and what follows from them: [dt, rate, at, day slot, week slot] (NaN: none yet) */
const TIME_MEMO = Float64Array.of(NaN, NaN, NaN, NaN, NaN);
const MEMO_DT = 0;
const MEMO_RATE = 1;
const MEMO_AT = 2;
const MEMO_DAY_SLOT = 3;
const MEMO_WEEK_SLOT = 4;

/** the day and week slots of `atSeconds`, into TIME_MEMO */
function memoSlots(atSeconds: number): void {
  const memo = TIME_MEMO;
  memo[MEMO_AT] = atSeconds;
  memo[MEMO_DAY_SLOT] = Math.floor((((atSeconds % DAY_S) + DAY_S) % DAY_S) / (DAY_S / NOVELTY.daySlots));
  memo[MEMO_WEEK_SLOT] = Math.floor(((((atSeconds + WEEK_SHIFT_S) % WEEK_S) + WEEK_S) % WEEK_S) / (WEEK_S / NOVELTY.weekSlots));
}

/**
 * Reads one value from each cache line of chunk `id` that observeNovelty at `atSeconds` reads
 * first (the scalars, the day and week profile slots, the dispersion ring and the ring of levels)
 * and returns their sum, for group prefetching (SeriesEnsemble.touchNextPoint). The context
 * table's slots depend on the value and are not touched. Changes no state of the chunk (it may
 * fill the time memo: the same slots observeNovelty would compute).
 */
export function touchNovelty(id: number, atSeconds: number): number {
  if (!Number.isFinite(atSeconds)) return 0;
  const page = id >>> SLAB_PAGE_BITS;
  const s = pagesF64[page] as Float64Array;
  const f = pagesF32[page] as Float32Array;
  const c = pagesU16[page] as Uint16Array;
  const at = id & SLAB_PAGE_MASK;
  const sb = at * F64_STRIDE;
  const fb = at * F32_STRIDE + F32_AT;
  if (atSeconds !== TIME_MEMO[MEMO_AT]) memoSlots(atSeconds);
  let sum = 0;
  for (let k = 0; k < F64_SIZE; k += 8) sum += s[sb + k] as number;
  const daySlot = (TIME_MEMO[MEMO_DAY_SLOT] as number) | 0;
  const weekSlot = (TIME_MEMO[MEMO_WEEK_SLOT] as number) | 0;
  const cb = at * U16_STRIDE + U16_AT;
  sum += (c[cb + P_DAY + P_SLOT * daySlot] as number) + (c[cb + P_WEEK + P_SLOT * weekSlot] as number);
  // the two slots' counts (the Uint8 state)
  const counts = pagesU8[page] as Uint8Array;
  const kb = at * U8_STRIDE + U8_AT;
  sum += (counts[kb + COUNT_DAY + daySlot] as number) + (counts[kb + COUNT_WEEK + weekSlot] as number);
  // the dispersion ring (12 Float32 values), once in use: its two ends (the blocks are read only when one closes)
  if ((s[sb + S_V_COUNT] as number) > 0) sum += (f[fb + V_RING] as number) + (f[fb + V_RING + NOVELTY.dispersionPoints - 1] as number);
  return sum + (c[cb + C_RING] as number);
}

/**
 * Scores `y` at `atSeconds` (sample time, epoch seconds for the day/week slots) in the state of
 * chunk `id`. `median`: the median of the series' recent window, NaN while that window is not full
 * (no dispersion yet). Non-finite y or time: 0 and nothing learned. Allocates nothing.
 * `id` must be allocated (not checked here, the hot path).
 */
export function observeNovelty(id: number, y: number, atSeconds: number, median: number): number {
  if (!Number.isFinite(y) || !Number.isFinite(atSeconds)) return 0;
  // the page's views and the chunk's offsets in them, once
  const page = id >>> SLAB_PAGE_BITS;
  const s = pagesF64[page] as Float64Array;
  const f = pagesF32[page] as Float32Array;
  const c = pagesU16[page] as Uint16Array;
  const at = id & SLAB_PAGE_MASK;
  const sb = at * F64_STRIDE;
  const fb = at * F32_STRIDE + F32_AT;
  const cb = at * U16_STRIDE + U16_AT;
  // counters are integers held in Float64 memory: `| 0` keeps their ring arithmetic in int32 (no fmod)
  const i = (s[sb + S_POINTS] as number) | 0;

  const dRange = rangeDeparture(s, sb, y);
  const dDisp = dispersion(f, fb, s, sb, y, median);
  const lastX = s[sb + S_LAST_X] as number;
  const dtSteps = Number.isFinite(lastX) && atSeconds > lastX ? (atSeconds - lastX) / NOVELTY.slotRateSeconds : 1;
  // every series of a tick sees the same time and step: the rate and slots of the last point are
  // reused when they are the same (the same arithmetic on the same input, so the same result)
  const memo = TIME_MEMO;
  if (dtSteps !== memo[MEMO_DT]) {
    memo[MEMO_DT] = dtSteps;
    memo[MEMO_RATE] = Math.min(1, 1 - Math.pow(1 - NOVELTY.slotRate, dtSteps));
  }
  if (atSeconds !== memo[MEMO_AT]) memoSlots(atSeconds);
  const rate = memo[MEMO_RATE] as number;
  const daySlot = (memo[MEMO_DAY_SLOT] as number) | 0;
  const weekSlot = (memo[MEMO_WEEK_SLOT] as number) | 0;
  const counts = pagesU8[page] as Uint8Array;
  const kb = at * U8_STRIDE + U8_AT;
  const dDay = profileDeparture(c, cb + P_DAY + P_SLOT * daySlot, counts, kb + COUNT_DAY + daySlot, s, sb + S_DAY_DEV, y, rate);
  const dWeek = profileDeparture(c, cb + P_WEEK + P_SLOT * weekSlot, counts, kb + COUNT_WEEK + weekSlot, s, sb + S_WEEK_DEV, y, rate);
  const ctxMean = (s[sb + S_CTX_MEAN] as number) + (unseenContexts(c, cb, s, sb, y, i) - (s[sb + S_CTX_MEAN] as number)) / NOVELTY.contextMeanPoints;
  s[sb + S_CTX_MEAN] = ctxMean;
  const dRun = runExcess(s, sb, y);

  let best = 0;
  const scored = i >= NOVELTY.warmupPoints;
  const departures = CALIBRATED_DEPARTURES;
  departures[0] = dDisp;
  departures[1] = dDay;
  departures[2] = dWeek;
  departures[3] = ctxMean;
  // each calibrated expert: e = d / h against its decaying maximum h of earlier points, scored
  // e / (1 + e) (0 without a positive d or a finite h); then h learns d. A loop, not a helper per
  // expert: a call that is not inlined boxes its double arguments and result.
  for (let k = 0; k < CALIBRATED; k += 1) {
    const d = departures[k] as number;
    const at = sb + (CALIBRATED_HISTORY[k] as number);
    const h = s[at] as number;
    const finite = Number.isFinite(h);
    if (scored) {
      let score = 0;
      if (d > 0 && finite) {
        const e = d / (h + 1e-9);
        score = e / (1 + e);
      }
      s[sb + CALIBRATED_SCORE + k] = score;
    }
    s[at] = finite ? Math.max(d, h * NOVELTY.historyDecay) : d;
  }
  if (scored) {
    s[sb + S_EXPERTS] = dRange > 0 ? dRange / (dRange + NOVELTY.rangeScale) : 0;
    s[sb + S_EXPERTS + 5] = dRun > 0 ? dRun / (dRun + NOVELTY.rangeScale) : 0;
    for (let k = 0; k < EXPERTS; k += 1) best = Math.max(best, s[sb + S_EXPERTS + k] as number);
  }

  // suppression of repeats
  const sinceHold = i - (s[sb + S_LAST_HOLD] as number);
  if (sinceHold > NOVELTY.suppressPoints) s[sb + S_HOLD_SCORE] = 0;
  const out = best > (s[sb + S_HOLD_SCORE] as number) || sinceHold > NOVELTY.suppressPoints ? best : 0;
  if (out > 0 && best >= NOVELTY.suppressFrom) {
    s[sb + S_LAST_HOLD] = i;
    s[sb + S_HOLD_SCORE] = best;
  }

  pushRange(f, fb, s, sb, y);
  s[sb + S_LAST_X] = atSeconds;
  s[sb + S_POINTS] = i + 1;
  return out;
}

/** the last point's expert scores in chunk `id` before suppression (0 while warming up), for evaluation */
export function noveltyExpertScores(id: number): NoveltyExperts {
  const s = pagesF64[id >>> SLAB_PAGE_BITS] as Float64Array;
  const sb = (id & SLAB_PAGE_MASK) * F64_STRIDE;
  return {
    range: s[sb + S_EXPERTS] as number,
    dispersion: s[sb + S_EXPERTS + 1] as number,
    day: s[sb + S_EXPERTS + 2] as number,
    week: s[sb + S_EXPERTS + 3] as number,
    context: s[sb + S_EXPERTS + 4] as number,
    run: s[sb + S_EXPERTS + 5] as number,
  };
}

/** releases a NoveltyScore's chunk once the score is garbage collected */
const released = new FinalizationRegistry<number>((id) => slab.release(id));

/**
 * The novelty score of one series as an object: a thin wrapper over a chunk of the shared slab,
 * given back when the wrapper is garbage collected.
 */
export class NoveltyScore {
  readonly #id: number;

  /** a fresh score (warming up) */
  constructor() {
    this.#id = allocateNovelty();
    released.register(this, this.#id);
  }

  /**
   * Scores `y` at `atSeconds` (sample time, epoch seconds for the day/week slots). `median`: the
   * median of the series' recent window, NaN while that window is not full (no dispersion yet).
   * Non-finite y or time: 0 and nothing learned.
   */
  observe(y: number, atSeconds: number, median: number): number {
    return observeNovelty(this.#id, y, atSeconds, median);
  }

  /** the last point's expert scores before suppression (0 while warming up), for evaluation */
  expertScores(): NoveltyExperts {
    return noveltyExpertScores(this.#id);
  }

  toJSON(): NoveltyState {
    return noveltyToJSON(this.#id);
  }

  /** The saved state, or a fresh score (warming up again) when `state` is absent or not ours. */
  static fromJSON(state: unknown): NoveltyScore {
    const score = new NoveltyScore();
    // the fresh chunk is overwritten in full by a valid state (the padding aside), and made fresh again otherwise
    if (!restoreChunk(score.#id, state)) resetChunk(score.#id);
    return score;
  }
}
