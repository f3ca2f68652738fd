/**
 * The 15-s sample-time buckets of one workload (analytics.md §0.1, §1.2). Ingest only adds to
 * running sums; `takeClosed` hands the closed, unprocessed buckets to the analysis in ascending
 * order. Bucket b covers [b·Δ, (b+1)·Δ); it is closed once a sample of a later bucket has
 * arrived or the server time has passed its end by one more bucket length.
 *
 * Bound: at most `maxOpenBuckets` unprocessed buckets; a sample that would open one more is
 * refused (`overflow`). Samples for an already processed bucket are refused (`late`).
 */
import type { SpanRecord } from '../../ingest/records.js';

/** running mean of one input in one bucket and pod; only the best-ranked alias is kept */
export class InputAccumulator {
  sum = 0;
  count = 0;
  rank = Number.POSITIVE_INFINITY;
  lastMs = Number.NEGATIVE_INFINITY;

  add(value: number, rank: number, timeMs: number): void {
    if (rank > this.rank) return;
    if (rank < this.rank) {
      this.rank = rank;
      this.sum = 0;
      this.count = 0;
    }
    this.sum += value;
    this.count += 1;
    if (timeMs > this.lastMs) this.lastMs = timeMs;
  }

  mean(): number {
    return this.count > 0 ? this.sum / this.count : 0;
  }
}

/** per-pod inputs of one bucket; the pod '' stands for samples without pod identity */
export type PodInputs = Map<string, InputAccumulator>;

export class OpenBucket {
  readonly pods = new Map<string, PodInputs>();
  metricSamples = 0;
  /** log lines of this bucket (their classes are counted by the log module's bucket counter) */
  logLines = 0;
  spans: SpanRecord[] = [];

  constructor(public index: number) {}

  /** empties the bucket for reuse as bucket `index` (keeps its maps and accumulators) */
  reset(index: number): void {
    this.index = index;
    this.metricSamples = 0;
    this.logLines = 0;
    if (this.spans.length > 0) this.spans = [];
    if (this.pods.size > 4) this.pods.clear();
    for (const inputs of this.pods.values()) {
      for (const acc of inputs.values()) {
        acc.sum = 0;
        acc.count = 0;
        acc.rank = Number.POSITIVE_INFINITY;
        acc.lastMs = Number.NEGATIVE_INFINITY;
      }
    }
  }

  /** workload-level mean of an input over all pods (undefined without samples) */
  workloadMean(input: string): { mean: number; lastMs: number } | undefined {
    let sum = 0;
    let count = 0;
    let lastMs = Number.NEGATIVE_INFINITY;
    for (const inputs of this.pods.values()) {
      const acc = inputs.get(input);
      if (acc === undefined || acc.count === 0) continue;
      sum += acc.sum;
      count += acc.count;
      if (acc.lastMs > lastMs) lastMs = acc.lastMs;
    }
    return count > 0 ? { mean: sum / count, lastMs } : undefined;
  }

  /**
   * calls fn(input, workload-level mean over all pods, newest sample time) once per input with
   * samples; allocation-free for the common single-pod bucket
   */
  forEachWorkloadMean(fn: (input: string, mean: number, lastMs: number) => void): void {
    if (this.pods.size === 1) {
      for (const inputs of this.pods.values()) for (const [name, acc] of inputs) if (acc.count > 0) fn(name, acc.sum / acc.count, acc.lastMs);
      return;
    }
    for (const name of this.inputNames()) {
      const m = this.workloadMean(name);
      if (m !== undefined) fn(name, m.mean, m.lastMs);
    }
  }

  /** names of every input with samples in this bucket (any pod) */
  inputNames(): Set<string> {
    const names = new Set<string>();
    for (const inputs of this.pods.values()) for (const [name, acc] of inputs) if (acc.count > 0) names.add(name);
    return names;
  }
}

export type AddResult = 'ok' | 'late' | 'overflow';

export class WorkloadBuckets {
  private readonly open = new Map<number, OpenBucket>();
  private maxIndexSeen = Number.NEGATIVE_INFINITY;
  /** one processed bucket kept for reuse (saves its maps and accumulators per step) */
  private spare: OpenBucket | null = null;
  /** index of the last processed bucket */
  lastProcessed = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly bucketMs: number,
    private readonly maxOpenBuckets: number,
  ) {}

  get openCount(): number {
    return this.open.size;
  }

  private bucketFor(timeMs: number): OpenBucket | AddResult {
    const index = Math.floor(timeMs / this.bucketMs);
    if (index <= this.lastProcessed) return 'late';
    let bucket = this.open.get(index);
    if (bucket === undefined) {
      if (this.open.size >= this.maxOpenBuckets) return 'overflow';
      if (this.spare !== null) {
        bucket = this.spare;
        this.spare = null;
        bucket.reset(index);
      } else {
        bucket = new OpenBucket(index);
      }
      this.open.set(index, bucket);
    }
    if (index > this.maxIndexSeen) this.maxIndexSeen = index;
    return bucket;
  }

  addMetric(pod: string, input: string, value: number, rank: number, timeMs: number): AddResult {
    const bucket = this.bucketFor(timeMs);
    if (typeof bucket === 'string') return bucket;
    let inputs = bucket.pods.get(pod);
    if (inputs === undefined) {
      inputs = new Map();
      bucket.pods.set(pod, inputs);
    }
    let acc = inputs.get(input);
    if (acc === undefined) {
      acc = new InputAccumulator();
      inputs.set(input, acc);
    }
    acc.add(value, rank, timeMs);
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
    bucket.spans.push(span);
    return 'ok';
  }

  /** hands a processed bucket back for reuse; the caller must not touch it afterwards */
  recycle(bucket: OpenBucket): void {
    this.spare = bucket;
  }

  /** whether some bucket is closed at server time nowMs */
  hasClosed(nowMs: number): boolean {
    for (const index of this.open.keys()) if (this.isClosed(index, nowMs)) return true;
    return false;
  }

  private isClosed(index: number, nowMs: number): boolean {
    return index < this.maxIndexSeen || nowMs >= (index + 2) * this.bucketMs;
  }

  /** removes and returns the closed buckets in ascending order; marks them processed */
  takeClosed(nowMs: number): OpenBucket[] {
    const closed: OpenBucket[] = [];
    for (const [index, bucket] of this.open) if (this.isClosed(index, nowMs)) closed.push(bucket);
    if (closed.length === 0) return closed;
    closed.sort((a, b) => a.index - b.index);
    for (const b of closed) this.open.delete(b.index);
    const last = closed[closed.length - 1]!.index;
    // every open bucket below a closed one is itself closed, so none is left behind
    if (last > this.lastProcessed) this.lastProcessed = last;
    return closed;
  }
}
