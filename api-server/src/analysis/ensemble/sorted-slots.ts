/**
 * The last `capacity` values kept both in arrival order (a ring) and sorted, as functions over
 * regions of a Float64Array and a Uint16Array: the median is O(1) to read, the median absolute
 * deviation O(log W), and an update costs O(W) moves of 16-bit positions with no allocation.
 *
 * Regions: four scalars at `meta` (ring head, count, where the last deviation search ended, the
 * values' kind) and the ring at `ring`: doubles of the Float64Array `d`, or floats of the same
 * memory (sortedUseFloats; a series' window: 4 bytes a value, docs/memory.md); the sorted order at
 * `sorted` in the Uint16Array `p`: the ring's positions ordered by their values, each the offset of
 * a value from `ring` (slot k at k * stride), so the k-th smallest value is element
 * ring + p[sorted + k] of the ring's kind. Two bytes a value instead of
 * the eight of a sorted copy of the values (docs/memory.md); the searches read each value through
 * its position. Each region has room for at least count + 1 values while the window fills (the
 * ring is the prefix [0, count) then, head 0) and exactly `capacity` once full; capacity x stride
 * is at most 65 536. Zeros are an empty window. A stride of 2 leaves every other element to a ring
 * of the same positions (a series keeps its sample times there, in the same cache line as the
 * values).
 *
 * The positions are a permutation of the ring's slots, ordered by value (values equal by `<`, +0 and
 * -0 among them, in any order): the value at each position is the ring's, so the median and the
 * deviation read exactly the window's values.
 */
import { floatFromHalves, setFloatHalves } from '../packed/sixteen-bit.js';

const HEAD = 0;
const N = 1;
/** where the last median absolute deviation's search ended (a hint: any value gives the same result) */
const HINT = 2;
/** 1: the ring's values are floats (sortedUseFloats); 0: doubles of `d` */
const FLOATS = 3;
/** scalars of a window's `meta` region */
export const SORTED_META = 4;
/** the largest capacity x stride the 16-bit positions address */
export const SORTED_MAX_SPAN = 1 << 16;

export function sortedCount(d: Float64Array, meta: number): number {
  return d[meta + N] as number;
}

/**
 * Whether the ring's values are floats: element k of the ring is then the float at bytes 4(ring + k)
 * of the memory `p` views (its halves at p[2(ring + k)], packed/sixteen-bit.ts), so `p` must view
 * `d`'s bytes from d's first; else (the default of a region of zeros) doubles, d[ring + k]. Set
 * while the window is empty, or by an owner that has moved its values to the other kind.
 */
export function sortedUseFloats(d: Float64Array, meta: number, floats: boolean): void {
  d[meta + FLOATS] = floats ? 1 : 0;
}

/** the value at element `at` of the ring's kind (a float through p's halves, or a double of d) */
function valueAt(d: Float64Array, p: Uint16Array, floats: boolean, at: number): number {
  return floats ? floatFromHalves(p, 2 * at) : (d[at] as number);
}

/** writes v at element `at` of the ring's kind (a float ring stores v rounded to a float) */
function setValueAt(d: Float64Array, p: Uint16Array, floats: boolean, at: number, v: number): void {
  if (floats) setFloatHalves(p, 2 * at, v);
  else d[at] = v;
}

/**
 * First rank whose value is >= v. A branching bisection down to 16 values, then the last levels
 * without a branch on the comparisons (inside one or two cache lines of positions). A search without
 * any branch was slower at 10 000 workloads, probably because the branching one's speculative reads
 * overlap the misses of the first levels (docs/performance.md).
 */
function lowerBound(d: Float64Array, floats: boolean, ring: number, p: Uint16Array, sorted: number, n: number, v: number): number {
  let lo = 0;
  let hi = n;
  while (hi - lo > 16) {
    const mid = (lo + hi) >> 1;
    if (valueAt(d, p, floats, ring + (p[sorted + mid] as number)) < v) lo = mid + 1;
    else hi = mid;
  }
  // the answer is in [lo, lo + len]: step over the first half of the span when its last value is < v
  let len = hi - lo;
  while (len > 1) {
    const half = len >> 1;
    lo += +(valueAt(d, p, floats, ring + (p[sorted + lo + half - 1] as number)) < v) * half;
    len -= half;
  }
  return len === 1 ? lo + +(valueAt(d, p, floats, ring + (p[sorted + lo] as number)) < v) : lo;
}

/**
 * Adds v (in a float ring, a float: Math.fround(v) === v, so that the window holds exactly v);
 * returns the value that left the window to make room, or NaN when none did. When full,
 * the leaving slot's position is moved to v's rank: only the positions between its rank and v's
 * move, by one. Its rank is found among the values equal to the leaving one (their positions in
 * any order) by its position, without reading values.
 */
