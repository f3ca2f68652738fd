/**
 * Which workloads' analysis state a tick writes to LevelDB (runtime.md §4 Durability): a workload
 * seen for the first time at once, and every other one in its turn, so that each tick writes about
 * 1/`everyTicks` of the workloads instead of all of them every `everyTicks` ticks.
 *
 * A workload gets a turn (0 .. everyTicks - 1) when it is first seen, round-robin; tick `n` writes
 * the workloads whose turn is `n mod everyTicks` and that stepped since their state was last
 * written. A workload that steps is thus written within `everyTicks` ticks, and a checkpoint of N
 * workloads holds about N / everyTicks exported states instead of N (one exported state is ~200 KB
 * of JSON at full windows: docs/memory-soak.md).
 */
export class StateCheckpoints {
  /** workload → its turn */
  private readonly turn = new Map<string, number>();
  /** per turn: the workloads of that turn that stepped since their state was last written */
  private readonly dirty: Set<string>[];
  /** the turn the next workload seen gets */
  private nextTurn = 0;

  constructor(private readonly everyTicks: number) {
    if (!Number.isInteger(everyTicks) || everyTicks < 1) throw new RangeError(`everyTicks must be a positive integer, got ${everyTicks}`);
    this.dirty = Array.from({ length: everyTicks }, () => new Set<string>());
  }

  /** workloads whose state is already stored (restored at startup): they get a turn, nothing is due for them */
  stored(keys: Iterable<string>): void {
    for (const key of keys) if (!this.turn.has(key)) this.assignTurn(key);
  }

  /**
   * The workloads whose state tick number `tick` writes, given the workloads that stepped in it
   * (`stepped`): the ones never seen before, then those whose turn it is that stepped since their
   * last write (in this tick or an earlier one). They count as written from here on.
   */
  due(tick: number, stepped: Iterable<string>): string[] {
    const out: string[] = [];
    for (const key of stepped) {
      const turn = this.turn.get(key);
      if (turn === undefined) {
        this.assignTurn(key);
        out.push(key);
      } else this.dirty[turn]!.add(key);
    }
    const now = this.dirty[((tick % this.everyTicks) + this.everyTicks) % this.everyTicks]!;
    // a workload first seen in this tick is in no turn's set yet: no key is listed twice
    out.push(...now);
    now.clear();
    return out;
  }

  /** every workload that stepped since its state was last written (shutdown); they count as written */
  takeAll(): string[] {
    const out: string[] = [];
    for (const set of this.dirty) {
      out.push(...set);
      set.clear();
    }
    return out;
  }

  /** forgets a workload the analysis no longer holds (its state is not written again) */
  forget(key: string): void {
    const turn = this.turn.get(key);
    if (turn === undefined) return;
    this.dirty[turn]!.delete(key);
    this.turn.delete(key);
  }

  private assignTurn(key: string): void {
    this.turn.set(key, this.nextTurn);
    this.nextTurn = (this.nextTurn + 1) % this.everyTicks;
  }
}
