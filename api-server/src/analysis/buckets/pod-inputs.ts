/**
 * The inputs of one pod in one 15-s bucket (analytics.md §1.2): running sums per input name, of
 * which only the best-ranked alias of an input counts. Part of a workload's open bucket
 * (open-bucket.ts).
 */
/** accumulator fields per input in {@link PodInputs.acc}: sum, count, rank, lastMs */
export const FIELDS = 4;
/** a reused bucket keeps the names of a pod up to this many (see PodInputs.clear) */
const KEPT_NAMES = 64;
/** name and pod lookups scan linearly up to this many entries, then build a Map */
export const SCAN_LIMIT = 8;

/**
 * The inputs of one pod in one bucket: names in first-seen order and, packed in one array of
 * doubles, each name's running mean (sum, count, rank, lastMs), in which only the best-ranked
 * alias of an input counts. A reused bucket keeps its names (zeroed), so their order is the order
 * of first sight since the bucket object was created or last cleared.
 */
export class PodInputs {
  /** the pod ('' stands for samples without pod identity) */
  pod = '';
  names: string[] = [];
  /** (sum, count, rank, lastMs) per name, in name order */
  acc: number[] = [];
  private index: Map<string, number> | null = null;
  /** names.length at the last compact() */
  private compacted = 0;

  /** position of `name`, −1 when absent */
  find(name: string): number {
    if (this.index !== null) return this.index.get(name) ?? -1;
    const names = this.names;
    for (let i = 0; i < names.length; i++) if (names[i] === name) return i;
    return -1;
  }

  /** adds a sample of the input `name`: a running mean in which only the best-ranked (lowest rank) alias counts */
  add(name: string, value: number, rank: number, timeMs: number): void {
    let i = this.find(name);
    if (i < 0) i = this.append(name);
    const a = this.acc;
    const o = i * FIELDS;
    const held = a[o + 2]!;
    if (rank > held) return;
    if (rank < held) {
      a[o + 2] = rank;
      a[o] = 0;
      a[o + 1] = 0;
    }
    a[o] = a[o]! + value;
    a[o + 1] = a[o + 1]! + 1;
    if (timeMs > a[o + 3]!) a[o + 3] = timeMs;
  }

  private append(name: string): number {
    const i = this.names.length;
    this.names.push(name);
    this.acc.push(0, 0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY);
    if (this.index !== null) this.index.set(name, i);
    else if (i >= SCAN_LIMIT) this.index = new Map(this.names.map((n, j) => [n, j]));
    return i;
  }

  count(i: number): number {
    return this.acc[i * FIELDS + 1]!;
  }

  sum(i: number): number {
    return this.acc[i * FIELDS]!;
  }

  lastMs(i: number): number {
    return this.acc[i * FIELDS + 3]!;
  }

  /** whether some input has samples */
  hasSamples(): boolean {
    const a = this.acc;
    for (let o = 1; o < a.length; o += FIELDS) if (a[o]! > 0) return true;
    return false;
  }

  /** drops the arrays' growth slack (copies sized to fit) after names were added */
  compact(): void {
    if (this.names.length === this.compacted) return;
    this.names = this.names.slice();
    this.acc = this.acc.slice();
    this.compacted = this.names.length;
  }

  /**
   * Empties every accumulator, keeping the names, unless there are more than KEPT_NAMES of them:
   * then the names go too (a workload whose input names keep changing would otherwise grow its
   * reused bucket without bound).
   */
  clear(): void {
    if (this.names.length > KEPT_NAMES) {
      this.names = [];
      this.acc = [];
      this.index = null;
      this.compacted = 0;
      return;
    }
    const a = this.acc;
    for (let o = 0; o < a.length; o += FIELDS) {
      a[o] = 0;
      a[o + 1] = 0;
      a[o + 2] = Number.POSITIVE_INFINITY;
      a[o + 3] = Number.NEGATIVE_INFINITY;
    }
  }
}
