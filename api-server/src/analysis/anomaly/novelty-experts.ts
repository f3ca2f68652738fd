/**
 * The six experts of the novelty score (novelty-score.ts), each over the state of one chunk: the
 * context expert (quantised levels, the table of seen contexts), run, range (blocks of extremes),
 * dispersion and the day / week profiles. Hot path: no allocation; chunk views and offsets are
 * passed in by the caller.
 */
import { NOVELTY, P_MEAN, P_DEV, SLOT_COUNT_MAX, B_MAX, B_MIN, V_RING, S_POINTS, S_OPEN_MAX, S_OPEN_MIN, S_BLOCKS, S_V_SUM, S_V_COUNT, S_BLOCK_HEAD, S_Q_MIN, S_Q_MAX, S_RUN, S_LONGEST_RUN, S_PREV_Y, S_CLOSED_MAX, S_CLOSED_MIN, S_CTX_STEADY, C_KEY, C_RING, C_RING_SIZE, U16_AT, F64_STRIDE, U16_STRIDE, pagesF64, pagesU16 } from './novelty-layout.js';
import { deviationFrom16, deviationTo16, floatFromHalves, setFloatHalves } from '../packed/sixteen-bit.js';
import { SLAB_PAGE_BITS, SLAB_PAGE_MASK } from './novelty-slab.js';
import { CONTEXT_SLOT_MASK, contextKey, contextSeed, contextTag, extendContext } from './novelty-contexts.js';

export { CONTEXT_SLOT_MASK, contextSeed, extendContext } from './novelty-contexts.js';

/**
 * unseen / contextOrders for every count, read from a table: the same quotients, but a double
 * from the start. Returned as an integer division, the quotient let V8 speculate on small-integer
 * results (0 and 1 are all a young series shows) and then bail out of the optimised code each
 * time a fraction came; that bail-out sometimes repeated thousands of times per run.
 */
export const UNSEEN_FRACTION = Float64Array.from({ length: NOVELTY.contextOrders + 1 }, (_, k) => k / NOVELTY.contextOrders);

/**
 * Context expert (after CAD OSE): y is quantised into contextLevels levels of [min, max] seen so
 * far; the contexts ending at this point are its last 2, 3, ..., contextOrders + 1 quantised
 * values. Returns the fraction of them not in the table of seen contexts, then remembers them.
 * The table is direct-mapped (a slot holds the hash of the last context that fell in it), so
 * memory is fixed and contexts not met for a while are forgotten when others take their slot.
 */
export function unseenContexts(c: Uint16Array, cb: number, s: Float64Array, sb: number, y: number, i: number): number {
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
    const key = contextKey(h);
    // the slot keeps the key's 16-bit tag, which tells apart every two contexts of a slot (novelty-contexts.ts)
    const slot = cb + C_KEY + (key & CONTEXT_SLOT_MASK);
    const tag = contextTag(key);
    if (c[slot] !== tag) {
      unseen += 1;
      c[slot] = tag;
    }
  }
  // steady only when nothing was written: two of the six contexts sharing a slot would evict each
  // other at every point (with today's hash no level's six do; the check keeps it exact regardless)
  s[sb + S_CTX_STEADY] = unseen === 0 && sameLevels(c, cb, q) ? q : -1;
  return UNSEEN_FRACTION[unseen] as number;
}

/** whether the ring's contextOrders + 1 levels are all `q` */
export function sameLevels(c: Uint16Array, cb: number, q: number): boolean {
  for (let k = 0; k < C_RING_SIZE; k += 1) if (c[cb + C_RING + k] !== q) return false;
  return true;
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
  const c = pagesU16[page] as Uint16Array;
  const at = id & SLAB_PAGE_MASK;
  const sb = at * F64_STRIDE;
  const cb = at * U16_STRIDE + U16_AT;
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
    sum += c[cb + C_KEY + (contextKey(h) & CONTEXT_SLOT_MASK)] as number;
  }
  return sum;
}

/** y's level among contextLevels levels of [lo, hi] (the extremes seen so far, which include y) */
export function levelOf(lo: number, hi: number, y: number): number {
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
export function runExcess(s: Float64Array, sb: number, y: number): number {
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
export function rangeDeparture(s: Float64Array, sb: number, y: number): number {
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

export function pushRange(f: Float32Array, fb: number, s: Float64Array, sb: number, y: number): void {
  if (y > (s[sb + S_OPEN_MAX] as number)) s[sb + S_OPEN_MAX] = y;
  if (y < (s[sb + S_OPEN_MIN] as number)) s[sb + S_OPEN_MIN] = y;
  // the open block closes after rangeBlockPoints points and replaces the oldest closed one
  if ((((s[sb + S_POINTS] as number) | 0) + 1) % NOVELTY.rangeBlockPoints === 0) closeRangeBlock(f, fb, s, sb);
}

/** once per rangeBlockPoints points, out of pushRange's line (which stays small enough to inline) */
export function closeRangeBlock(f: Float32Array, fb: number, s: Float64Array, sb: number): void {
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
export function closedExtremes(f: Float32Array, fb: number, s: Float64Array, sb: number): void {
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
export function dispersion(f: Float32Array, fb: number, s: Float64Array, sb: number, y: number, median: number): number {
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
export function dispersionRingSum(f: Float32Array, fb: number): number {
  let sum = 0;
  for (let k = 0; k < NOVELTY.dispersionPoints; k += 1) sum += f[fb + V_RING + k] as number;
  return sum;
}

/**
 * Departure from the profile slot at `slotAt` (the Uint16 element where its mean's halves start,
 * its deviation after them: novelty-layout.ts P_SLOT), then the slot and the series deviation
 * (Float64 element `seriesDevAt`) learn y. The mean is a float, the deviation 16 bits
 * (packed/sixteen-bit.ts): the departure reads both as stored.
 */
export function profileDeparture(p: Uint16Array, slotAt: number, counts: Uint8Array, countAt: number, s: Float64Array, seriesDevAt: number, y: number, rate: number): number {
  const meanAt = slotAt + P_MEAN;
  const devAt = slotAt + P_DEV;
  const mean = floatFromHalves(p, meanAt);
  const seen = Math.min((counts[countAt] as number) + 1, SLOT_COUNT_MAX);
  counts[countAt] = seen;
  if (!Number.isFinite(mean)) {
    setFloatHalves(p, meanAt, y);
    return 0;
  }
  const e = Math.abs(y - mean);
  const dev = deviationFrom16(p[devAt] as number);
  const d = seen > NOVELTY.slotMinPoints ? e / (dev + (s[seriesDevAt] as number) + 1e-9) : 0;
  p[devAt] = deviationTo16((1 - rate) * dev + rate * e);
  setFloatHalves(p, meanAt, (1 - rate) * mean + rate * y);
  s[seriesDevAt] = (1 - NOVELTY.seriesDeviationRate) * (s[seriesDevAt] as number) + NOVELTY.seriesDeviationRate * e;
  return Number.isFinite(d) ? d : 0;
}

