/**
 * Tunables of the analysis core (analytics.md §0, §1.2, §2, §6). Every value has the design's
 * default; the service may override any of them at construction time.
 */
import { EVENT_RETENTION_MS } from '../model/retention.js';
export interface AnalysisConfig {
  /** bucket length = analysis step length Δ, ms (analytics.md §0.1) */
  bucketMs: number;
  /** an input whose last sample is older than this (sample time) is absent (§1.2) */
  absenceMs: number;
  /** burst / stable regression windows in points (§2.1) */
  burstWindow: number;
  stableWindow: number;
  /** metricR noise gate δ (§2.2); 0 gives the literal interface formula */
  noiseGate: number;
  /**
   * Calibration length N_cal in analysis steps (§6). The interface states the duration two
   * ways (100 ticks ≈ 25 min, 96 intervals of 15 s); both are expressible: set 100 or 96.
   */
  calibrationSteps: number;
  /**
   * Alternative statement of the calibration length in minutes of sample time; when set it
   * wins over calibrationSteps (steps = ceil(minutes·60 000 / bucketMs)).
   */
  calibrationMinutes: number | undefined;
  /** pods kept per workload; the least recently seen is evicted beyond it (§1.3) */
  maxPodsPerWorkload: number;
  /** unprocessed buckets buffered per workload (a backfill of this many buckets at most) */
  maxOpenBuckets: number;
  /**
   * How long (server time, ms) a closed bucket waits before it is processed, counted from the
   * first step that found it closed. Its other sources may still arrive meanwhile (a workload's
   * metrics, logs and spans come as separate requests, in cluster mode as separate Kafka
   * records). 0 (the default) is §0.1 as written: processed at the step that finds it closed.
   */
  bucketGraceMs: number;
  /** explain records kept (§8.1): count and age */
  maxExplainRecords: number;
  explainRetentionMs: number;
  /** fatigue dissipative parameters (§3.2) */
  fatigueThreshold: number;
  fatigueRecovery: number;
  /**
   * Steps FusedR must stay in the emergency band before metric evidence alone (no log burst, no
   * trace ratio agreeing) is announced above warning (decision/band-decider.ts; 24 = 6 minutes)
   */
  singleSourceEmergencySteps: number;
}

export const DEFAULT_ANALYSIS_CONFIG: AnalysisConfig = {
  bucketMs: 15_000,
  absenceMs: 300_000,
  burstWindow: 20,
  stableWindow: 240,
  noiseGate: 0.02,
  calibrationSteps: 96,
  calibrationMinutes: undefined,
  maxPodsPerWorkload: 32,
  maxOpenBuckets: 2880,
  bucketGraceMs: 0,
  maxExplainRecords: 1000,
  explainRetentionMs: EVENT_RETENTION_MS,
  fatigueThreshold: 0.3,
  fatigueRecovery: 0.05,
  singleSourceEmergencySteps: 24,
};

export function resolveConfig(partial: Partial<AnalysisConfig> = {}): AnalysisConfig {
  return { ...DEFAULT_ANALYSIS_CONFIG, ...partial };
}

/** N_cal in steps from whichever of the two statements is configured. */
export function calibrationStepsOf(config: AnalysisConfig): number {
  if (config.calibrationMinutes !== undefined && Number.isFinite(config.calibrationMinutes) && config.calibrationMinutes > 0) {
    return Math.max(1, Math.ceil((config.calibrationMinutes * 60_000) / config.bucketMs));
  }
  return Math.max(1, Math.floor(config.calibrationSteps));
}
