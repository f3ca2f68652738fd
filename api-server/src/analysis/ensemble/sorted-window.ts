/**
 * A sorted window with storage of its own (the arithmetic is sorted-slots.ts): the ring of doubles
 * (after the window's scalars) in a Float64Array and the sorted positions in a Uint16Array, each starting at
 * 16 slots and doubling while the window fills; once `capacity` values have arrived they stay at
 * that. A series keeps its value window inside its own memory instead (series-memory.ts).
 */
import { grownCapacity } from '../windows/grown-capacity.js';
import { SORTED_MAX_SPAN, SORTED_META, sortedAt, sortedCount, sortedMedian, sortedMedianAbsDeviation, sortedPush, sortedRankValue } from './sorted-slots.js';

const RING = SORTED_META;

export class SortedWindow {
  /** [meta | ring of `room`] */
  private data: Float64Array;
  /** the ring's positions by value (room of them) */
  private positions: Uint16Array;
  private room: number;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1 || capacity > SORTED_MAX_SPAN) throw new RangeError(`capacity must be an integer in [1, ${SORTED_MAX_SPAN}], got ${capacity}`);
    this.room = grownCapacity(0, capacity);
    this.data = new Float64Array(RING + this.room);
    this.positions = new Uint16Array(this.room);
  }

  get count(): number {
    return sortedCount(this.data, 0);
  }

  /** adds v; returns the value that left the window, NaN when none did */
  push(v: number): number {
    if (this.count === this.room && this.room < this.capacity) this.grow();
    return sortedPush(this.data, 0, RING, this.positions, 0, this.capacity, v);
  }

  median(): number {
    return sortedMedian(this.data, 0, RING, this.positions, 0);
  }

  /** median of |x - center| over the window */
  medianAbsDeviation(center: number): number {
    return sortedMedianAbsDeviation(this.data, 0, RING, this.positions, 0, center);
  }

  /** the values, oldest first */
  values(): number[] {
    const out: number[] = [];
    for (let k = 0; k < this.count; k += 1) out.push(this.at(k));
    return out;
  }

  /** the values, smallest first (read through the positions) */
  sortedValues(): number[] {
    const out: number[] = [];
    for (let k = 0; k < this.count; k += 1) out.push(sortedRankValue(this.data, 0, RING, this.positions, 0, k));
    return out;
  }

  /** the ring slot of each rank, smallest value first */
  ranks(): number[] {
    return Array.from(this.positions.subarray(0, this.count));
  }

  /** the k-th oldest value (0 = oldest), k < count */
  at(k: number): number {
    return sortedAt(this.data, 0, RING, this.positions, this.capacity, k);
  }

  /** doubles the storage while the window fills (head is 0 then: nothing has been evicted) */
  private grow(): void {
    const room = grownCapacity(this.room, this.capacity);
    const data = new Float64Array(RING + room);
    data.set(this.data);
    const positions = new Uint16Array(room);
    positions.set(this.positions);
    this.data = data;
    this.positions = positions;
    this.room = room;
  }
}
