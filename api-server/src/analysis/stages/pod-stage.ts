/**
 * Stage 4 of the tick, per-pod signals (analytics.md §3): each pod's bucket inputs into its KPI
 * state, the live pods stepped with the step's context (logs, contagion, weights), their signals
 * aggregated to the workload. Owns the workload's pods (≤ maxPodsPerWorkload, first-seen order).
 * Pure: no clock, no I/O.
 */
import type { AnalysisConfig } from '../config.js';
import type { OpenBucket } from '../buckets/workload-buckets.js';
import { PodKpi, type PodKpiState } from '../signals/pod-kpi.js';
import { PodSignalsBuffer, type PodSignals, type PodStepContext } from '../signals/pod-signals.js';
import { aggregatePodsInto } from '../signals/aggregate.js';
import { DEFAULT_HEALTH_WEIGHTS } from '../weights/health-weights.js';
import type { LogStepResult } from './log-stage.js';
import type { StepEnv } from './step-env.js';

// Scratch of one step, shared by every workload (steps never overlap and nothing here outlives
// the step): the pod context and the pods' signals.
const POD_SIGNALS: PodSignalsBuffer[] = [];
const POD_AGGREGATE = new PodSignalsBuffer();
const POD_CONTEXT: PodStepContext = {
  tMs: Number.NaN,
  dtSeconds: Number.NaN,
  absenceMs: Number.NaN,
  cores: Number.NaN,
  logMoodTerm: Number.NaN,
  recentLogs: false,
  logErrorShare: Number.NaN,
  graphContagion: Number.NaN,
  weights: DEFAULT_HEALTH_WEIGHTS,
  calibrationSteps: Number.NaN,
  fatigueThreshold: Number.NaN,
  fatigueRecovery: Number.NaN,
};

function podSignalsBuffer(i: number): PodSignalsBuffer {
  let b = POD_SIGNALS[i];
  if (b === undefined) {
    b = new PodSignalsBuffer();
    POD_SIGNALS.push(b);
  }
  return b;
}

/** the step's facts the pods read, besides their own inputs */
export interface PodStepFacts {
  tStep: number;
  dtSeconds: number;
  cores: number;
  logs: Readonly<LogStepResult>;
  graphContagion: number;
}

export class PodStage {
  /** live pods in first-seen order (PodKpi.pod names each) */
  private pods: PodKpi[] = [];

  /**
   * §3: the pods' signals aggregated (a shared buffer: read before the next workload's step; the
   * context object is shared too: PodKpi reads it during the call only)
   */
  signals(bucket: OpenBucket, facts: PodStepFacts, env: StepEnv): PodSignals {
    const cfg = env.config;
    const ctx = POD_CONTEXT;
    ctx.tMs = facts.tStep;
    ctx.dtSeconds = facts.dtSeconds;
    ctx.absenceMs = cfg.absenceMs;
    ctx.cores = facts.cores;
    ctx.logMoodTerm = facts.logs.moodTerm;
    ctx.recentLogs = facts.logs.recentLogs;
    ctx.logErrorShare = facts.logs.errorShare;
    ctx.graphContagion = facts.graphContagion;
    ctx.weights = env.weights;
    ctx.calibrationSteps = env.calibrationSteps;
    ctx.fatigueThreshold = cfg.fatigueThreshold;
    ctx.fatigueRecovery = cfg.fatigueRecovery;
    for (let q = 0; q < bucket.podInputs.length; q++) {
      const inputs = bucket.podInputs[q]!;
      if (!inputs.hasSamples()) continue;
      const pod = inputs.pod;
      let kpi = this.pod(pod);
      if (kpi === undefined) {
        if (this.pods.length >= cfg.maxPodsPerWorkload) this.evictOldestPod();
        kpi = new PodKpi();
        kpi.pod = pod;
        this.addPod(kpi);
      }
      kpi.absorb(inputs);
    }
    // pods no input of which is seen any more leave (order of the rest kept)
    const pods = this.pods;
    let n = 0;
    let kept = 0;
    for (let i = 0; i < pods.length; i++) {
      const kpi = pods[i]!;
      if (!kpi.isLive(ctx.tMs, ctx.absenceMs)) continue;
      pods[kept++] = kpi;
      kpi.stepInto(ctx, podSignalsBuffer(n++));
    }
    pods.length = kept;
    if (n === 0) {
      // no pod with a live input (logs or traces only): one workload-level KPI state
      let kpi = this.pod('');
      if (kpi === undefined) {
        kpi = new PodKpi();
        this.addPod(kpi);
      }
      kpi.stepInto(ctx, podSignalsBuffer(n++));
    }
    return aggregatePodsInto(POD_SIGNALS, n, POD_AGGREGATE);
  }

  /** the sum of the numbers the pods' next step reads first (WorkloadAnalyzer.touchAhead) */
  touch(): number {
    let sum = 0;
    for (let i = 0; i < this.pods.length; i++) sum += this.pods[i]!.touch();
    return sum;
  }

  exportState(): [string, PodKpiState][] {
    return this.pods.map((kpi) => [kpi.pod, kpi.toJSON()]);
  }

  /** restores saved pods (the last maxPodsPerWorkload of them) */
  restore(pods: readonly [string, PodKpiState][], cfg: AnalysisConfig): void {
    for (const [name, pod] of pods.slice(-cfg.maxPodsPerWorkload)) {
      const kpi = PodKpi.fromJSON(pod);
      kpi.pod = name;
      // a repeated name keeps its first place (as Map.set did)
      const at = this.pods.findIndex((p) => p.pod === name);
      if (at >= 0) this.pods[at] = kpi;
      else this.addPod(kpi);
    }
  }

  /** appends a pod (the first one in an array of its own size: most workloads keep one pod) */
  private addPod(kpi: PodKpi): void {
    if (this.pods.length === 0) this.pods = [kpi];
    else this.pods.push(kpi);
  }

  private pod(name: string): PodKpi | undefined {
    for (const p of this.pods) if (p.pod === name) return p;
    return undefined;
  }

  private evictOldestPod(): void {
    let oldest = -1;
    let oldestMs = Number.POSITIVE_INFINITY;
    for (let i = 0; i < this.pods.length; i++) {
      const kpi = this.pods[i]!;
      if (kpi.lastSeenMs < oldestMs) {
        oldestMs = kpi.lastSeenMs;
        oldest = i;
      }
    }
    if (oldest >= 0) this.pods.splice(oldest, 1);
  }
}
