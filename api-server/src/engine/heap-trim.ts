/**
 * Full collections of V8's heap between ticks (docs/memory.md, "Collections between ticks").
 *
 * A tick's outputs (snapshots, history points, anomalies, the LevelDB batch, the exported states)
 * live across its writes, so through scavenges into V8's old generation, and are garbage once the
 * tick is stored. V8 collects the old generation only when it reaches a limit it set from the heap
 * at its previous major collection, up to several times that heap, and a limit set in the middle
 * of a backfill (when the waiting backlog is live) is far above what the settled service holds:
 * without these collections 1 000 settled workloads kept 2.1 GB of V8 heap through the minute
 * `npm run bench:memory` reads after their backfill, where a collection leaves 53 MB. A pod is
 * sized for such readings.
 *
 * So the analyzer loop asks, once a tick's writes are done (all it made is garbage then), for a
 * full collection
 * - after the first tick that is not a catch-up, following catch-up ticks (`caught_up`): a tick
 *   whose stepped workloads stepped at least `catchUpBuckets` buckets each on average is a
 *   catch-up (a backfill, a restart's replay, delayed telemetry); the next tick that steps fewer,
 *   or none, finds the backlog gone, and V8's next limit is set from what the settled service
 *   holds;
 * - after any tick whose used heap is above `growth` × the heap V8's last major collection left
 *   (its own or one of these) and above `minBytes` (`growth`).
 * Each is an atomic pause of the main thread, the live heap's marking (tens of ms at 1 000 settled
 * workloads; measured in docs/memory.md), counted in rpt_heap_collection_seconds_total.
 *
 * `collect` is node's `gc` (`--expose-gc`, which `npm start`, the image and the manifests pass);
 * without it nothing is collected here and V8 decides alone.
 */

export interface HeapTrimOptions {
  /** a full, atomic collection of V8's heap (node's `gc` under --expose-gc); undefined: never */
  collect: (() => void) | undefined;
  /** V8's used heap in bytes (v8.getHeapStatistics().used_heap_size) */
  heapUsed: () => number;
  /** monotonic milliseconds (performance.now) */
  clock: () => number;
  /** a tick whose stepped buckets per stepped workload reach this is a catch-up (default 2) */
  catchUpBuckets?: number;
  /**
   * V8's used heap in bytes after its last major collection, V8's own or one asked for here
   * (HeapAfterGc.reading; 0 before the first); without it, no `growth` collections
   */
  liveHeap?: () => number;
  /** default 2 */
  growth?: number;
  /** default 128 MiB: a heap below it is left to V8 */
  minBytes?: number;
}

/** why a collection ran: the first steady tick after catch-up ticks, or the heap grown `growth` times over the live heap */
export type HeapTrimReason = 'caught_up' | 'growth';

/** one collection: V8's used heap before and after, and how long the pause was */
export interface HeapTrimmed {
  beforeBytes: number;
  afterBytes: number;
  pauseMs: number;
  /** the tick's stepped buckets per stepped workload (0 when it stepped none) */
  bucketsPerWorkload: number;
  reason: HeapTrimReason;
}

export class HeapTrim {
  private readonly catchUpBuckets: number;
  private readonly growth: number;
  private readonly minBytes: number;
  /** the last tick was a catch-up */
  private catchingUp = false;

  constructor(private readonly options: HeapTrimOptions) {
    this.catchUpBuckets = options.catchUpBuckets ?? 2;
    this.growth = options.growth ?? 2;
    this.minBytes = options.minBytes ?? 128 * 1_048_576;
    if (!(this.catchUpBuckets >= 1)) throw new RangeError(`catchUpBuckets must be at least 1, got ${this.catchUpBuckets}`);
    if (!(this.growth > 1)) throw new RangeError(`growth must be above 1, got ${this.growth}`);
    if (!(this.minBytes >= 0)) throw new RangeError(`minBytes must be at least 0, got ${this.minBytes}`);
  }

  /** whether collections are possible at all (node started with --expose-gc) */
  get enabled(): boolean {
    return this.options.collect !== undefined;
  }

  /**
   * After a tick's writes: `steppedBuckets` workload-buckets were run for `steppedWorkloads`
   * workloads. Collects when the reasons above say so; returns what the collection did, undefined
   * when none ran.
   */
  afterTick(steppedBuckets: number, steppedWorkloads: number): HeapTrimmed | undefined {
    const collect = this.options.collect;
    if (collect === undefined) return undefined;
    const bucketsPerWorkload = steppedWorkloads === 0 ? 0 : steppedBuckets / steppedWorkloads;
    const catchUp = bucketsPerWorkload >= this.catchUpBuckets;
    const caughtUp = this.catchingUp && !catchUp;
    this.catchingUp = catchUp;
    const beforeBytes = this.options.heapUsed();
    let reason: HeapTrimReason;
    if (caughtUp) reason = 'caught_up';
    else if (this.grown(beforeBytes)) reason = 'growth';
    else return undefined;
    const t0 = this.options.clock();
    collect();
    const pauseMs = this.options.clock() - t0;
    return { beforeBytes, afterBytes: this.options.heapUsed(), pauseMs, bucketsPerWorkload, reason };
  }

  /** the used heap above growth × the live heap and above minBytes (never without a live reading) */
  private grown(usedBytes: number): boolean {
    const live = this.options.liveHeap?.() ?? 0;
    return live > 0 && usedBytes > this.minBytes && usedBytes > this.growth * live;
  }
}
