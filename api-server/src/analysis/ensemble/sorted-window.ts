/**
 * The last W values, kept both in arrival order (a ring) and sorted (binary insertion and removal),
 * so the median is O(1) to read, the median absolute deviation O(log W), and an update costs
 * O(W) memory moves with no allocation.
 *
 * Memory: ring and sorted copy share one Float64Array that starts at 16 slots each and doubles
 * while the window fills (a series seen for a minute does not hold an hour's storage); once W
 * values have arrived it stays at W.
 */
import { grownCapacity } from '../windows/grown-capacity.js';

export class SortedWindow {
  /** [0, room): the ring in arrival order; [room, 2 room): the values sorted */
  private data: Float64Array;
  private room: number;
  private head = 0;
  private n = 0;

  constructor(readonly capacity: number) {
    this.room = grownCapacity(0, capacity);
    this.data = new Float64Array(2 * this.room);
  }

  get count(): number {
    return this.n;
  }

  /**
   * Adds v; returns the value that left the window to make room, or NaN when none did. When full,
   * the leaving value's slot in the sorted copy is reused: only the values between its position
   * and v's move, by one.
   */
  push(v: number): number {
    const d = this.data;
    const s = this.room;
    if (this.n === this.capacity) {
      const old = d[this.head] as number;
      d[this.head] = v;
      this.head = this.head + 1 === this.capacity ? 0 : this.head + 1;
      const from = this.lowerBound(old);
      if (v < old) {
        const to = this.lowerBound(v);
        d.copyWithin(s + to + 1, s + to, s + from);
        d[s + to] = v;
      } else {
        const to = this.lowerBound(v);
        if (to > from) d.copyWithin(s + from, s + from + 1, s + to);
        d[s + Math.max(from, to - 1)] = v;
      }
      return old;
    }
    // filling: nothing evicted yet, so the ring is the prefix [0, n)
    if (this.n === this.room) this.grow();
    const filling = this.data;
    const room = this.room;
    filling[this.n] = v;
    const at = this.lowerBound(v);
    filling.copyWithin(room + at + 1, room + at, room + this.n);
    filling[room + at] = v;
    this.n += 1;
    return Number.NaN;
  }

  median(): number {
    if (this.n === 0) return 0;
    const mid = this.n >> 1;
    const s = this.room;
    return this.n % 2 === 1 ? (this.data[s + mid] as number) : ((this.data[s + mid - 1] as number) + (this.data[s + mid] as number)) / 2;
  }

  /**
   * Median of |x - center| over the window. The deviations left of `center` grow leftwards and
   * those right of it grow rightwards: two sorted runs, whose k-th smallest element a binary
   * search finds in O(log W) without a scratch array.
   */
  medianAbsDeviation(center: number): number {
    if (this.n === 0) return 0;
    const split = this.lowerBound(center);
    const k = this.n >> 1;
    const upper = this.kthDeviation(center, split, k);
    return this.n % 2 === 1 ? upper : (this.kthDeviation(center, split, k - 1) + upper) / 2;
  }

  values(): number[] {
    const out: number[] = [];
    for (let k = 0; k < this.n; k += 1) out.push(this.at(k));
    return out;
  }

  /** the k-th oldest value (0 = oldest), k < count */
  at(k: number): number {
    const i = this.head + k;
    return this.data[i >= this.capacity ? i - this.capacity : i] as number;
  }

  /**
   * The k-th smallest (0-based) of the left run L_i = center - sorted[split - 1 - i] and the
   * right run R_j = sorted[split + j] - center: take i from L and k + 1 - i from R such that
   * neither run's last taken element exceeds the other's first untaken one.
   */
  private kthDeviation(center: number, split: number, k: number): number {
    const s = this.room;
    const d = this.data;
    const nLeft = split;
    const nRight = this.n - split;
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

  /** doubles the storage while the window fills (head is 0 then: nothing has been evicted) */
  private grow(): void {
    const room = grownCapacity(this.room, this.capacity);
    const next = new Float64Array(2 * room);
    next.set(this.data.subarray(0, this.n), 0);
    next.set(this.data.subarray(this.room, this.room + this.n), room);
    this.data = next;
    this.room = room;
  }

  private lowerBound(v: number): number {
    let lo = 0;
    let hi = this.n;
    const s = this.room;
    const d = this.data;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((d[s + mid] as number) < v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
