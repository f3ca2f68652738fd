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
 * Memory: one chunk per series (7 140 bytes, padded to 7 144) of a shared slab (novelty-slab.ts:
 * pages of 256 chunks, each page one ArrayBuffer), so a series' state is no JS heap object of its
 * own. A chunk holds 31 Float64 scalars (28 saved; 3 derived: the closed range blocks' extremes and
 * the context expert's steady level), 1 204 Float32 values (profile slots with mean, deviation and
 * count side by side, range blocks, dispersion ring) and 519 Int32 (context table and the last 7
 * levels); all but the derived scalars persist with `toJSON` (version 2) and come back with
 * `fromJSON`.
 *
 * Two APIs over the same state: functions over chunk ids (`allocateNovelty`, `observeNovelty`, ...,
 * `releaseNovelty`) for an owner of many series that releases their chunks itself, and the
 * `NoveltyScore` class, a thin wrapper whose chunk is released when it is garbage collected.
 */

import { ChunkSlab, SLAB_PAGE_BITS, SLAB_PAGE_MASK } from './novelty-slab.js';

export const NOVELTY = {
  warmupPoints: 300,
  rangeBlocks: 20,
  rangeBlockPoints: 100,
  rangeScale: 0.1,
  dispersionPoints: 12,
  historyDecay: 0.9998,
  daySlots: 48,
  weekSlots: 336,
  /** slot learning rate per `slotRateSeconds` of sample time */
  slotRate: 0.1,
  slotRateSeconds: 300,
  /** a slot scores from its (slotMinPoints + 1)-th point on */
  slotMinPoints: 2,
  /** per-point weight of the series-wide deviation added to each slot's own */
  seriesDeviationRate: 0.01,
  suppressPoints: 100,
  suppressFrom: 0.5,
  /** context expert: levels of the quantised value, context lengths 2..orders+1, table slots */
  contextLevels: 4,
  contextOrders: 6,
  contextSlots: 512,
  /** points of the context expert's short mean of unseen fractions (HTM's averaging window) */
  contextMeanPoints: 10,
  /** run expert: scores once, when a run of one exact value becomes this much longer than the longest before */
  runExcess: 0.2,
  /** the longest earlier run counts from this many points on */
  runMinPoints: 10,
} as const;

const DAY_S = 86_400;
const WEEK_S = 7 * DAY_S;
// 1970-01-01 was a Thursday: shift so that week slot 0 starts on Monday 00:00 UTC
const WEEK_SHIFT_S = 3 * DAY_S;

// layout of the Float32 state: a profile slot's mean, deviation and count side by side (one
// cache line per point and profile), then the range blocks and the dispersion ring
const SLOT_MEAN = 0;
const SLOT_DEV = 1;
const SLOT_CNT = 2;
const SLOT_SIZE = 3;
const DAY = 0;
const WEEK = DAY + SLOT_SIZE * NOVELTY.daySlots;
const B_MAX = WEEK + SLOT_SIZE * NOVELTY.weekSlots;
const B_MIN = B_MAX + NOVELTY.rangeBlocks;
const V_RING = B_MIN + NOVELTY.rangeBlocks;
const F32_SIZE = V_RING + NOVELTY.dispersionPoints;

