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

interface Open {
  workload: string;
  metric: string;
  bucket: number;
  sum: number;
  count: number;
  /** false once handed over (finished or replaced by a later bucket of its series) */
  live: boolean;
}

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
    const bucket = Math.floor(record.timeMs / RAW_BUCKET_MS);
    let byMetric = this.open.get(record.workload);
    if (byMetric === undefined) {
      byMetric = new Map<string, Open>();
      this.open.set(record.workload, byMetric);
    }
    const cur = byMetric.get(record.name);
    if (cur !== undefined && cur.bucket === bucket) {
      cur.sum += record.value;
      cur.count += 1;
      return;
    }
    if (cur !== undefined) {
      if (bucket < cur.bucket) return; // late sample of a bucket already handed over: the analysis has it, the raw tier keeps the first mean
      this.finish(cur);
    }
    const opened: Open = { workload: record.workload, metric: record.name, bucket, sum: record.value, count: 1, live: true };
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
        if (o.live) this.finish(o);
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
      if (!o.live) continue;
      this.finish(o);
      const byMetric = this.open.get(o.workload)!;
      byMetric.delete(o.metric);
      if (byMetric.size === 0) this.open.delete(o.workload);
      return;
    }
  }

  private compact(): void {
    const live: Open[] = [];
    for (let i = this.head; i < this.queue.length; i++) if (this.queue[i]!.live) live.push(this.queue[i]!);
    this.queue = live;
    this.head = 0;
  }

  private finish(o: Open): void {
    o.live = false;
    this.size -= 1;
    this.done.push({ workload: o.workload, metric: o.metric, bucketStartMs: o.bucket * RAW_BUCKET_MS, mean: o.sum / o.count, count: o.count });
  }
}
