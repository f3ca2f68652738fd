/**
 * The public face of the analysis core: the types it hands to the rest of the service and the
 * facade the pipelines drive. Everything behind it is pure: no I/O, no clock, no randomness
 * other than the injected id factory. Times are epoch milliseconds passed in by the caller.
 *
 * Values here are unrounded; the HTTP layer rounds when it renders (signals 4 decimals,
 * FusedR 3, forecasts 3: analytics.md §0).
 */
import type { LogRecord, MetricRecord, SpanRecord } from '../model/records.js';
import type { LogBurstEvent } from './logs/log-burst.js';
import type { Diagnosis } from './explain/diagnosis.js';
import type { FailureEta } from './explain/failure-eta.js';
import type { FailureObjective } from '../model/failure-objective.js';
import type { SignalName, WeightedSignal } from '../model/signals.js';

export type RuptureState = 'stable' | 'elevated' | 'warning' | 'critical' | 'emergency';
export type WorkloadStatus = 'pending_telemetry' | 'calibrating' | 'active';
export type WorkloadPhase = 'Calibrating' | 'Active' | 'Rupture';
export type Pipeline = 'metric' | 'log' | 'trace';

export interface SignalReading {
  value: number;
  state: string;
}

export interface HealthForecast {
  in15min: number;
  in30min: number;
  criticalEtaMinutes: number;
  trend: 'improving' | 'stable' | 'degrading';
  confidenceWindow: number;
}

export interface BusinessSignals {
  sloBurnVelocity: number;
  blastRadius: number;
  recoveryDebt: number;
}

export interface PatternMatch {
  similarity: number;
  matchedRuptureId: string;
  matchedAtMs: number;
  resolutionNote?: string;
}

/** Per-source rupture ratios of one step; null when the source is not present (analytics.md §4.3). */
export interface SourceRatios {
  metricR: number | null;
  logR: number | null;
  traceR: number | null;
  /** traceR form A, diagnostic only */
  traceRA: number | null;
  primaryMetric: string | null;
  /** burst and stable slopes of the primary metric, per second */
  alphaBurst: number;
  alphaStable: number;
}

export interface WorkloadSnapshot {
  key: string;
  timeMs: number;
  fusedR: number;
  state: RuptureState;
  status: WorkloadStatus;
  phase: WorkloadPhase;
  signals: Record<SignalName, SignalReading>;
  throughputDrop: number;
  calibrationProgress: number;
  calibrationEtaMinutes: number;
  healthForecast: HealthForecast;
  business: BusinessSignals;
  patternMatch: PatternMatch | null;
  ruptureId: string | null;
  sources: SourceRatios;
  /** ensemble confidence of the fused_rupture_index series (analytics.md §5.5) */
  confidence: number;
  /** how long the announced band has been critical or worse, ms (decision layer; 0 below critical) */
  criticalForMs?: number;
}

export type AnomalyMethod = 'zscore' | 'mad' | 'seasonal' | 'ca_ilr' | 'novelty';

export interface AnomalyEvent {
  id: string;
  workload: string;
  metric: string;
  method: AnomalyMethod;
  severity: 'warning' | 'critical';
  value: number;
  expected: number;
  score: number;
  consensus: boolean;
  timeMs: number;
}

/** A band change of analytics.md §4.4. */
export interface BandEvent {
  type: 'warning' | 'critical' | 'emergency' | 'recovered';
  severity: 'info' | 'warning' | 'critical' | 'emergency';
  workload: string;
  fusedR: number;
  previousState: RuptureState;
  state: RuptureState;
  ruptureId: string | null;
  timeMs: number;
}

export interface ModelContribution {
  weight: number;
  prediction: number;
}

/** Explain record of one rupture episode (analytics.md §8). */
export interface ExplainRecord {
  ruptureId: string;
  workload: string;
  openedAtMs: number;
  closedAtMs: number | null;
  updatedAtMs: number;
  fusedR: number;
  peakFusedR: number;
  peakAtMs: number;
  state: RuptureState;
  modelContributions: Record<string, ModelContribution>;
  /** the diagnosed input (memory, cpu, latency, error_rate, restarts, dependency:<service>), else topSignal */
  topFactor: string;
  /** the weighted signal with the largest w_k·p_k (analytics.md §8.2): what signal-scoped suppressions match */
  topSignal?: WeightedSignal;
  /** what moved (explain/diagnosis.ts); absent on records saved before it existed */
  diagnosis?: Diagnosis;
  /** which model gave ttfSeconds (explain/failure-eta.ts) */
  etaBasis?: FailureEta['basis'];
  signalValues: Record<SignalName, number>;
  primaryPipeline: Pipeline;
  sources: SourceRatios;
  fusionWeights: { metric: number; log: number; trace: number };
  fusedRBeforeCap: number;
  healthWeights: Record<WeightedSignal, number>;
  penalties: Record<WeightedSignal, number>;
  ttfSeconds: number;
  confidence: number;
  narrative: string;
  /** null: nothing to recommend yet (an undetermined diagnosis) */
  recommendation: ActionRecommendation | null;
}