// layout of the Float64 scalars
const S_POINTS = 0; // points seen
const S_LAST_X = 1; // previous point's time (s)
const S_OPEN_MAX = 2; // extremes of the open range block
const S_OPEN_MIN = 3;
const S_BLOCKS = 4; // completed range blocks held (<= rangeBlocks)
const S_V_SUM = 5; // sum of the dispersion ring
const S_V_COUNT = 6;
const S_H_DISP = 7; // decaying maxima of the calibrated experts (NaN: none yet)
const S_H_DAY = 8;
const S_H_WEEK = 9;
const S_DAY_DEV = 10; // series-wide deviations of the day and week profiles
const S_WEEK_DEV = 11;
const S_LAST_HOLD = 12; // index of the last point that scored >= suppressFrom
const S_HOLD_SCORE = 13;
const S_BLOCK_HEAD = 14; // ring position of the oldest completed block
const S_EXPERTS = 15; // the last point's six expert scores (range, dispersion, day, week, context, run)
const S_Q_MIN = 21; // the extremes seen so far, which the context expert quantises against
const S_Q_MAX = 22;
const S_CTX_MEAN = 23; // short mean of the context expert's unseen fraction
const S_H_CTX = 24; // its decaying maximum (NaN: none yet)
const S_RUN = 25; // points the value has repeated exactly (0: it just changed)
const S_LONGEST_RUN = 26; // the longest completed run (NaN: none yet)
const S_PREV_Y = 27;
/** the scalars above are the saved ones */
const F64_SAVED = 28;
// the extremes of the closed range blocks, derived from them (kept when a block closes and on a
// restore), so that a point reads two scalars instead of the 20 blocks
const S_CLOSED_MAX = 28;
const S_CLOSED_MIN = 29;
// the context expert's steady level (derived, not saved; -1: none): set when a point found all
// its contexts with its last seven levels all this one, so that a next point of the same level
// has the same six contexts, all still in the table (unseenContexts)
const S_CTX_STEADY = 30;
const F64_SIZE = 31;
const EXPERTS = 6;

// layout of the Int32 context state: the hash table of seen contexts (0: empty), then the ring of
// the last contextOrders + 1 quantised values
const C_KEY = 0;
const C_RING = C_KEY + NOVELTY.contextSlots;
const C_RING_SIZE = NOVELTY.contextOrders + 1;
const I32_SIZE = C_RING + C_RING_SIZE;
const STATE_VERSION = 2;


// a chunk: the scalars first (for their 8-byte alignment), then the Float32 and the Int32 state,
// padded to a multiple of 8 bytes
const F32_AT_BYTE = F64_SIZE * 8;
const I32_AT_BYTE = F32_AT_BYTE + F32_SIZE * 4;
const CHUNK_BYTES = Math.ceil((I32_AT_BYTE + I32_SIZE * 4) / 8) * 8;
/** the Float32 and Int32 parts' element offsets in a chunk */
const F32_AT = F32_AT_BYTE / 4;
const I32_AT = I32_AT_BYTE / 4;

const slab = new ChunkSlab(CHUNK_BYTES);
const F64_STRIDE = slab.f64Stride;
const F32_STRIDE = slab.f32Stride;
const pagesF64 = slab.f64;
const pagesF32 = slab.f32;
const pagesI32 = slab.i32;

/** the last point's expert scores before suppression (0 while warming up) */
export interface NoveltyExperts {
  range: number;
  dispersion: number;
  day: number;
  week: number;
  context: number;
  run: number;
}

