/**
 * The last `capacity` values kept both in arrival order (a ring) and sorted, as functions over
 * regions of a Float64Array: the median is O(1) to read, the median absolute deviation O(log W),
 * and an update costs O(W) memory moves with no allocation.
 *
 * Regions: two scalars at `meta` (ring head, count), the ring at `ring` and the sorted copy at
 * `sorted`, each with room for at least count + 1 values while the window fills (the ring is the
 * prefix [0, count) then, head 0) and exactly `capacity` once full. Zeros are an empty window.
 */
const HEAD = 0;
const N = 1;
/** scalars of a window's `meta` region */
export const SORTED_META = 2;

export function sortedCount(d: Float64Array, meta: number): number {
  return d[meta + N] as number;
}

/** first position in the sorted copy whose value is >= v */
function lowerBound(d: Float64Array, sorted: number, n: number, v: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((d[sorted + mid] as number) < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Adds v; returns the value that left the window to make room, or NaN when none did. When full,
 * the leaving value's slot in the sorted copy is reused: only the values between its position and
 * v's move, by one.
 */
export function sortedPush(d: Float64Array, meta: number, ring: number, sorted: number, capacity: number, v: number): number {
  // integers held in Float64 memory: `| 0` keeps the index arithmetic in int32
  const n = (d[meta + N] as number) | 0;
  if (n === capacity) {
    const head = (d[meta + HEAD] as number) | 0;
    const old = d[ring + head] as number;
    d[ring + head] = v;
    d[meta + HEAD] = head + 1 === capacity ? 0 : head + 1;
    const from = lowerBound(d, sorted, n, old);
    const to = lowerBound(d, sorted, n, v);
    if (v < old) {
      d.copyWithin(sorted + to + 1, sorted + to, sorted + from);
      d[sorted + to] = v;
    } else {
      if (to > from) d.copyWithin(sorted + from, sorted + from + 1, sorted + to);
      d[sorted + Math.max(from, to - 1)] = v;
    }
    return old;
  }
  // filling: nothing evicted yet, so the ring is the prefix [0, n)
  d[ring + n] = v;
  const at = lowerBound(d, sorted, n, v);
  d.copyWithin(sorted + at + 1, sorted + at, sorted + n);
  d[sorted + at] = v;
  d[meta + N] = n + 1;
  return Number.NaN;
}

/** the ring element the next push writes: after the newest value, or the oldest's once full */
export function sortedNextRingAt(d: Float64Array, meta: number, ring: number, capacity: number): number {
  const n = (d[meta + N] as number) | 0;
  return ring + (n === capacity ? (d[meta + HEAD] as number) | 0 : n);
}

/** the element of the sorted copy in the middle of the window (where the median is read) */
export function sortedMiddleAt(d: Float64Array, meta: number, sorted: number): number {
  return sorted + (((d[meta + N] as number) | 0) >> 1);
}

export function sortedMedian(d: Float64Array, meta: number, sorted: number): number {
  const n = (d[meta + N] as number) | 0;
  if (n === 0) return 0;
  const mid = n >> 1;
  return n % 2 === 1 ? (d[sorted + mid] as number) : ((d[sorted + mid - 1] as number) + (d[sorted + mid] as number)) / 2;
}

/**
 * Median of |x - center| over the window. The deviations left of `center` grow leftwards and those
 * right of it grow rightwards: two sorted runs, whose k-th smallest element a binary search finds
 * in O(log W) without a scratch array.
 */
export function sortedMedianAbsDeviation(d: Float64Array, meta: number, sorted: number, center: number): number {
  const n = (d[meta + N] as number) | 0;
  if (n === 0) return 0;
  const split = lowerBound(d, sorted, n, center);
  const k = n >> 1;
  const upper = kthDeviation(d, sorted, n, center, split, k);
  return n % 2 === 1 ? upper : (kthDeviation(d, sorted, n, center, split, k - 1) + upper) / 2;
}

/** the k-th oldest value (0 = oldest), k < count */
export function sortedAt(d: Float64Array, meta: number, ring: number, capacity: number, k: number): number {
  const i = ((d[meta + HEAD] as number) | 0) + k;
  return d[ring + (i >= capacity ? i - capacity : i)] as number;
}

/**
 * The k-th smallest (0-based) of the left run L_i = center - sorted[split - 1 - i] and the right
 * run R_j = sorted[split + j] - center: take i from L and k + 1 - i from R such that neither run's
 * last taken element exceeds the other's first untaken one.
 */
function kthDeviation(d: Float64Array, s: number, n: number, center: number, split: number, k: number): number {
  const nLeft = split;
  const nRight = n - split;
  const take = k + 1;
  let lo = Math.max(0, take - nRight);
  let hi = Math.min(take, nLeft);
  while (lo <= hi) {
    const i = (lo + hi) >> 1;
    const j = take - i;
    const leftLast = i > 0 ? center - (d[s + split - i] as number) : Number.NEGATIVE_INFINITY;
    const leftNext = i < nLeft ? center - (d[s + split - 1 - i] as number) : Number.POSITIVE_INFINITY;
    const rightLast = j > 0 ? (d[s + split + j - 1] as number) - center : Number.NEGATIVE_INFINITY;
    const rightNext = j < nRight ? (d[s + split + j] as number) - center : Number.POSITIVE_INFINITY;
    if (leftLast > rightNext) hi = i - 1;
    else if (rightLast > leftNext) lo = i + 1;
    else return Math.max(leftLast, rightLast);
  }
  return 0; // unreachable for 0 <= k < n
}