export function sortedPush(d: Float64Array, meta: number, ring: number, p: Uint16Array, sorted: number, capacity: number, v: number, stride = 1): number {
  // integers held in Float64 memory: `| 0` keeps the index arithmetic in int32
  const n = (d[meta + N] as number) | 0;
  const floats = d[meta + FLOATS] === 1;
  if (n === capacity) {
    const head = (d[meta + HEAD] as number) | 0;
    const slot = head * stride;
    const old = valueAt(d, p, floats, ring + slot);
    d[meta + HEAD] = head + 1 === capacity ? 0 : head + 1;
    // the value leaving is the value entering (a flat series): the positions stay as they are
    // (Object.is: a zero keeps its sign)
    if (Object.is(old, v)) return old;
    // both ranks found while the slot still holds the leaving value
    let from = lowerBound(d, floats, ring, p, sorted, n, old);
    while ((p[sorted + from] as number) !== slot) from += 1;
    const to = lowerBound(d, floats, ring, p, sorted, n, v);
    if (v < old) {
      p.copyWithin(sorted + to + 1, sorted + to, sorted + from);
      p[sorted + to] = slot;
    } else {
      if (to > from) p.copyWithin(sorted + from, sorted + from + 1, sorted + to);
      p[sorted + Math.max(from, to - 1)] = slot;
    }
    setValueAt(d, p, floats, ring + slot, v);
    return old;
  }
  // filling: nothing evicted yet, so the ring is the prefix [0, n)
  const at = lowerBound(d, floats, ring, p, sorted, n, v);
  p.copyWithin(sorted + at + 1, sorted + at, sorted + n);
  p[sorted + at] = n * stride;
  setValueAt(d, p, floats, ring + n * stride, v);
  d[meta + N] = n + 1;
  return Number.NaN;
}

/** the ring element the next push writes: after the newest value, or the oldest's once full */
export function sortedNextRingAt(d: Float64Array, meta: number, ring: number, capacity: number, stride = 1): number {
  const n = (d[meta + N] as number) | 0;
  return ring + (n === capacity ? (d[meta + HEAD] as number) | 0 : n) * stride;
}

/** the element of `p` holding the middle rank's position (where the median is read) */
export function sortedMiddleAt(d: Float64Array, meta: number, sorted: number): number {
  return sorted + (((d[meta + N] as number) | 0) >> 1);
}

/** the k-th smallest value of the window (k < count) */
export function sortedRankValue(d: Float64Array, meta: number, ring: number, p: Uint16Array, sorted: number, k: number): number {
  return valueAt(d, p, d[meta + FLOATS] === 1, ring + (p[sorted + k] as number));
}

export function sortedMedian(d: Float64Array, meta: number, ring: number, p: Uint16Array, sorted: number): number {
  const n = (d[meta + N] as number) | 0;
  if (n === 0) return 0;
  const mid = n >> 1;
  const floats = d[meta + FLOATS] === 1;
  const upper = valueAt(d, p, floats, ring + (p[sorted + mid] as number));
  return n % 2 === 1 ? upper : (valueAt(d, p, floats, ring + (p[sorted + mid - 1] as number)) + upper) / 2;
}

/**
 * Median of |x - center| over the window. The deviations left of `center` grow leftwards and those
 * right of it grow rightwards: two sorted runs, whose k-th smallest element a binary search finds
 * in O(log W) without a scratch array. An even count needs the k-th and the (k-1)-th: one search
 * gives both (kthDeviation leaves the second in BELOW).
 */
export function sortedMedianAbsDeviation(d: Float64Array, meta: number, ring: number, p: Uint16Array, sorted: number, center: number): number {
  const n = (d[meta + N] as number) | 0;
  if (n === 0) return 0;
  const floats = d[meta + FLOATS] === 1;
  const split = splitAt(d, floats, ring, p, sorted, n, center);
  const k = n >> 1;
  const upper = kthDeviation(d, floats, meta, ring, p, sorted, n, center, split, k);
  return n % 2 === 1 ? upper : ((BELOW[0] as number) + upper) / 2;
}

/**
 * sortedMedianAbsDeviation about a center of +0 of a window whose values are all +0 (count >= 1),
 * without reading the window: +0, and the search hint set where kthDeviation would leave it (its
 * first probe finds the answer, at the hint clamped to the valid range).
 */
export function sortedZeroDeviation(d: Float64Array, meta: number): number {
  const n = (d[meta + N] as number) | 0;
  const split = n >> 1;
  const take = split + 1;
  const lo = Math.max(0, take - (n - split));
  const hi = Math.min(take, split);
  const hint = (d[meta + HINT] as number) | 0;
  d[meta + HINT] = hint < lo ? lo : hint > hi ? hi : hint;
  return 0;
}

/**
 * A rank that splits the window into values <= `center` below it and values >= `center` from it
 * on: the middle when `center` lies between the two middle values (the usual call, `center` being
 * the median: one comparison pair instead of a search), else lowerBound(center). Values equal to
 * `center` deviate by 0 on either side, so every such split gives the deviations the same values.
 */
