/**
 * The last W values, kept both in arrival order (a ring) and sorted (binary insertion and removal),
 * so the median is O(1) to read and O(W) memory moves per update with no allocation.
 */
export class SortedWindow {
  private readonly ring: Float64Array;
  private readonly sorted: Float64Array;
  private head = 0;
  private n = 0;

  constructor(readonly capacity: number) {
    this.ring = new Float64Array(capacity);
    this.sorted = new Float64Array(capacity);
  }

  get count(): number {
    return this.n;
  }

  /** Adds v; returns the value that left the window to make room, or NaN when none did. */
  push(v: number): number {
    let evicted = Number.NaN;
    if (this.n === this.capacity) {
      const old = this.ring[this.head] as number;
      evicted = old;
      this.head = (this.head + 1) % this.capacity;
      this.n -= 1;
      const at = this.lowerBound(old);
      this.sorted.copyWithin(at, at + 1, this.n + 1);
    }
    this.ring[(this.head + this.n) % this.capacity] = v;
    const at = this.lowerBound(v);
    this.sorted.copyWithin(at + 1, at, this.n);
    this.sorted[at] = v;
    this.n += 1;
    return evicted;
  }

  median(): number {
    if (this.n === 0) return 0;
    const mid = this.n >> 1;
    return this.n % 2 === 1 ? (this.sorted[mid] as number) : ((this.sorted[mid - 1] as number) + (this.sorted[mid] as number)) / 2;
  }

  /** median of |x - center| over the window (O(W) with a scratch-free two-pointer merge) */
  medianAbsDeviation(center: number): number {
    if (this.n === 0) return 0;
    // deviations to the left of center are decreasing, to the right increasing: merge both runs
    let right = this.lowerBound(center);
    let left = right - 1;
    const target = this.n >> 1;
    let prev = 0;
    let cur = 0;
    for (let k = 0; k <= target; k += 1) {
      const dl = left >= 0 ? center - (this.sorted[left] as number) : Infinity;
      const dr = right < this.n ? (this.sorted[right] as number) - center : Infinity;
      prev = cur;
      if (dl <= dr) {
        cur = dl;
        left -= 1;
      } else {
        cur = dr;
        right += 1;
      }
    }
    return this.n % 2 === 1 ? cur : (prev + cur) / 2;
  }

  values(): number[] {
    const out: number[] = [];
    for (let k = 0; k < this.n; k += 1) out.push(this.ring[(this.head + k) % this.capacity] as number);
    return out;
  }

  private lowerBound(v: number): number {
    let lo = 0;
    let hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.sorted[mid] as number) < v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
