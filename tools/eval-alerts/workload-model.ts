/**
 * What a generated workload sends in one 15-second bucket, and the healthy base every behaviour
 * starts from: a daily rhythm with per-workload levels, amplitudes and noise drawn from the PRNG.
 */
import type { Prng } from './prng.js';

export const BUCKET_MS = 15_000;
export const BUCKETS_PER_HOUR = 240;
export const BUCKETS_PER_DAY = 24 * BUCKETS_PER_HOUR;

/** one bucket's telemetry; metrics null = a gap (nothing at all is sent for the bucket) */
export interface BucketSample {
  metrics: Record<string, number> | null;
  info: number;
  warn: number;
  error: number;
  spans: number;
  spanErrors: number;
  spanMs: number;
  /** calls to one downstream service, sent as child spans of the first `spans` root spans (a dependency failure) */
  downstream?: { service: string; spans: number; errors: number; ms: number };
}

/** the levels a behaviour perturbs before the bucket is drawn */
export interface Levels {
  cpu: number;
  memory: number;
  latencyMs: number;
  errorRate: number;
  requestRate: number;
  infoRate: number;
  warnRate: number;
  errorLogRate: number;
  spanRate: number;
}

export interface FailureTruth {
  /** bucket (from the run start) where the degradation begins */
  onsetBucket: number;
  /** bucket where a person would call it an outage */
  failureBucket: number;
  /** slow failures (leak, error creep, latency burn, CPU saturation) count for the median lead */
  slow: boolean;
}

/**
 * The failure objectives a team declares for a workload (POST /config/objectives): the level of
 * an input at which it calls the workload's state an outage. Inputs left out keep the product's
 * fixed edges (memory and cpu: their limit).
 */
export interface WorkloadObjectives {
  error_rate?: number;
  latency_ms?: number;
}

export interface WorkloadSpec {
  name: string;
  behaviour: string;
  kind: 'healthy' | 'failing' | 'nab';
  /** first and one-past-last bucket (from the run start) with telemetry */
  startBucket: number;
  endBucket: number;
  failure: FailureTruth | null;
  /** NAB's labelled windows, as [first, last] buckets from the run start */
  windows: [number, number][];
  /** context events (deploys) at these buckets */
  contextBuckets: number[];
  /** the bucket's telemetry (called once per bucket, in order) */
  sample(bucket: number): BucketSample;
  /**
   * objectives the failure point is defined by (error creep, latency burn): the noise-free level of
   * the degrading input at the failure point; the evaluation draws the others (workload-objectives.ts)
   */
  stated?: WorkloadObjectives;
}

/** the per-workload healthy base: levels with a daily rhythm, and the noise of the draw */
export class HealthyBase {
  readonly cpuBase: number;
  readonly cpuAmp: number;
  readonly phase: number;
  readonly cpuNoise: number;
  readonly memBase: number;
  readonly memNoise: number;
  readonly latBase: number;
  readonly latNoise: number;
  readonly errBase: number;
  readonly reqBase: number;
  readonly infoRate: number;
  readonly warnRate: number;
  readonly errorLogRate: number;
  readonly spanRate: number;
  uptimeFrom = 0;

  constructor(readonly rng: Prng, noiseScale = 1) {
    this.cpuBase = rng.between(0.15, 0.45);
    this.cpuAmp = rng.between(0.03, 0.15);
    this.phase = rng.between(0, 2 * Math.PI);
    this.cpuNoise = rng.between(0.008, 0.03) * noiseScale;
    this.memBase = rng.between(0.3, 0.6);
    this.memNoise = rng.between(0.003, 0.012) * noiseScale;
    this.latBase = rng.between(40, 180);
    this.latNoise = rng.between(0.04, 0.12) * noiseScale;
    this.errBase = rng.between(0, 0.006);
    this.reqBase = rng.between(20, 200);
    this.infoRate = rng.between(1.5, 4);
    this.warnRate = rng.between(0.02, 0.15);
    this.errorLogRate = rng.between(0.002, 0.02);
    this.spanRate = rng.between(3, 6);
  }

  /** the base levels at a bucket (daily rhythm on CPU, latency and traffic) */
  levels(bucket: number): Levels {
    const day = Math.sin((2 * Math.PI * bucket) / BUCKETS_PER_DAY + this.phase);
    return {
      cpu: this.cpuBase + this.cpuAmp * day,
      memory: this.memBase,
      latencyMs: this.latBase * (1 + 0.25 * day * (this.cpuAmp / 0.15)),
      errorRate: this.errBase,
      requestRate: this.reqBase * (1 + 0.4 * day),
      infoRate: this.infoRate * (1 + 0.3 * day),
      warnRate: this.warnRate,
      errorLogRate: this.errorLogRate,
      spanRate: this.spanRate * (1 + 0.3 * day),
    };
  }

  /** draws one bucket's telemetry around the levels */
  draw(bucket: number, l: Levels, noiseScale = 1): BucketSample {
    const r = this.rng;
    const cpu = clamp01(l.cpu + this.cpuNoise * noiseScale * r.normal());
    const memory = clamp01(l.memory + this.memNoise * noiseScale * r.normal());
    const latencyMs = Math.max(1, l.latencyMs * (1 + this.latNoise * noiseScale * r.normal()));
    const errorRate = clamp01(l.errorRate * (1 + 0.3 * r.normal()));
    const spans = r.poisson(l.spanRate);
    let spanErrors = 0;
    for (let k = 0; k < spans; k++) if (r.next() < l.errorRate) spanErrors += 1;
    return {
      metrics: {
        'process.cpu.utilization': cpu,
        'process.memory.utilization': memory,
        latency_ms: latencyMs,
        error_rate: errorRate,
        request_rate: Math.max(0, l.requestRate * (1 + 0.05 * r.normal())),
        uptime_seconds: ((bucket - this.uptimeFrom) * BUCKET_MS) / 1000,
      },
      info: r.poisson(l.infoRate),
      warn: r.poisson(l.warnRate),
      error: r.poisson(l.errorLogRate),
      spans,
      spanErrors,
      spanMs: latencyMs,
    };
  }
}

export function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

/** 0 before `from`, 1 after `to`, linear between */
export function ramp(bucket: number, from: number, to: number): number {
  if (bucket <= from) return 0;
  if (bucket >= to) return 1;
  return (bucket - from) / (to - from);
}
