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

/** accumulator fields per input in {@link PodInputs.acc}: sum, count, rank, lastMs */
const FIELDS = 4;
/** a reused bucket keeps the names of a pod up to this many (see PodInputs.clear) */
const KEPT_NAMES = 64;
/** name and pod lookups scan linearly up to this many entries, then build a Map */
const SCAN_LIMIT = 8;
/** spans of a bucket without spans (shared, never written: addSpan gives the bucket its own array) */
const NO_SPANS: SpanRecord[] = Object.freeze([]) as unknown as SpanRecord[];

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

/** caller-owned output of {@link OpenBucket.collectMeans} (parallel arrays, reused) */
export interface WorkloadMeans {
  names: string[];
  means: number[];
  lastMs: number[];
}

export class OpenBucket {
  /** inputs per pod, pods in first-seen order */
  podInputs: PodInputs[] = [];
  private podIndex: Map<string, number> | null = null;
  /** podInputs.length at the last compact(), −1 after a clear */
  private compacted = 0;
  metricSamples = 0;
  /** log lines of this bucket (their classes are counted by the log module's bucket counter) */
  logLines = 0;
  spans: SpanRecord[] = NO_SPANS;
  /** server time of the first takeClosed that found the bucket closed (NaN: not yet; used with a grace) */
  closedSinceMs = Number.NaN;

  constructor(public index: number) {}

  /** empties the bucket for reuse as bucket `index` (keeps up to 4 pods' names and arrays) */
  reset(index: number): void {
    this.index = index;
    this.metricSamples = 0;
    this.logLines = 0;
    this.spans = NO_SPANS;
    this.closedSinceMs = Number.NaN;
    if (this.podInputs.length > 4) {
      this.podInputs.length = 0;
      this.podIndex = null;
      this.compacted = -1;
    }
    for (const p of this.podInputs) p.clear();
  }

  /**
   * Drops the growth slack of the bucket's arrays (a bucket is reused step after step: sized to
   * fit, it holds no spare capacity); only copies arrays that grew since the last call.
   */
  compact(): void {
    if (this.podInputs.length !== this.compacted) {
      this.podInputs = this.podInputs.slice();
      this.compacted = this.podInputs.length;
    }
    for (const p of this.podInputs) p.compact();
  }

  /** the inputs of `pod`, created at first sight */
  inputsOf(pod: string): PodInputs {
    const i = this.findPod(pod);
    if (i >= 0) return this.podInputs[i]!;
    const inputs = new PodInputs();
    inputs.pod = pod;
    const n = this.podInputs.length;
    this.podInputs.push(inputs);
    if (this.podIndex !== null) this.podIndex.set(pod, n);
    else if (n >= SCAN_LIMIT) this.podIndex = new Map(this.podInputs.map((p, j) => [p.pod, j]));
    return inputs;
  }

  private findPod(pod: string): number {
    if (this.podIndex !== null) return this.podIndex.get(pod) ?? -1;
    const pods = this.podInputs;
    for (let i = 0; i < pods.length; i++) if (pods[i]!.pod === pod) return i;
    return -1;
  }

  /** one pod's bucket mean of an input (undefined without samples) */
  podMean(pod: string, input: string): number | undefined {
    const p = this.findPod(pod);
    const inputs = p < 0 ? undefined : this.podInputs[p]!;
    const i = inputs === undefined ? -1 : inputs.find(input);
    if (inputs === undefined || i < 0 || inputs.count(i) === 0) return undefined;
    return inputs.sum(i) / inputs.count(i);
  }

  /** workload-level mean of an input over all pods (undefined without samples) */
  workloadMean(input: string): { mean: number; lastMs: number } | undefined {
    let sum = 0;
    let count = 0;
    let lastMs = Number.NEGATIVE_INFINITY;
    for (const inputs of this.podInputs) {
      const i = inputs.find(input);
      if (i < 0 || inputs.count(i) === 0) continue;
      sum += inputs.sum(i);
      count += inputs.count(i);
      if (inputs.lastMs(i) > lastMs) lastMs = inputs.lastMs(i);
    }
    return count > 0 ? { mean: sum / count, lastMs } : undefined;
  }

  /**
   * Writes (input, workload-level mean over all pods, newest sample time) of every input with
   * samples into `out` from position 0, in the order of first sight across the pods (pod order,
   * then input order); returns how many. Allocation-free once `out` has grown.
   */
  collectMeans(out: WorkloadMeans): number {
    const pods = this.podInputs;
    let n = 0;
    if (pods.length === 1) {
      const p = pods[0]!;
      const a = p.acc;
      for (let i = 0; i < p.names.length; i++) {
        const o = i * FIELDS;
        const c = a[o + 1]!;
        if (c > 0) {
          out.names[n] = p.names[i]!;
          out.means[n] = a[o]! / c;
          out.lastMs[n] = a[o + 3]!;
          n++;
        }
      }
      return n;
    }
    for (let q = 0; q < pods.length; q++) {
      const p = pods[q]!;
      for (let i = 0; i < p.names.length; i++) {
        if (!(p.count(i) > 0)) continue;
        const name = p.names[i]!;
        let seen = false;
        for (let k = 0; k < n && !seen; k++) seen = out.names[k] === name;
        if (seen) continue;
        let sum = 0;
        let count = 0;
        let lastMs = Number.NEGATIVE_INFINITY;
        for (let r = 0; r < pods.length; r++) {
          const pr = pods[r]!;
          const j = r === q ? i : pr.find(name);
          if (j < 0 || pr.count(j) === 0) continue;
          sum += pr.sum(j);
          count += pr.count(j);
          if (pr.lastMs(j) > lastMs) lastMs = pr.lastMs(j);
        }
        out.names[n] = name;
        out.means[n] = sum / count;
        out.lastMs[n] = lastMs;
        n++;
      }
    }
    return n;
  }
}

export type AddResult = 'ok' | 'late' | 'overflow';

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