function splitAt(d: Float64Array, floats: boolean, ring: number, p: Uint16Array, sorted: number, n: number, center: number): number {
  const mid = n >> 1;
  if (valueAt(d, p, floats, ring + (p[sorted + mid] as number)) >= center && (mid === 0 || valueAt(d, p, floats, ring + (p[sorted + mid - 1] as number)) <= center)) return mid;
  return lowerBound(d, floats, ring, p, sorted, n, center);
}

/** the ring slot of the k-th oldest value (0 = oldest), k < count: its element is ring + slot * stride */
export function sortedSlotOf(d: Float64Array, meta: number, capacity: number, k: number): number {
  const i = ((d[meta + HEAD] as number) | 0) + k;
  return i >= capacity ? i - capacity : i;
}

/** the k-th oldest value (0 = oldest), k < count */
export function sortedAt(d: Float64Array, meta: number, ring: number, p: Uint16Array, capacity: number, k: number, stride = 1): number {
  return sortedSlotValue(d, meta, ring, p, sortedSlotOf(d, meta, capacity, k), stride);
}

/** the value in ring slot `slot` (sortedSlotOf) */
export function sortedSlotValue(d: Float64Array, meta: number, ring: number, p: Uint16Array, slot: number, stride = 1): number {
  return valueAt(d, p, d[meta + FLOATS] === 1, ring + slot * stride);
}

/** where kthDeviation leaves the (k-1)-th smallest deviation (k >= 1) */
const BELOW = new Float64Array(1);

/**
 * The k-th smallest (0-based) of the left run L_i = center - value(split - 1 - i) and the right
 * run R_j = value(split + j) - center (value(r): the value of rank r): take i from L and k + 1 - i
 * from R such that neither run's last taken element exceeds the other's first untaken one. The
 * k + 1 taken are the k + 1 smallest: the k-th is the largest of them, and the (k-1)-th, left in
 * BELOW when k >= 1, the second largest (the element before the largest in its run, or the other
 * run's last taken). The search starts where the window's last one ended (the HINT scalar at
 * `meta`) and gallops outwards (1, 2, 4, ... positions) while the answer lies the same way, then
 * bisects what is left: one point in and one out move the answer by a position or two. Where it
 * starts changes only how many probes it takes (the k + 1 smallest are the same values for every
 * valid split).
 */
function kthDeviation(d: Float64Array, floats: boolean, meta: number, ring: number, p: Uint16Array, s: number, n: number, center: number, split: number, k: number): number {
  const nLeft = split;
  const nRight = n - split;
  const take = k + 1;
  let lo = Math.max(0, take - nRight);
  let hi = Math.min(take, nLeft);
  const hint = (d[meta + HINT] as number) | 0;
  let i = hint < lo ? lo : hint > hi ? hi : hint;
  let step = 1;
  // -1 or 1 while galloping that way, 0 before the first step, 2 once bisecting
  let way = 0;
  while (lo <= hi) {
    const j = take - i;
    const leftLast = i > 0 ? center - valueAt(d, p, floats, ring + (p[s + split - i] as number)) : Number.NEGATIVE_INFINITY;
    const leftNext = i < nLeft ? center - valueAt(d, p, floats, ring + (p[s + split - 1 - i] as number)) : Number.POSITIVE_INFINITY;
    const rightLast = j > 0 ? valueAt(d, p, floats, ring + (p[s + split + j - 1] as number)) - center : Number.NEGATIVE_INFINITY;
    const rightNext = j < nRight ? valueAt(d, p, floats, ring + (p[s + split + j] as number)) - center : Number.POSITIVE_INFINITY;
    if (leftLast > rightNext) {
      // the answer is left of i
      hi = i - 1;
      if ((way === 0 || way === -1) && i - step >= lo) {
        way = -1;
        i -= step;
        step <<= 1;
        continue;
      }
      way = 2;
    } else if (rightLast > leftNext) {
      lo = i + 1;
      if ((way === 0 || way === 1) && i + step <= hi) {
        way = 1;
        i += step;
        step <<= 1;
        continue;
      }
      way = 2;
    } else {
      d[meta + HINT] = i;
      if (leftLast >= rightLast) {
        const beforeLeft = i > 1 ? center - valueAt(d, p, floats, ring + (p[s + split - i + 1] as number)) : Number.NEGATIVE_INFINITY;
        BELOW[0] = Math.max(beforeLeft, rightLast);
      } else {
        const beforeRight = j > 1 ? valueAt(d, p, floats, ring + (p[s + split + j - 2] as number)) - center : Number.NEGATIVE_INFINITY;
        BELOW[0] = Math.max(leftLast, beforeRight);
      }
      return Math.max(leftLast, rightLast);
    }
    i = (lo + hi) >> 1;
  }
  return 0; // unreachable for 0 <= k < n
}
