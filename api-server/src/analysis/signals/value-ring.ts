/**
 * A ring of the last `capacity` numbers (a pod's health and open-fd histories), in a Float64Array
 * of its own or in a slice of its owner's array. Oldest first on export.
 */
/** ring of the last `capacity` values, kept in values[at, at + capacity) */
export class Ring {
  readonly values: Float64Array;
  readonly at: number;
  size = 0;
  private head = 0;

  /** `shared`, `at`: the slots are shared[at, at + capacity) (zeros, part of the owner's array), else an array of its own */
  constructor(
    readonly capacity: number,
    shared?: Float64Array,
    at = 0,
  ) {
    this.values = shared ?? new Float64Array(capacity);
    this.at = shared === undefined ? 0 : at;
  }

  push(v: number): void {
    this.values[this.at + this.head] = v;
    this.head = (this.head + 1) % this.capacity;
    if (this.size < this.capacity) this.size++;
  }

  /** oldest first */
  toArray(): number[] {
    const out: number[] = [];
    const start = (this.head - this.size + this.capacity) % this.capacity;
    for (let i = 0; i < this.size; i++) out.push(this.values[this.at + ((start + i) % this.capacity)]!);
    return out;
  }
}
