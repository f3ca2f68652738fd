/**
 * One open 15-s bucket of a workload (analytics.md §0.1, §1.2): the inputs of each pod, the count
 * of log lines and the spans; its workload-level means for the analysis step. Reused after its
 * step (WorkloadBuckets.recycle).
 */
import type { SpanRecord } from '../../model/records.js';
import { FIELDS, PodInputs, SCAN_LIMIT } from './pod-inputs.js';

/** spans of a bucket without spans (shared, never written: addSpan gives the bucket its own array) */
export const NO_SPANS: SpanRecord[] = Object.freeze([]) as unknown as SpanRecord[];

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
