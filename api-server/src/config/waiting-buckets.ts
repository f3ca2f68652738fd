/**
 * The analysis backlog's bound (SVC_INGEST_MAX_WAITING_BUCKETS, pipeline/ingest-pipeline.ts): how
 * many workload-buckets may wait for a step before ingest answers 429 analysis_backlog. `auto`, the
 * default, gives the backlog a tenth of V8's heap limit at 1 KB a waiting bucket (the step that
 * runs them holds about as much again): 262 144 under the manifests' --max-old-space-size=2560,
 * never fewer than 100 000 (docs/memory.md, "The analysis backlog bound").
 */
export const MIN_WAITING_BUCKETS = 1000;
export const MAX_WAITING_BUCKETS = 100_000_000;
/** what auto never goes below */
const AUTO_FLOOR = 100_000;
/** V8 heap a waiting workload-bucket holds (measured: 399 KB for 400 buckets of 6 metrics) */
const BYTES_PER_WAITING_BUCKET = 1024;

export type WaitingBucketsSetting = 'auto' | number;

/** the bound for `setting` in a process whose V8 heap limit is `heapLimitBytes` */
export function maxWaitingBuckets(setting: WaitingBucketsSetting, heapLimitBytes: number): number {
  if (setting !== 'auto') return setting;
  return Math.max(AUTO_FLOOR, Math.floor(heapLimitBytes / 10 / BYTES_PER_WAITING_BUCKET));
}
