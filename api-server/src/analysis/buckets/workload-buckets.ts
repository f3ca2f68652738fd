/**
 * The 15-s sample-time buckets of one workload (analytics.md §0.1, §1.2). Ingest only adds to
 * running sums; `takeClosed` hands the closed, unprocessed buckets to the analysis in ascending
 * order. Bucket b covers [b·Δ, (b+1)·Δ); it is closed once a sample of a later bucket has
 * arrived or the server time has passed its end by one more bucket length. With a grace G > 0 a
 * closed bucket is handed over only once G of server time has passed since the first
 * `takeClosed` that found it closed, so a source that comes as a separate request (the logs after
 * the metrics) still counts. A bucket below a due one goes with it, so the order holds.
 *
 * Bound: at most `maxOpenBuckets` unprocessed buckets; a sample that would open one more is
 * refused (`overflow`). Samples for an already processed bucket are refused (`late`).
 */
import type { SpanRecord } from '../../model/records.js';
import { NO_SPANS, OpenBucket } from './open-bucket.js';

export { OpenBucket, type WorkloadMeans } from './open-bucket.js';
export { PodInputs } from './pod-inputs.js';

export type AddResult = 'ok' | 'late' | 'overflow';

/**
 * The workload-buckets of every workload of one analysis that ingest opened and no step has run
 * yet (AnalysisCore.waitingBuckets): a bucket adds one where it is opened, the step's run of it
 * takes one away, a removed workload takes its open ones away.
 */
export interface BucketTally {
  waiting: number;
}

export class WorkloadBuckets {
  /** unprocessed buckets, ascending index */
  private open: OpenBucket[] = [];
  /** whether `open` may hold more than 2 slots of capacity (see recycle) */
  private openLoose = true;
  private maxIndexSeen = Number.NEGATIVE_INFINITY;
  /** one processed bucket kept for reuse (saves its arrays per step) */
  private spare: OpenBucket | null = null;
  /** index of the last processed bucket */
  lastProcessed = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly bucketMs: number,
    private readonly maxOpenBuckets: number,
    /** server time a closed bucket waits before it is handed over (AnalysisConfig.bucketGraceMs) */
    private readonly graceMs = 0,
    /** counts every bucket opened here (shared by the analysis' workloads) */
    private readonly tally: BucketTally = { waiting: 0 },
  ) {}

  get openCount(): number {
    return this.open.length;
  }

  private bucketFor(timeMs: number): OpenBucket | AddResult {
    const index = Math.floor(timeMs / this.bucketMs);
    if (index <= this.lastProcessed) return 'late';
    const open = this.open;
    const n = open.length;
    let bucket: OpenBucket | undefined;
    // position of the first open bucket with an index ≥ index (the newest one, mostly)
    let at = n;
    if (n > 0 && open[n - 1]!.index >= index) {
      let lo = 0;
      let hi = n - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (open[mid]!.index < index) lo = mid + 1;
        else hi = mid;
      }
      at = lo;
      if (open[at]!.index === index) bucket = open[at];
    }
    if (bucket === undefined) {
      if (n >= this.maxOpenBuckets) return 'overflow';
      if (this.spare !== null) {
        bucket = this.spare;
        this.spare = null;
        bucket.reset(index);
      } else {
        bucket = new OpenBucket(index);
      }
      this.tally.waiting += 1;
      if (n >= 2 || at !== n) this.openLoose = true;
      if (at === n) open.push(bucket);
      else open.splice(at, 0, bucket);
    }
    if (index > this.maxIndexSeen) this.maxIndexSeen = index;
    return bucket;
  }

  addMetric(pod: string, input: string, value: number, rank: number, timeMs: number): AddResult {
    const bucket = this.bucketFor(timeMs);
    if (typeof bucket === 'string') return bucket;
    bucket.inputsOf(pod).add(input, value, rank, timeMs);
    bucket.metricSamples += 1;
    return 'ok';
  }

  /** registers a log line so its bucket becomes an analysis step */
  addLog(timeMs: number): AddResult {
    const bucket = this.bucketFor(timeMs);
    if (typeof bucket === 'string') return bucket;
    bucket.logLines += 1;
    return 'ok';
  }

  addSpan(span: SpanRecord): AddResult {
    const bucket = this.bucketFor(span.startMs);
    if (typeof bucket === 'string') return bucket;
    if (bucket.spans === NO_SPANS) bucket.spans = [];
    bucket.spans.push(span);
    return 'ok';
  }

  /** hands a processed bucket back for reuse; the caller must not touch it afterwards */
  recycle(bucket: OpenBucket): void {
    bucket.compact();
    this.spare = bucket;
    // one or two open buckets is the steady state: an array literal of 2 has room for exactly
    // that (a push onto a small array reserves 16 more slots); rebuilt after it held more
    if (this.openLoose && this.open.length > 0 && this.open.length <= 2) {
      const first = this.open[0]!;
      const tight = [first, this.open[1] ?? first];
      tight.length = this.open.length;
      this.open = tight;
      this.openLoose = false;
    }
  }

  private isClosed(index: number, nowMs: number): boolean {
    return index < this.maxIndexSeen || nowMs >= (index + 2) * this.bucketMs;
  }

  /** removes and returns the closed buckets in ascending order; marks them processed */
  takeClosed(nowMs: number): OpenBucket[] {
    const closed: OpenBucket[] = [];
    this.takeClosedInto(nowMs, closed);
    return closed;
  }

  /** takeClosed appending to `out`; returns how many were taken */
  takeClosedInto(nowMs: number, out: OpenBucket[]): number {
    const open = this.open;
    // closed is monotone in the index (below a closed bucket every one is closed) and `open` is in
    // ascending index, so the closed buckets are a prefix; the part handed over goes up to the
    // highest one whose grace has run out (with no grace: every closed one)
    let due = 0;
    for (let i = 0; i < open.length; i++) {
      const b = open[i]!;
      if (!this.isClosed(b.index, nowMs)) break;
      if (Number.isNaN(b.closedSinceMs)) b.closedSinceMs = nowMs;
      if (nowMs - b.closedSinceMs >= this.graceMs) due = i + 1;
    }
    if (due === 0) return 0;
    for (let i = 0; i < due; i++) out.push(open[i]!);
    let kept = 0;
    for (let i = due; i < open.length; i++) open[kept++] = open[i]!;
    open.length = kept;
    // an emptied array may have given up its slots
    if (kept === 0) this.openLoose = true;
    const last = out[out.length - 1]!.index;
    // every open bucket below a closed one is itself closed, so none is left behind
    if (last > this.lastProcessed) this.lastProcessed = last;
    return due;
  }
}
