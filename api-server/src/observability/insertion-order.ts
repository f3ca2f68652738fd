/**
 * The order in which a JavaScript object lists its (non-index) string keys, which is the order of a
 * prom-client Gauge's series (its `hashMap`), over small integer ids: an id added goes last, adding
 * one already there leaves it in its place, and one deleted and added again goes last. A doubly
 * linked list in two Int32Arrays: add, delete and has make no object (the arrays double when an id
 * beyond them is added).
 */

/** no id: the end of the list */
const NONE = -1;
/** in `prev`: the id is not in the order */
const ABSENT = -2;

export class InsertionOrder {
  private next = new Int32Array(0);
  private prev = new Int32Array(0);
  private first = NONE;
  private last = NONE;
  private count = 0;

  /** how many ids are in the order */
  get size(): number {
    return this.count;
  }

  has(id: number): boolean {
    return id < this.prev.length && this.prev[id] !== ABSENT;
  }

  /** puts `id` last, unless it is in the order already (then it keeps its place) */
  add(id: number): void {
    if (id >= this.prev.length) this.grow(id + 1);
    if (this.prev[id] !== ABSENT) return;
    this.prev[id] = this.last;
    this.next[id] = NONE;
    if (this.last === NONE) this.first = id;
    else this.next[this.last] = id;
    this.last = id;
    this.count++;
  }

  delete(id: number): void {
    if (!this.has(id)) return;
    const prev = this.prev[id]!;
    const next = this.next[id]!;
    if (prev === NONE) this.first = next;
    else this.next[prev] = next;
    if (next === NONE) this.last = prev;
    else this.prev[next] = prev;
    this.prev[id] = ABSENT;
    this.count--;
  }

  /** the ids in order, a copy: what a reader that lets others add and delete meanwhile goes through */
  ids(): Int32Array {
    const out = new Int32Array(this.count);
    let i = 0;
    for (let id = this.first; id !== NONE; id = this.next[id]!) out[i++] = id;
    return out;
  }

  private grow(atLeast: number): void {
    const length = Math.max(atLeast, 2 * this.prev.length, 16);
    const next = new Int32Array(length);
    next.set(this.next);
    const prev = new Int32Array(length).fill(ABSENT);
    prev.set(this.prev);
    this.next = next;
    this.prev = prev;
  }
}
