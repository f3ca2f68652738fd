/**
 * A sorted window with storage of its own (the arithmetic is sorted-slots.ts): ring and sorted copy
 * share one Float64Array that starts at 16 slots each and doubles while the window fills; once
 * `capacity` values have arrived it stays at that. A series keeps its value window inside its own
 * memory instead (series-memory.ts).
 */
import { grownCapacity } from '../windows/grown-capacity.js';
import { SORTED_META, sortedAt, sortedCount, sortedMedian, sortedMedianAbsDeviation, sortedPush } from './sorted-slots.js';

export class SortedWindow {
  /** [meta | ring of `room` | sorted copy of `room`] */
  private data: Float64Array;
  private room: number;

  constructor(readonly capacity: number) {
    this.room = grownCapacity(0, capacity);
    this.data = new Float64Array(SORTED_META + 2 * this.room);
  }

  get count(): number {
    return sortedCount(this.data, 0);
  }

  /** adds v; returns the value that left the window, NaN when none did */
  push(v: number): number {
    if (this.count === this.room && this.room < this.capacity) this.grow();
    return sortedPush(this.data, 0, SORTED_META, SORTED_META + this.room, this.capacity, v);
  }

  median(): number {
    return sortedMedian(this.data, 0, SORTED_META + this.room);
  }

  /** median of |x - center| over the window */
  medianAbsDeviation(center: number): number {
    return sortedMedianAbsDeviation(this.data, 0, SORTED_META + this.room, center);
  }

  values(): number[] {
    const out: number[] = [];
    for (let k = 0; k < this.count; k += 1) out.push(this.at(k));
    return out;
  }

  /** the k-th oldest value (0 = oldest), k < count */
  at(k: number): number {
    return sortedAt(this.data, 0, SORTED_META, this.capacity, k);
  }

  /** doubles the storage while the window fills (head is 0 then: nothing has been evicted) */
  private grow(): void {
    const n = this.count;
    const room = grownCapacity(this.room, this.capacity);
    const next = new Float64Array(SORTED_META + 2 * room);
    next.set(this.data.subarray(0, SORTED_META + n), 0);
    next.set(this.data.subarray(SORTED_META + this.room, SORTED_META + this.room + n), SORTED_META + room);
    this.data = next;
    this.room = room;
  }
}
