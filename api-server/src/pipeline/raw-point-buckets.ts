/**
 * Raw metric points for the 7-day raw tier (analytics.md §11): the mean of every (workload, metric)
 * per 15-second bucket of sample time, accumulated as records are drained and handed to storage
 * once a later bucket of the same series has started (or at shutdown). Bounded: at most
 * `maxOpen` open buckets; beyond that the oldest are flushed early.
 */
import type { MetricRecord } from '../ingest/records.js';

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
}

export class RawPointBuckets {
  private readonly open = new Map<string, Open>();
  private done: RawPoint[] = [];

  constructor(private readonly maxOpen = 200_000) {}

  add(record: MetricRecord): void {
    const bucket = Math.floor(record.timeMs / RAW_BUCKET_MS);
    const series = `${record.workload}\u0000${record.name}`;
    const cur = this.open.get(series);
    if (cur !== undefined && cur.bucket === bucket) {
      cur.sum += record.value;
      cur.count += 1;
      return;
    }
    if (cur !== undefined) {
      if (bucket < cur.bucket) return; // late sample of a bucket already handed over: the analysis has it, the raw tier keeps the first mean
      this.finish(cur);
      this.open.delete(series);
    }
    this.open.set(series, { workload: record.workload, metric: record.name, bucket, sum: record.value, count: 1 });
    if (this.open.size > this.maxOpen) {
      const oldest = this.open.entries().next().value as [string, Open];
      this.finish(oldest[1]);
      this.open.delete(oldest[0]);
    }
  }

  /** Finished buckets since the last call; with `all`, the open ones too (shutdown). */
  take(all = false): RawPoint[] {
    if (all) {
      for (const o of this.open.values()) this.finish(o);
      this.open.clear();
    }
    const out = this.done;
    this.done = [];
    return out;
  }

  private finish(o: Open): void {
    this.done.push({ workload: o.workload, metric: o.metric, bucketStartMs: o.bucket * RAW_BUCKET_MS, mean: o.sum / o.count, count: o.count });
  }
}