export type ActionType = 'scale' | 'restart' | 'cordon' | 'alert';

/** What the decision list of analytics.md §9.2 recommends for the current step. */
export interface ActionRecommendation {
  type: ActionType;
  params: Record<string, string | number>;
  tier: 1 | 2;
  text: string;
}

export interface WeightOverride {
  selector: string;
  weights: Record<WeightedSignal, number>;
}

export interface ForecastPoint {
  offsetMinutes: number;
  mean: number;
  lower80: number;
  upper80: number;
  lower95: number;
  upper95: number;
}

export interface ForecastResult {
  workload: string;
  metric: string;
  horizonMinutes: number;
  current: number;
  trend: 'rising' | 'falling' | 'stable';
  confidence: number;
  warmingUp: boolean;
  timeMs: number;
  models: { name: string; weight: number; mean: number }[];
  points: ForecastPoint[];
}

/** What one call of AnalysisCore.step produced. */
export interface StepOutput {
  /** snapshots of workloads that ran at least one analysis step (a workload that ran several: its latest) */
  snapshots: WorkloadSnapshot[];
  /** workload-buckets the step ran, a backfilled workload's several counted each */
  buckets: number;
  anomalies: AnomalyEvent[];
  bandEvents: BandEvent[];
  /** explain records opened or refreshed in this step */
  ruptures: ExplainRecord[];
  /** fingerprints recorded in this step */
  fingerprints: Fingerprint[];
  /** log burst events of analytics.md §4.1 (start: endMs null; end: endMs set); additive, optional */
  logBursts?: LogBurstEvent[];
}

/** An analysis step run in parts (AnalysisCore.beginStep). */
export interface StepInParts {
  /** workload-buckets not run yet */
  readonly remaining: number;
  /** runs up to `count` more workload-buckets; true once the whole step has run */
  advance(count: number): boolean;
  /** what the whole step produced (runs what is left first) */
  output(): StepOutput;
}

/** Ingest counters of the analysis buffers (additive). */
export interface AnalysisIngestStats {
  acceptedSamples: number;
  /** non-finite value or time, or an empty workload key */
  rejectedInvalid: number;
  /** sample for a bucket already processed */
  lateSamples: number;
  /** sample that would exceed the open-bucket bound of its workload */
  overflowSamples: number;
}

export interface Fingerprint {
  id: string;
  workload: string;
  ruptureId: string | null;
  capturedAtMs: number;
  vector: number[];
  fusedR: number;
  resolutionNote?: string;
}

/** Context event as the analysis sees it (deploy quiet periods, narrative lines). */
export interface ContextEventInput {
  id: string;
  workload: string;
  event: string;
  description: string;
  timeMs: number;
}

/** Suppression as the analysis sees it: anomalies of listed series are not stored (analytics.md §5.6). */
export interface SuppressionInput {
  id: string;
  workload: string;
  startMs: number;
  endMs: number;
  signals: string[] | undefined;
}

export interface AnalysisCore {
  observeMetric(record: MetricRecord): void;
  observeLog(record: LogRecord): void;
  observeSpan(record: SpanRecord): void;
  /** Runs every closed, unprocessed bucket of every workload up to the server time `nowMs`. */
  step(nowMs: number): StepOutput;
  /**
   * The same step, to be run in parts (the engine serves ingest between them); optional. Its
   * output equals what step(nowMs) would have returned. One step at a time.
   */
  beginStep?(nowMs: number): StepInParts;
  snapshot(key: string): WorkloadSnapshot | undefined;
  workloadKeys(): string[];
  setWeights(overrides: WeightOverride[]): void;
  /** the failure objectives (first matching selector wins); the failure ETA aims at them from the next step */
  setObjectives(objectives: readonly FailureObjective[]): void;
  setContextEvents(events: ContextEventInput[]): void;
  setSuppressions(suppressions: SuppressionInput[]): void;
  explain(ruptureId: string): ExplainRecord | undefined;
  forecast(key: string, metric: string, horizonMinutes: number): ForecastResult | undefined;
  /** JSON-serialisable state of one workload (windows, baselines, ensembles) for LevelDB and hand-over. */
  exportWorkload(key: string): unknown;
  importWorkload(key: string, state: unknown): void;
  /** Forgets a workload (cluster mode: its partition moved to another replica). */
  removeWorkload(key: string): void;
  /**
   * The index of the workload's last processed 15-s bucket: −Infinity while the analysis holds
   * the workload but has processed none of its buckets yet (they are still open), undefined when
   * it does not hold the workload.
   */
  lastProcessedBucket(key: string): number | undefined;
  /** ingest counters (additive, optional) */
  ingestStats?(): AnalysisIngestStats;
  /** workload-buckets opened by ingest and not run by a step yet (additive, optional) */
  waitingBuckets?(): number;
}
