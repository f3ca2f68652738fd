/**
 * A queue of (time, level) pairs, oldest first, in one Float64Array ring (times and levels side by
 * side) that doubles when full: what an array of [time, level] tuples with push and shift holds,
 * without an object per pair or a copy per shift. Pure.
 */

/** pairs of room a new queue starts with, unless told */
const INITIAL_PAIRS = 16;

export class TimedLevels {
  /** time k at 2 * ((head + k) mod room), its level beside it */
  private ring: Float64Array;
  private head = 0;
  private n = 0;
  /**
   * whether the held times are in order (each ≥ the one before, none NaN), as pushes in time order
   * keep them: firstWithin searches them then. Once false it stays so until the queue is empty.
   */
  private ordered = true;

  /** `initialPairs`: the room it starts with (a queue that holds about that many never grows) */
  constructor(initialPairs = INITIAL_PAIRS) {
    if (!Number.isInteger(initialPairs) || initialPairs < 1) throw new RangeError(`initial room must be a positive integer of pairs, got ${initialPairs}`);
    this.ring = new Float64Array(2 * initialPairs);
  }

  /** pairs it has room for before it grows */
  get room(): number {
    return this.ring.length >> 1;
  }

  /** pairs held */
  get count(): number {
    return this.n;
  }

  /** the time of the k-th oldest pair (k < count) */
  timeAt(k: number): number {
    return this.ring[this.slot(k)] as number;
  }

  /** the level of the k-th oldest pair (k < count) */
  levelAt(k: number): number {
    return this.ring[this.slot(k) + 1] as number;
  }

  /** appends a pair (the newest) */
  push(timeMs: number, level: number): void {
    if (2 * this.n === this.ring.length) this.grow();
    // NaN compares false: out of order
    this.ordered = this.n === 0 ? timeMs === timeMs : this.ordered && timeMs >= this.timeAt(this.n - 1);
    const at = this.slot(this.n);
    this.ring[at] = timeMs;
    this.ring[at + 1] = level;
    this.n += 1;
  }

  /** drops the oldest pairs while the oldest one's time is below `oldestMs` (a NaN time stops it) */
  dropBefore(oldestMs: number): void {
    const room = this.ring.length >> 1;
    while (this.n > 0 && (this.ring[2 * this.head] as number) < oldestMs) {
      this.head = this.head + 1 === room ? 0 : this.head + 1;
      this.n -= 1;
    }
  }

  /** the oldest pair's index whose time is within `toleranceMs` of `timeMs` (|time − timeMs| ≤ tolerance), −1 when none is */
  firstWithin(timeMs: number, toleranceMs: number): number {
    if (!this.ordered || !Number.isFinite(timeMs) || !Number.isFinite(toleranceMs)) {
      for (let k = 0; k < this.n; k++) if (Math.abs(this.timeAt(k) - timeMs) <= toleranceMs) return k;
      return -1;
    }
    // Times in order and no NaN among them, timeMs finite: time − timeMs, as the scan computes it,
    // never decreases along the queue (rounding is monotonic). So the pairs below the tolerance
    // (difference < −tolerance) come first, and the first pair after them is the scan's answer if
    // it is within the tolerance; every later one is further above.
    let lo = 0;
    let hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.timeAt(mid) - timeMs < -toleranceMs) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.n && Math.abs(this.timeAt(lo) - timeMs) <= toleranceMs ? lo : -1;
  }

  /** the pairs oldest first, as [time, level] tuples */
  toPairs(): [number, number][] {
    const out: [number, number][] = [];
    for (let k = 0; k < this.n; k++) out.push([this.timeAt(k), this.levelAt(k)]);
    return out;
  }

  /** the element of the k-th oldest pair's time */
  private slot(k: number): number {
    const room = this.ring.length >> 1;
    const i = this.head + k;
    return 2 * (i >= room ? i - room : i);
  }

  /** twice the room, the pairs copied oldest first to its start */
  private grow(): void {
    const next = new Float64Array(2 * this.ring.length);
    for (let k = 0; k < this.n; k++) {
      const at = this.slot(k);
      next[2 * k] = this.ring[at] as number;
      next[2 * k + 1] = this.ring[at + 1] as number;
    }
    this.ring = next;
    this.head = 0;
  }
}
