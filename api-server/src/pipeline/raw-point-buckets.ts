/**
 * Raw metric points for the 7-day raw tier (analytics.md §11): the mean of every (workload, metric)
 * per 15-second bucket of sample time, accumulated as records are drained and handed to storage
 * once a later bucket of the same series has started (or at shutdown). Bounded: at most
 * `maxOpen` open buckets; beyond that the oldest are flushed early.
 */
import type { MetricRecord } from '../model/records.js';

export const RAW_BUCKET_MS = 15_000;

export interface RawPoint {
  workload: string;
  metric: string;
  bucketStartMs: number;
  mean: number;
  count: number;
}

/**
 * An open bucket is the RawPoint it becomes: `mean` holds the running sum until the bucket is
 * finished (then the sum over the count), so finishing a bucket allocates nothing. An entry of the
 * queue is open while its series' map still points at it.
 */
type Open = RawPoint;

/** queue slots of handed-over buckets tolerated beyond twice the open ones before compacting */
const QUEUE_SLACK = 1024;

export class RawPointBuckets {
  /** the open bucket of each series, by workload, then metric (no per-sample key string) */
  private readonly open = new Map<string, Map<string, Open>>();
  /** buckets in the order they were opened; the live ones are the open ones (the bound evicts the first) */
  private queue: Open[] = [];
  private head = 0;
  private size = 0;
  private done: RawPoint[] = [];

  constructor(
    private readonly maxOpen = 200_000,
    private readonly queueSlack = QUEUE_SLACK,
  ) {}

  /** open buckets (series with a bucket not handed over yet) */
  get openCount(): number {
    return this.size;
  }

  add(record: MetricRecord): void {
    const bucketStartMs = Math.floor(record.timeMs / RAW_BUCKET_MS) * RAW_BUCKET_MS;
    let byMetric = this.open.get(record.workload);
    if (byMetric === undefined) {
      byMetric = new Map<string, Open>();
      this.open.set(record.workload, byMetric);
    }
    const cur = byMetric.get(record.name);
    if (cur !== undefined && cur.bucketStartMs === bucketStartMs) {
      cur.mean += record.value;
      cur.count += 1;
      return;
    }
    if (cur !== undefined) {
      if (bucketStartMs < cur.bucketStartMs) return; // late sample of a bucket already handed over: the analysis has it, the raw tier keeps the first mean
      this.finish(cur);
    }
    const opened: Open = { workload: record.workload, metric: record.name, bucketStartMs, mean: record.value, count: 1 };
    byMetric.set(record.name, opened);
    this.queue.push(opened);
    this.size += 1;
    if (this.size > this.maxOpen) this.evictOldest();
    if (this.queue.length - this.head > 2 * this.size + this.queueSlack) this.compact();
  }

  /** Finished buckets since the last call; with `all`, the open ones too (shutdown). */
  take(all = false): RawPoint[] {
    if (all) {
      for (let i = this.head; i < this.queue.length; i++) {
        const o = this.queue[i]!;
        if (this.isOpen(o)) this.finish(o);
      }
      this.open.clear();
      this.queue = [];
      this.head = 0;
    }
    const out = this.done;
    this.done = [];
    return out;
  }

  /** hands the oldest open bucket over early and forgets its series */
  private evictOldest(): void {
    while (this.head < this.queue.length) {
      const o = this.queue[this.head]!;
      this.head += 1;
      if (!this.isOpen(o)) continue;
      this.finish(o);
      const byMetric = this.open.get(o.workload)!;
      byMetric.delete(o.metric);
      if (byMetric.size === 0) this.open.delete(o.workload);
      return;
    }
  }

  private compact(): void {
    const live: Open[] = [];
    for (let i = this.head; i < this.queue.length; i++) if (this.isOpen(this.queue[i]!)) live.push(this.queue[i]!);
    this.queue = live;
    this.head = 0;
  }

  /** whether `o` is its series' open bucket (not handed over yet) */
  private isOpen(o: Open): boolean {
    return this.open.get(o.workload)?.get(o.metric) === o;
  }

  /** hands `o` over; the caller replaces or removes it in its series' map before asking isOpen again */
  private finish(o: Open): void {
    this.size -= 1;
    o.mean /= o.count;
    this.done.push(o);
  }
}
