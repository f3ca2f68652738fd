/**
 * Storage growth of the fixed-size windows: a window's backing array starts at 16 slots and
 * doubles while the window fills, up to its capacity, so a young series holds little memory and
 * a full one exactly its window.
 */
export const FIRST_ROOM = 16;

/** the next storage size after `room` for a window of `capacity` (the first when room is 0) */
export function grownCapacity(room: number, capacity: number): number {
  return Math.min(capacity, room === 0 ? FIRST_ROOM : room * 2);
}

/** a copy of `a` in the next storage size for a window of `capacity` (a linear, unwrapped prefix) */
export function grownArray(a: Float64Array, capacity: number): Float64Array<ArrayBuffer> {
  const grown = new Float64Array(grownCapacity(a.length, capacity));
  grown.set(a);
  return grown;
}