export interface NoveltyState {
  v: typeof STATE_VERSION;
  /** the Float32 profiles, range blocks and dispersion ring, base64 */
  profiles: string;
  /** the Int32 context table and ring of quantised values, base64 */
  contexts: string;
  /** the Float64 scalars (JSON null for NaN and ±Infinity) */
  scalars: (number | null)[];
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

/** a fresh state in chunk `id`, which the slab has just zeroed */
function initChunk(id: number): void {
  const f = pagesF32[id >>> SLAB_PAGE_BITS] as Float32Array;
  const s = pagesF64[id >>> SLAB_PAGE_BITS] as Float64Array;
  const fb = (id & SLAB_PAGE_MASK) * F32_STRIDE + F32_AT;
  const sb = (id & SLAB_PAGE_MASK) * F64_STRIDE;
  for (let k = 0; k < NOVELTY.daySlots; k += 1) f[fb + DAY + SLOT_SIZE * k + SLOT_MEAN] = NaN;
  for (let k = 0; k < NOVELTY.weekSlots; k += 1) f[fb + WEEK + SLOT_SIZE * k + SLOT_MEAN] = NaN;
  s[sb + S_LAST_X] = NaN;
  s[sb + S_OPEN_MAX] = -Infinity;
  s[sb + S_OPEN_MIN] = Infinity;
  s[sb + S_CLOSED_MAX] = -Infinity;
  s[sb + S_CLOSED_MIN] = Infinity;
  s[sb + S_H_DISP] = NaN;
  s[sb + S_H_DAY] = NaN;
  s[sb + S_H_WEEK] = NaN;
  s[sb + S_LAST_HOLD] = -1e12;
  s[sb + S_Q_MIN] = Infinity;
  s[sb + S_Q_MAX] = -Infinity;
  s[sb + S_H_CTX] = NaN;
  s[sb + S_LONGEST_RUN] = NaN;
  s[sb + S_PREV_Y] = NaN;
  s[sb + S_CTX_STEADY] = -1;
}

/** chunk `id` all zero, then fresh */
function resetChunk(id: number): void {
  const s = pagesF64[id >>> SLAB_PAGE_BITS] as Float64Array;
  const sb = (id & SLAB_PAGE_MASK) * F64_STRIDE;
  s.fill(0, sb, sb + F64_STRIDE);
  initChunk(id);
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
  const c = pagesI32[page] as Int32Array;
  const at = id & SLAB_PAGE_MASK;
  const sb = at * F64_STRIDE;
  const fb = at * F32_STRIDE + F32_AT;
  if (atSeconds !== TIME_MEMO[MEMO_AT]) memoSlots(atSeconds);
  let sum = 0;
  for (let k = 0; k < F64_SIZE; k += 8) sum += s[sb + k] as number;
  sum += (f[fb + DAY + SLOT_SIZE * ((TIME_MEMO[MEMO_DAY_SLOT] as number) | 0)] as number) + (f[fb + WEEK + SLOT_SIZE * ((TIME_MEMO[MEMO_WEEK_SLOT] as number) | 0)] as number);
  // the dispersion ring (12 Float32 values), once in use: its two ends (the blocks are read only when one closes)
  if ((s[sb + S_V_COUNT] as number) > 0) sum += (f[fb + V_RING] as number) + (f[fb + V_RING + NOVELTY.dispersionPoints - 1] as number);
  return sum + (c[at * F32_STRIDE + I32_AT + C_RING] as number);
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
  const c = pagesI32[page] as Int32Array;
  const at = id & SLAB_PAGE_MASK;
  const sb = at * F64_STRIDE;
  const fb = at * F32_STRIDE + F32_AT;
  const cb = at * F32_STRIDE + I32_AT;
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
  const dDay = profileDeparture(f, fb + DAY + SLOT_SIZE * daySlot, s, sb + S_DAY_DEV, y, rate);
  const dWeek = profileDeparture(f, fb + WEEK + SLOT_SIZE * weekSlot, s, sb + S_WEEK_DEV, y, rate);
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

/** the state of chunk `id`, to persist (version 2) */
export function noveltyToJSON(id: number): NoveltyState {
  const page = id >>> SLAB_PAGE_BITS;
  const s = pagesF64[page] as Float64Array;
  const sb = (id & SLAB_PAGE_MASK) * F64_STRIDE;
  const byteAt = slab.byteOffset(id);
  const scalars: number[] = [];
  for (let k = 0; k < F64_SAVED; k += 1) scalars.push(s[sb + k] as number);
  return {
    v: STATE_VERSION,
    profiles: Buffer.from(s.buffer, byteAt + F32_AT_BYTE, F32_SIZE * 4).toString('base64'),
    contexts: Buffer.from(s.buffer, byteAt + I32_AT_BYTE, I32_SIZE * 4).toString('base64'),
    scalars,
  };
}

/**
 * A new chunk holding the saved state, or a fresh one (warming up again) when `state` is absent or
 * not ours: its id. Give it back with releaseNovelty.
 */
export function noveltyFromJSON(state: unknown): number {
  const id = slab.allocate();
  if (!restoreChunk(id, state)) resetChunk(id);
  return id;
}

/** writes the saved `state` into the zeroed chunk `id`: false (chunk left dirty) when it is not one */
function restoreChunk(id: number, state: unknown): boolean {
  if (typeof state !== 'object' || state === null) return false;
  const st = state as Partial<NoveltyState>;
  if (st.v !== STATE_VERSION || typeof st.profiles !== 'string' || typeof st.contexts !== 'string') return false;
  if (!Array.isArray(st.scalars) || st.scalars.length !== F64_SAVED) return false;
  const bytes = Buffer.from(st.profiles, 'base64');
  const ctxBytes = Buffer.from(st.contexts, 'base64');
  if (bytes.byteLength !== F32_SIZE * 4 || ctxBytes.byteLength !== I32_SIZE * 4) return false;
  const page = id >>> SLAB_PAGE_BITS;
  const s = pagesF64[page] as Float64Array;
  const c = pagesI32[page] as Int32Array;
  const sb = (id & SLAB_PAGE_MASK) * F64_STRIDE;
  const cb = (id & SLAB_PAGE_MASK) * F32_STRIDE + I32_AT;
  const byteAt = slab.byteOffset(id);
  new Uint8Array(s.buffer, byteAt + F32_AT_BYTE, F32_SIZE * 4).set(bytes);
  new Uint8Array(s.buffer, byteAt + I32_AT_BYTE, I32_SIZE * 4).set(ctxBytes);
  // quantised values outside the levels would be contexts the score never makes
  for (let k = C_RING; k < I32_SIZE; k += 1) if (!((c[cb + k] as number) >= 0 && (c[cb + k] as number) < NOVELTY.contextLevels)) return false;
  for (let k = 0; k < F64_SAVED; k += 1) {
    const v: unknown = st.scalars[k];
    // NaN and ±Infinity are meaningful sentinels here; JSON turns them into null
    s[sb + k] = typeof v === 'number' ? v : NaN;
  }
  if (!Number.isFinite(s[sb + S_OPEN_MAX] as number)) s[sb + S_OPEN_MAX] = -Infinity;
  if (!Number.isFinite(s[sb + S_OPEN_MIN] as number)) s[sb + S_OPEN_MIN] = Infinity;
  if (!Number.isFinite(s[sb + S_Q_MIN] as number)) s[sb + S_Q_MIN] = Infinity;
  if (!Number.isFinite(s[sb + S_Q_MAX] as number)) s[sb + S_Q_MAX] = -Infinity;
  // the counters index rings and blocks as int32: whole numbers within their ranges, or not ours
  const counter = (k: number, below: number): boolean => Number.isInteger(s[sb + k]) && (s[sb + k] as number) >= 0 && (s[sb + k] as number) < below;
  if (!counter(S_POINTS, 2 ** 31) || !counter(S_V_COUNT, 2 ** 31) || !counter(S_BLOCKS, NOVELTY.rangeBlocks + 1) || !counter(S_BLOCK_HEAD, NOVELTY.rangeBlocks)) return false;
  closedExtremes(pagesF32[page] as Float32Array, (id & SLAB_PAGE_MASK) * F32_STRIDE + F32_AT, s, sb);
  s[sb + S_CTX_STEADY] = -1;
  return Number.isFinite(s[sb + S_CTX_MEAN] as number) && Number.isFinite(s[sb + S_RUN] as number);
}

/** (key >>> 0) % contextSlots as a mask: the slot count is a power of two */
const CONTEXT_SLOT_MASK = NOVELTY.contextSlots - 1;
if ((NOVELTY.contextSlots & CONTEXT_SLOT_MASK) !== 0) throw new Error('contextSlots must be a power of two');

/**
 * unseen / contextOrders for every count, read from a table: the same quotients, but a double
 * from the start. Returned as an integer division, the quotient let V8 speculate on small-integer
 * results (0 and 1 are all a young series shows) and then bail out of the optimised code each
 * time a fraction came; that bail-out sometimes repeated thousands of times per run.
 */
const UNSEEN_FRACTION = Float64Array.from({ length: NOVELTY.contextOrders + 1 }, (_, k) => k / NOVELTY.contextOrders);

/**
 * Context expert (after CAD OSE): y is quantised into contextLevels levels of [min, max] seen so
 * far; the contexts ending at this point are its last 2, 3, ..., contextOrders + 1 quantised
 * values. Returns the fraction of them not in the table of seen contexts, then remembers them.
 * The table is direct-mapped (a slot holds the hash of the last context that fell in it), so
 * memory is fixed and contexts not met for a while are forgotten when others take their slot.
 */
function unseenContexts(c: Int32Array, cb: number, s: Float64Array, sb: number, y: number, i: number): number {
  if (y < (s[sb + S_Q_MIN] as number)) s[sb + S_Q_MIN] = y;
  if (y > (s[sb + S_Q_MAX] as number)) s[sb + S_Q_MAX] = y;
  const q = levelOf(s[sb + S_Q_MIN] as number, s[sb + S_Q_MAX] as number, y);
  c[cb + C_RING + (i % C_RING_SIZE)] = q;
  if (i < NOVELTY.contextOrders) return 0;
  // the last point found all its contexts, its seven levels all q: with q again, this point's six
  // contexts are those, and the table has not changed since (that point wrote nothing)
  if (q === s[sb + S_CTX_STEADY]) return 0;
  let h = contextSeed(q);
  let unseen = 0;
  for (let k = 1; k <= NOVELTY.contextOrders; k += 1) {
    // the context of length k + 1: the previous one extended by the value k points back
    h = extendContext(h, c[cb + C_RING + ((i - k) % C_RING_SIZE)] as number, k);
    const key = h === 0 ? 1 : h;
    const slot = cb + C_KEY + (key & CONTEXT_SLOT_MASK);
    if (c[slot] !== key) {
      unseen += 1;
      c[slot] = key;
    }
  }
  // steady only when nothing was written: two of the six contexts sharing a slot would evict each
  // other at every point (with today's hash no level's six do; the check keeps it exact regardless)
  s[sb + S_CTX_STEADY] = unseen === 0 && sameLevels(c, cb, q) ? q : -1;
  return UNSEEN_FRACTION[unseen] as number;
}

/** whether the ring's contextOrders + 1 levels are all `q` */
function sameLevels(c: Int32Array, cb: number, q: number): boolean {
  for (let k = 0; k < C_RING_SIZE; k += 1) if (c[cb + C_RING + k] !== q) return false;
  return true;
}

/** the hash of the context of one level, the current one (extended by extendContext) */
function contextSeed(level: number): number {
  return Math.imul(level + 1, 0x9e3779b1);
}

/** the hash of a context extended by `level`, the quantised value k points back */
function extendContext(h: number, level: number, k: number): number {
  let e = Math.imul(h ^ (level + 1 + (k << 8)), 0x85ebca6b);
  e ^= e >>> 13;
  e = Math.imul(e, 0xc2b2ae35);
  return e ^ (e >>> 16);
}

/**
 * Reads the context table slots that observeNovelty will look up for the value `y` in chunk `id`
 * and returns their sum (group prefetching, as touchNovelty; these slots are where the misses
 * are: six places of a 2 KB table). Changes no state.
 */
export function touchNoveltyContexts(id: number, y: number): number {
  if (!Number.isFinite(y)) return 0;
  const page = id >>> SLAB_PAGE_BITS;
  const s = pagesF64[page] as Float64Array;
  const c = pagesI32[page] as Int32Array;
  const at = id & SLAB_PAGE_MASK;
  const sb = at * F64_STRIDE;
  const cb = at * F32_STRIDE + I32_AT;
  const i = (s[sb + S_POINTS] as number) | 0;
  if (i < NOVELTY.contextOrders) return 0;
  // the extremes as unseenContexts will hold them, y included
  const q = levelOf(Math.min(s[sb + S_Q_MIN] as number, y), Math.max(s[sb + S_Q_MAX] as number, y), y);
  // a steady level's contexts are not looked up (unseenContexts)
  if (q === s[sb + S_CTX_STEADY]) return 0;
  let h = contextSeed(q);
  let sum = 0;
  for (let k = 1; k <= NOVELTY.contextOrders; k += 1) {
    h = extendContext(h, c[cb + C_RING + ((i - k) % C_RING_SIZE)] as number, k);
    sum += c[cb + C_KEY + ((h === 0 ? 1 : h) & CONTEXT_SLOT_MASK)] as number;
  }
  return sum;
}

/** y's level among contextLevels levels of [lo, hi] (the extremes seen so far, which include y) */
function levelOf(lo: number, hi: number, y: number): number {
  const span = hi - lo;
  const levels = NOVELTY.contextLevels;
  const level = Math.floor(((y - lo) / span) * levels);
  // one level while the span is 0, and a defined one should the span overflow
  return level >= 0 ? Math.min(levels - 1, level) : 0;
}



/**
 * Run expert: how much longer than the longest earlier run (>= runMinPoints) the current run of
 * one exact value is, in units of that run, at the one point where it first exceeds it by
 * runExcess (a stuck value reported once); 0 elsewhere.
 */
function runExcess(s: Float64Array, sb: number, y: number): number {
  const prev = s[sb + S_RUN] as number;
  let longest = s[sb + S_LONGEST_RUN] as number;
  let run = 0;
  if (y === s[sb + S_PREV_Y]) run = prev + 1;
  else if (prev > 0 && !(prev <= longest)) longest = prev;
  s[sb + S_RUN] = run;
  s[sb + S_LONGEST_RUN] = longest;
  s[sb + S_PREV_Y] = y;
  if (!(longest >= NOVELTY.runMinPoints)) return 0;
  const excess = (run - longest) / longest;
  const before = (run - 1 - longest) / longest;
  return excess > NOVELTY.runExcess && !(before > NOVELTY.runExcess) ? excess : 0;
}

/**
 * outside the previous points' [min, max], in units of that range; 0 inside or without history.
 * [min, max] is the open block's extremes widened by the closed blocks' (S_CLOSED_*): the same
 * comparisons as over each block in turn, so the same values.
 */
function rangeDeparture(s: Float64Array, sb: number, y: number): number {
  let hi = s[sb + S_OPEN_MAX] as number;
  let lo = s[sb + S_OPEN_MIN] as number;
  const closedMax = s[sb + S_CLOSED_MAX] as number;
  const closedMin = s[sb + S_CLOSED_MIN] as number;
  if (closedMax > hi) hi = closedMax;
  if (closedMin < lo) lo = closedMin;
  if (!(hi >= lo)) return 0;
  const range = Math.max(hi - lo, 1e-9 + Math.abs(hi) * 1e-6);
  if (y > hi) return (y - hi) / range;
  if (y < lo) return (lo - y) / range;
  return 0;
}

function pushRange(f: Float32Array, fb: number, s: Float64Array, sb: number, y: number): void {
  if (y > (s[sb + S_OPEN_MAX] as number)) s[sb + S_OPEN_MAX] = y;
  if (y < (s[sb + S_OPEN_MIN] as number)) s[sb + S_OPEN_MIN] = y;
  // the open block closes after rangeBlockPoints points and replaces the oldest closed one
  if ((((s[sb + S_POINTS] as number) | 0) + 1) % NOVELTY.rangeBlockPoints === 0) closeRangeBlock(f, fb, s, sb);
}

/** once per rangeBlockPoints points, out of pushRange's line (which stays small enough to inline) */
function closeRangeBlock(f: Float32Array, fb: number, s: Float64Array, sb: number): void {
  const blocks = (s[sb + S_BLOCKS] as number) | 0;
  let slot: number;
  if (blocks < NOVELTY.rangeBlocks) {
    slot = blocks;
    s[sb + S_BLOCKS] = blocks + 1;
  } else {
    slot = (s[sb + S_BLOCK_HEAD] as number) | 0;
    s[sb + S_BLOCK_HEAD] = (slot + 1) % NOVELTY.rangeBlocks;
  }
  f[fb + B_MAX + slot] = s[sb + S_OPEN_MAX] as number;
  f[fb + B_MIN + slot] = s[sb + S_OPEN_MIN] as number;
  s[sb + S_OPEN_MAX] = -Infinity;
  s[sb + S_OPEN_MIN] = Infinity;
  closedExtremes(f, fb, s, sb);
}

/** S_CLOSED_MAX and S_CLOSED_MIN from the held blocks (a block that is not a number never widens them) */
function closedExtremes(f: Float32Array, fb: number, s: Float64Array, sb: number): void {
  let hi = -Infinity;
  let lo = Infinity;
  const blocks = (s[sb + S_BLOCKS] as number) | 0;
  for (let b = 0; b < blocks; b += 1) {
    const mx = f[fb + B_MAX + b] as number;
    const mn = f[fb + B_MIN + b] as number;
    if (mx > hi) hi = mx;
    if (mn < lo) lo = mn;
  }
  s[sb + S_CLOSED_MAX] = hi;
  s[sb + S_CLOSED_MIN] = lo;
}

/** mean |y - median| over the last dispersionPoints points (0 until the median is known) */
function dispersion(f: Float32Array, fb: number, s: Float64Array, sb: number, y: number, median: number): number {
  if (!Number.isFinite(median)) return 0;
  const a = Math.abs(y - median);
  const count = (s[sb + S_V_COUNT] as number) | 0;
  const slot = fb + V_RING + (count % NOVELTY.dispersionPoints);
  let sum = s[sb + S_V_SUM] as number;
  if (count >= NOVELTY.dispersionPoints) sum -= f[slot] as number;
  f[slot] = a;
  sum += f[slot] as number; // the stored (Float32) value, so the sum cancels exactly on eviction
  s[sb + S_V_COUNT] = count + 1;
  // recompute from the ring now and then to bound rounding drift
  if ((count + 1) % 4096 === 0) sum = dispersionRingSum(f, fb);
  s[sb + S_V_SUM] = sum;
  return sum / Math.min(count + 1, NOVELTY.dispersionPoints);
}

/** the dispersion ring's exact sum (every 4096 points, out of dispersion's line) */
function dispersionRingSum(f: Float32Array, fb: number): number {
  let sum = 0;
  for (let k = 0; k < NOVELTY.dispersionPoints; k += 1) sum += f[fb + V_RING + k] as number;
  return sum;
}

/**
 * Departure from the profile slot at `slotAt` (Float32 element of its mean), then the slot and the
 * series deviation (Float64 element `seriesDevAt`) learn y.
 */
function profileDeparture(f: Float32Array, slotAt: number, s: Float64Array, seriesDevAt: number, y: number, rate: number): number {
  const meanAt = slotAt + SLOT_MEAN;
  const devAt = slotAt + SLOT_DEV;
  const countAt = slotAt + SLOT_CNT;
  const mean = f[meanAt] as number;
  const seen = Math.min((f[countAt] as number) + 1, 255);
  f[countAt] = seen;
  if (!Number.isFinite(mean)) {
    f[meanAt] = y;
    return 0;
  }
  const e = Math.abs(y - mean);
  const d = seen > NOVELTY.slotMinPoints ? e / ((f[devAt] as number) + (s[seriesDevAt] as number) + 1e-9) : 0;
  f[devAt] = (1 - rate) * (f[devAt] as number) + rate * e;
  f[meanAt] = (1 - rate) * mean + rate * y;
  s[seriesDevAt] = (1 - NOVELTY.seriesDeviationRate) * (s[seriesDevAt] as number) + NOVELTY.seriesDeviationRate * e;
  return Number.isFinite(d) ? d : 0;
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
