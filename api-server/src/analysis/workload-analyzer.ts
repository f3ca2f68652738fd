/**
 * One workload's analysis: ingest buffering into 15-s buckets, and the analysis step of one
 * closed bucket (analytics.md §0.1, §1-§8): normalised inputs, regression windows and metricR,
 * per-pod KPI signals aggregated to the workload, logR, traceR, fusion, bands, calibration,
 * episodes, series for the ensembles and detectors, health forecast, business signals,
 * fingerprints and the explain record. Pure: no clock, no I/O, ids from the injected factory.
 *
 * State bound per workload (beyond buffered, unprocessed buckets): ≤ 32 pods × ~2.5 KB,
 * 4 × (20 + 240)-point regression windows, ≤ 32 series (ensemble + detectors each, bounded by
 * their modules), a 60-value health history, a 20-bucket log baseline, a 10-span window,
 * ≤ 1000 fingerprints and 7 days of near-miss times.
 */
import type {
  AnomalyEvent,
  BandEvent,
  ContextEventInput,
  ExplainRecord,
  Fingerprint,
  HealthForecast,
  ModelContribution,
  PatternMatch,
  SignalName,
  SignalReading,
  SourceRatios,
  SuppressionInput,
  WorkloadPhase,
  WorkloadSnapshot,
} from './contract.js';
import { SIGNAL_NAMES } from './contract.js';
import type { AnalysisConfig } from './config.js';
import { WorkloadBuckets, type OpenBucket, type WorkloadMeans } from './buckets/workload-buckets.js';
import { loadPerCore } from './normalise/unit-rules.js';
import { PodKpi, PodSignalsBuffer, type PodSignals, type PodStepContext } from './signals/pod-kpi.js';
import { aggregatePodsInto } from './signals/aggregate.js';
import { signalReadings, PENDING_STATE } from './signals/states.js';
import { stepDtSeconds } from './signals/formulas.js';
import { DEFAULT_HEALTH_WEIGHTS, type HealthWeights } from './weights/health-weights.js';
import { calibrationEtaMinutes, calibrationProgress, statusOf } from './calibration/progress.js';
import { fuse, fusedROf } from './fusion/fusion.js';
import { healthCeiling, isRupture } from './bands.js';
import { AlertDecision, type InputLines } from './decision/alert-decision.js';
import { DEFAULT_LOG_GATE, gatedLogRatio } from './decision/log-significance.js';
import { anomalySeverity, judgedAsLevel } from './decision/anomaly-gate.js';
import { fallbackForecast, forecastHealthOf } from './health-forecast/health-forecast.js';
import { DERIVED_SERIES, SERIES_BURST_POINTS, SERIES_STABLE_POINTS, SeriesSet, type SeriesPoint } from './series/series-set.js';
import { SlidingRegression } from './regression/index.js';
import { MODEL_NAMES, type SeriesEnsemble } from './ensemble/index.js';
import { burstLineOf, seriesBurstFull, seriesBurstMean, seriesBurstSlope, seriesBurstSlopeStdError, seriesBurstSpan, seriesStableSlope } from './anomaly/index.js';
import { LogBucketCounter, logErrorShare, logMoodTerm, logSentiment } from './logs/log-step-counter.js';
import { LogBurstDetector, type LogBurstEvent } from './logs/log-burst.js';
import { LogSeries } from './logs/log-series.js';
import type { ServiceGraph } from './traces/service-graph.js';
import { SpanWindow } from './traces/span-window.js';
import { NEAR_MISS_ENTER, NearMissTracker } from './business/near-miss.js';
import { businessSignalsOf, type SloConfig } from './business/business-signals.js';
import { FingerprintStore } from './fingerprint/fingerprint-store.js';
import { fingerprintVector } from './fingerprint/fingerprint-vector.js';
import { RuptureEpisodeTracker } from './episodes/rupture-episode.js';
import { primaryPipeline, topFactor } from './explain/top-factor.js';
import { buildNarrative } from './explain/narrative.js';
import { diagnose, type Diagnosis } from './explain/diagnosis.js';
import { lineTrend, recentDeploy, seriesTrend, uptimeResets } from './explain/diagnosis-inputs.js';
import { DownstreamHistory } from './explain/downstream-history.js';
import { earliestInputEta, etaSlope, failureEta, TREND_INPUTS } from './explain/failure-eta.js';
import { recommendationFor } from './explain/recommendation-rules.js';
import { contextEventLines } from './explain/context-lines.js';
import { parseWorkloadState, type WorkloadState } from './workload-state.js';

/** inputs whose burst/stable slopes give metricR, in tie order (§2.2) */
export const METRIC_R_INPUTS = ['cpu', 'memory', 'latency', 'error_rate'] as const;
const METRIC_R_SET: ReadonlySet<string> = new Set(METRIC_R_INPUTS);
const HEALTH_HISTORY = 60;
/** traceR from which the trace source corroborates a metric rupture above warning (ADR 0011) */
const TRACE_CORROBORATES = 0.75;
const QUIET_BEFORE_MS = 60_000;
const QUIET_AFTER_MS = 300_000;
const FORECAST_STEPS_5_MIN = 20;

export interface StepEnv {
  config: AnalysisConfig;
  calibrationSteps: number;
  weights: Readonly<HealthWeights>;
  newHexId: () => string;
  graph: ServiceGraph;
  contextEvents: readonly ContextEventInput[];
  suppressions: readonly SuppressionInput[];
  slo: SloConfig | undefined;
  maxSeries: number;
}

export interface WorkloadStepResult {
  snapshot: WorkloadSnapshot;
  anomalies: AnomalyEvent[];
  bandEvent: BandEvent | null;
  explain: ExplainRecord | null;
  fingerprint: Fingerprint | null;
  logBursts: LogBurstEvent[];
}

/** what {@link WorkloadAnalyzer.run} appends to (the core shares one over the workloads of a step) */
export interface StepSink {
  anomalies: AnomalyEvent[];
  logBursts: LogBurstEvent[];
  bandEvents: BandEvent[];
  fingerprints: Fingerprint[];
  /** the explain record of the last run, null without one */
  explain: ExplainRecord | null;
}

// Scratch of one analysis step, shared by every analyzer (steps never overlap and nothing here
// outlives the step): bucket means, series points with firings, the pod context and signals.
const MEANS: WorkloadMeans = { names: [], means: [], lastMs: [] };
const POINTS: SeriesPoint[] = [];
/** the derived series' values of the step, in DERIVED_SERIES order */
const DERIVED_VALUES: number[] = [0, 0, 0, 0];
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
/** positions in WorkloadAnalyzer.lastNumbers */
const LAST_TIME = 0;
const LAST_FUSED_R = 1;
const LAST_SIGNALS = 2;
const LAST_THROUGHPUT_DROP = LAST_SIGNALS + SIGNAL_NAMES.length;
const LAST_BUSINESS = LAST_THROUGHPUT_DROP + 1;
const LAST_SOURCES = LAST_BUSINESS + 3;
const LAST_CONFIDENCE = LAST_SOURCES + 6;
const LAST_CRITICAL_FOR = LAST_CONFIDENCE + 1;
const LAST_LENGTH = LAST_CRITICAL_FOR + 1;

/** the env of the running step, for the id factories below (no closure per step) */
let idEnv: StepEnv | null = null;
const newRuptureId = (): string => `r_${idEnv!.newHexId()}`;
const newLogBurstId = (): string => `lb_${idEnv!.newHexId()}`;

function podSignalsBuffer(i: number): PodSignalsBuffer {
  let b = POD_SIGNALS[i];
  if (b === undefined) {
    b = new PodSignalsBuffer();
    POD_SIGNALS.push(b);
  }
  return b;
}

/**
 * The metricR windows of an input: the input series' own burst and stable lines, read in place in
 * its memory (observe pushes them; a series is never dropped), or lines of their own.
 */
type MetricWindows =
  | { series: SeriesEnsemble; last: number; shared: true }
  | { burst: SlidingRegression; stable: SlidingRegression; last: number; shared: false };

function emptySources(): SourceRatios {
  return { metricR: null, logR: null, traceR: null, traceRA: null, primaryMetric: null, alphaBurst: 0, alphaStable: 0 };
}

/** the lines of one metricR input as the decision layer reads them (scratch of one step) */
const INPUT_LINES: InputLines = { burstSlope: 0, burstStdError: 0, burstSpan: 0, stableSlope: 0, burstMean: 0, stableMean: 0 };

/** where touchAhead leaves the sum of what it read (a store, so the reads stay) */
const AHEAD_TOUCHED = new Float64Array(1);

export class WorkloadAnalyzer {
  readonly buckets: WorkloadBuckets;
  readonly name: string;
  private logCounter: LogBucketCounter | null = null;
  private logBurst: LogBurstDetector | null = null;
  private logSeries: LogSeries | null = null;
  private spanWindow: SpanWindow | null = null;
  /** live pods in first-seen order (PodKpi.pod names each) */
  private pods: PodKpi[] = [];
  private windows = new Map<string, MetricWindows>();
  private series: SeriesSet;
  /** created at the first FusedR ≥ 2 (a tracker that never entered near-miss has no state) */
  private nearMiss: NearMissTracker | null = null;
  /** created at the first fingerprint recorded or restored */
  private fingerprints: FingerprintStore | null = null;
  private decision = new AlertDecision();
  private episodes = new RuptureEpisodeTracker();
  private explainRecord: ExplainRecord | null = null;
  steps = 0;
  private originMs: number | null = null;
  private prevStepMs: number | null = null;
  private cores = 1;
  private lastMetricMs = Number.NEGATIVE_INFINITY;
  private errorRate = 0;
  private errorRateMs = Number.NEGATIVE_INFINITY;
  /** the last ≤ 60 final health values; once full a ring whose oldest value is at healthHead */
  private healthRing: number[] = [];
  private healthHead = 0;
  private fingerprintCount = 0;
  /** a snapshot restored by fromJSON, until the next step */
  private restored: WorkloadSnapshot | null = null;
  /**
   * The last step's snapshot, kept compact (the snapshot object is the caller's): its numbers
   * (LAST_* positions), which of the sources are null, and its other fields; the rest is derived
   * from state no step changed since (steps, the health history).
   */
  private lastNumbers: number[] | null = null;
  private lastNulls = 0;
  private lastPrimaryMetric: string | null = null;
  private lastState: WorkloadSnapshot['state'] = 'stable';
  private lastRuptureId: string | null = null;
  private lastPatternMatch: PatternMatch | null = null;
  private lastCalibrationSteps = 0;
  /** the open rupture's ETA in minutes that replaced the health forecast's, null outside one */
  private lastCriticalEta: number | null = null;
  /** the downstream edges' error shares over time: a dependency is judged against its own baseline */
  private downstream = new DownstreamHistory();
  /** the core's bookkeeping: its weight-table version these weights were resolved at, and the first sample time */
  weightsVersion = -1;
  weights: Readonly<HealthWeights> = DEFAULT_HEALTH_WEIGHTS;
  firstSeenMs = 0;

  constructor(
    readonly key: string,
    private readonly config: AnalysisConfig,
    maxSeries: number,
  ) {
    this.name = key.split('/')[2] ?? key;
    this.buckets = new WorkloadBuckets(config.bucketMs, config.maxOpenBuckets, config.bucketGraceMs);
    this.series = new SeriesSet(maxSeries);
  }

  /** the log line counter, created at the first line */
  logs(): LogBucketCounter {
    if (this.logCounter === null) {
      this.logCounter = new LogBucketCounter();
      this.logBurst = new LogBurstDetector(this.key);
      this.logSeries = new LogSeries();
    }
    return this.logCounter;
  }

  /** the last step's snapshot (a new object each call), the restored one before any step, else null */
  get snapshotOrNull(): WorkloadSnapshot | null {
    if (this.lastNumbers !== null) return this.lastSnapshot(this.lastNumbers);
    return this.restored;
  }

  get openRecord(): ExplainRecord | null {
    return this.explainRecord;
  }

  seriesEnsemble(name: string): ReturnType<SeriesSet['ensemble']> {
    return this.series.ensemble(name);
  }

  get lastStepMs(): number | null {
    return this.prevStepMs;
  }

  /** snapshot of a workload known but not yet stepped (§3.4, §6) */
  provisionalSnapshot(calibrationSteps: number, nowMs: number): WorkloadSnapshot {
    const signals = {} as Record<SignalName, SignalReading>;
    for (const s of SIGNAL_NAMES) signals[s] = { value: 0, state: PENDING_STATE };
    return {
      key: this.key,
      timeMs: nowMs,
      fusedR: 0,
      state: 'stable',
      status: 'pending_telemetry',
      phase: 'Calibrating',
      signals,
      throughputDrop: 0,
      calibrationProgress: calibrationProgress(0, calibrationSteps),
      calibrationEtaMinutes: calibrationEtaMinutes(0, calibrationSteps, this.config.bucketMs),
      healthForecast: fallbackForecast(0, 0),
      business: { sloBurnVelocity: 0, blastRadius: 0, recoveryDebt: 0 },
      patternMatch: null,
      ruptureId: null,
      sources: emptySources(),
      confidence: 0,
    };
  }

  /** the analysis step of one closed bucket (spans of the bucket were already fed to the graph) */
  step(bucket: OpenBucket, env: StepEnv): WorkloadStepResult {
    const sink: StepSink = { anomalies: [], logBursts: [], bandEvents: [], fingerprints: [], explain: null };
    const snapshot = this.run(bucket, env, sink);
    return { snapshot, anomalies: sink.anomalies, bandEvent: sink.bandEvents[0] ?? null, explain: sink.explain, fingerprint: sink.fingerprints[0] ?? null, logBursts: sink.logBursts };
  }

  /**
   * Touches what this workload's next run reads first that no computation leads to: its series'
   * objects and first memory line, its pods' numbers and the health history (called a couple of
   * workloads ahead, so that these reads overlap the runs in between). Changes nothing.
   */
  touchAhead(): void {
    this.series.touchObjects();
    let sum = 0;
    for (let i = 0; i < this.pods.length; i++) sum += this.pods[i]!.touch();
    const ring = this.healthRing;
    for (let i = 0; i < ring.length; i += 8) sum += ring[i]!;
    AHEAD_TOUCHED[0] = sum;
  }

  /**
   * step() appending its events to `sink` (sink.explain is set) and returning the snapshot: the
   * core's path, which shares one sink over the workloads of a step
   */
  run(bucket: OpenBucket, env: StepEnv, sink: StepSink): WorkloadSnapshot {
    const cfg = env.config;
    const tStep = (bucket.index + 1) * cfg.bucketMs;
    const dt = stepDtSeconds(this.prevStepMs ?? undefined, tStep);
    if (this.originMs === null) this.originMs = tStep;
    const x = (tStep - this.originMs) / 1000;
    const points = POINTS;
    points.length = 0;
    idEnv = env;

    // §1: workload-level bucket means → windows and series
    const means = MEANS;
    const nMeans = bucket.collectMeans(means);
    // the memory every series of this step reads first, touched at once (docs/performance.md)
    this.series.prefetch(tStep / 1000);
    this.series.prefetchContexts(means.names, means.means, nMeans);
    for (let i = 0; i < nMeans; i++) {
      if (means.names[i] === 'cores') {
        this.cores = Math.max(1, means.means[i]!);
        break;
      }
    }
    for (let i = 0; i < nMeans; i++) {
      const name = means.names[i]!;
      if (name === 'cores') continue;
      const mean = means.means[i]!;
      const lastMs = means.lastMs[i]!;
      if (lastMs > this.lastMetricMs) this.lastMetricMs = lastMs;
      const value = name === 'load' ? loadPerCore(mean, this.cores) : mean;
      if (name === 'error_rate') {
        this.errorRate = value;
        this.errorRateMs = lastMs;
      }
      const p = this.series.observe(name, value, x, tStep / 1000);
      if (p !== null && p.firings.length > 0) points.push(p);
      if (METRIC_R_SET.has(name)) this.pushWindow(name, x, value);
    }

    // §4.1 logs
    let logR: number | null = null;
    let moodTerm = 0;
    let recentLogs = false;
    let errorShare = 0;
    if (this.logCounter !== null && this.logBurst !== null) {
      const counts = this.logCounter.take(bucket.index);
      const burst = this.logBurst.step({ bucketIndex: bucket.index, warn: counts.warn, error: counts.error }, newLogBurstId);
      if (burst.started !== null) sink.logBursts.push(burst.started);
      if (burst.ended !== null) sink.logBursts.push(burst.ended);
      if (counts.present) logR = gatedLogRatio(burst.logR, burst.count, burst.baselineMean, DEFAULT_LOG_GATE);
      moodTerm = logMoodTerm(logSentiment(counts));
      recentLogs = counts.recentClassified;
      errorShare = logErrorShare(counts);
      if (this.logSeries !== null) {
        const ls = this.logSeries.step(counts);
        this.observeSeries(points, 'log_error_rate', ls.logErrorRate, x);
        this.observeSeries(points, 'log_burst_index', ls.logBurstIndex, x);
      }
    }

    // §4.2 traces
    if (bucket.spans.length > 0 && this.spanWindow === null) this.spanWindow = new SpanWindow();
    let traceR: number | null = null;
    let traceRA: number | null = null;
    if (this.spanWindow !== null) {
      for (const span of bucket.spans) this.spanWindow.observe(span);
      this.spanWindow.flushIfDue(tStep);
      const flush = this.spanWindow.lastFlush();
      if (flush !== null && this.spanWindow.isPresent(tStep)) {
        traceR = flush.traceR;
        traceRA = flush.traceRA;
      }
    }
    const graphContagion = env.graph.contagionInto(this.name, tStep);
    this.downstream.observe(env.graph.edgesFrom(this.name, tStep), tStep);

    // §3 per-pod signals, aggregated (the context object is shared: PodKpi reads it during the call only)
    const ctx = POD_CONTEXT;
    ctx.tMs = tStep;
    ctx.dtSeconds = dt;
    ctx.absenceMs = cfg.absenceMs;
    ctx.cores = this.cores;
    ctx.logMoodTerm = moodTerm;
    ctx.recentLogs = recentLogs;
    ctx.logErrorShare = errorShare;
    ctx.graphContagion = graphContagion;
    ctx.weights = env.weights;
    ctx.calibrationSteps = env.calibrationSteps;
    ctx.fatigueThreshold = cfg.fatigueThreshold;
    ctx.fatigueRecovery = cfg.fatigueRecovery;
    const signalsOf = this.podSignals(bucket, ctx);
    const values = signalsOf.values;

    // §2.2 metricR and §4.3 fusion
    const sources = this.metricSources(tStep, cfg);
    sources.logR = logR;
    sources.traceR = traceR;
    sources.traceRA = traceRA;
    const fusedR = fusedROf(sources.metricR, logR, traceR);

    // §6 calibration, §4.4 bands through the decision layer (hysteresis, dwell), §8.1 episodes
    this.steps += 1;
    const calibrated = this.steps >= env.calibrationSteps;
    const quiet = !calibrated || this.inQuietPeriod(tStep, env.contextEvents);
    const corroborated = (logR !== null && logR > 1) || (traceR !== null && traceR >= TRACE_CORROBORATES);
    const decision = this.decision.decide(this.key, fusedR, tStep, quiet, corroborated, env.config.singleSourceEmergencySteps);
    const state = decision.state;
    const episode = this.episodes.step({ fusedR, rupture: decision.band !== 'normal', calibrated, tStepMs: tStep }, newRuptureId);
    const ruptureId = episode.ruptureId;
    if (decision.event !== null) sink.bandEvents.push({ ...decision.event, ruptureId });
    const phase: WorkloadPhase = !calibrated ? 'Calibrating' : isRupture(state) ? 'Rupture' : 'Active';
    // one story: a step inside a rupture band never reports a health above the band's ceiling
    values.health_score = Math.min(values.health_score, healthCeiling(state));

    // §5.1 derived series (their values known now, their context slots are touched together first)
    const derived = DERIVED_VALUES;
    derived[0] = values.health_score;
    derived[1] = values.stress;
    derived[2] = values.fatigue;
    derived[3] = fusedR;
    this.series.prefetchContexts(DERIVED_SERIES, derived, 4);
    this.observeSeries(points, 'health_score', values.health_score, x);
    this.observeSeries(points, 'stress', values.stress, x);
    this.observeSeries(points, 'fatigue', values.fatigue, x);
    this.observeSeries(points, 'fused_rupture_index', fusedR, x);
    const fusedEnsemble = this.series.ensemble('fused_rupture_index');
    const confidence = fusedEnsemble?.confidence() ?? 0;

    // §5.6 anomalies (not while calibrating)
    if (calibrated) this.anomaliesOf(points, tStep, quiet, env, sink.anomalies);

    // §7.1 health forecast
    this.pushHealth(values.health_score);
    const healthForecast = forecastHealthOf(this.healthRing, this.healthHead, this.healthRing.length, calibrated, cfg.bucketMs);
    // one forecast: an input trending to its failure edge gives the critical ETA (a rupture's explain record overrides it below)
    const inputEta = calibrated ? this.inputEtaSeconds() : null;
    if (inputEta !== null) healthForecast.criticalEtaMinutes = Math.floor(inputEta / 60);

    // §7.2 business (the near-miss tracker exists from the first FusedR ≥ 2: below, a new one stays as it is)
    if (this.nearMiss === null && fusedR >= NEAR_MISS_ENTER) this.nearMiss = new NearMissTracker();
    if (this.nearMiss !== null) this.nearMiss.step(fusedR, tStep);
    const business = businessSignalsOf(
      tStep - this.errorRateMs <= cfg.absenceMs ? this.errorRate : 0,
      env.slo ?? null,
      env.graph.callerCount(this.name, tStep),
      this.nearMiss === null ? 0 : this.nearMiss.recoveryDebt(tStep),
    );

    // §7.3 fingerprints
    // the vector is only needed to record (FusedR > 3) or to match (a fingerprint exists)
    let patternMatch: PatternMatch | null = null;
    if (calibrated && (fusedR > 3 || this.fingerprintCount > 0)) {
      const vector = fingerprintVector({ ...values, throughputDrop: signalsOf.throughputDrop, fusedR });
      this.fingerprints ??= new FingerprintStore(this.key);
      const fingerprint = this.fingerprints.maybeRecord({ vector, fusedR, ruptureId, nowMs: tStep });
      if (fingerprint !== null) {
        this.fingerprintCount += 1;
        sink.fingerprints.push(fingerprint);
      }
      patternMatch = this.fingerprints.match(vector, { ruptureId: this.episodes.currentRuptureId(), openedAtMs: this.episodes.currentOpenedAtMs() });
    }

    const signals = signalReadings(values);
    const snapshot: WorkloadSnapshot = {
      key: this.key,
      timeMs: tStep,
      fusedR,
      state,
      status: statusOf(this.steps, env.calibrationSteps),
      phase,
      signals,
      throughputDrop: signalsOf.throughputDrop,
      calibrationProgress: calibrationProgress(this.steps, env.calibrationSteps),
      calibrationEtaMinutes: calibrationEtaMinutes(this.steps, env.calibrationSteps, cfg.bucketMs),
      healthForecast,
      business,
      patternMatch,
      ruptureId: episode.closed ? null : ruptureId,
      sources,
      confidence,
      criticalForMs: decision.criticalForMs,
    };

    // §8 explain record: refreshed every step of the episode, closed at its end
    let explain: ExplainRecord | null = null;
    if (ruptureId !== null) {
      if (episode.closed && this.explainRecord !== null) {
        explain = { ...this.explainRecord, closedAtMs: tStep, updatedAtMs: tStep };
      } else if (!episode.closed) {
        const fusion = fuse(sources.metricR, logR, traceR);
        explain = this.buildExplain(snapshot, signalsOf, fusion, env, episode.openedAtMs ?? tStep, episode.peakFusedR, episode.peakAtMs ?? tStep);
      }
      this.explainRecord = episode.closed ? null : explain;
    }
    sink.explain = explain;
    // one forecast: inside an open rupture, critical_eta_minutes is the explain record's ETA
    this.lastCriticalEta = explain !== null && explain.closedAtMs === null ? etaMinutesOf(explain) : inputEta !== null ? Math.floor(inputEta / 60) : null;
    if (this.lastCriticalEta !== null) snapshot.healthForecast.criticalEtaMinutes = this.lastCriticalEta;

    this.prevStepMs = tStep;
    this.remember(snapshot, env.calibrationSteps);
    return snapshot;
  }

  /** keeps what snapshotOrNull needs to rebuild `s` (the snapshot of the step just run) */
  private remember(s: WorkloadSnapshot, calibrationSteps: number): void {
    let v = this.lastNumbers;
    if (v === null) {
      v = [];
      for (let i = 0; i < LAST_LENGTH; i++) v.push(Number.NaN);
      v = v.slice();
      this.lastNumbers = v;
    }
    const g = s.signals;
    v[LAST_TIME] = s.timeMs;
    v[LAST_FUSED_R] = s.fusedR;
    v[LAST_SIGNALS] = g.stress.value;
    v[LAST_SIGNALS + 1] = g.fatigue.value;
    v[LAST_SIGNALS + 2] = g.mood.value;
    v[LAST_SIGNALS + 3] = g.pressure.value;
    v[LAST_SIGNALS + 4] = g.humidity.value;
    v[LAST_SIGNALS + 5] = g.contagion.value;
    v[LAST_SIGNALS + 6] = g.resilience.value;
    v[LAST_SIGNALS + 7] = g.entropy.value;
    v[LAST_SIGNALS + 8] = g.velocity.value;
    v[LAST_SIGNALS + 9] = g.health_score.value;
    v[LAST_THROUGHPUT_DROP] = s.throughputDrop;
    v[LAST_BUSINESS] = s.business.sloBurnVelocity;
    v[LAST_BUSINESS + 1] = s.business.blastRadius;
    v[LAST_BUSINESS + 2] = s.business.recoveryDebt;
    const src = s.sources;
    v[LAST_SOURCES] = src.metricR ?? 0;
    v[LAST_SOURCES + 1] = src.logR ?? 0;
    v[LAST_SOURCES + 2] = src.traceR ?? 0;
    v[LAST_SOURCES + 3] = src.traceRA ?? 0;
    v[LAST_SOURCES + 4] = src.alphaBurst;
    v[LAST_SOURCES + 5] = src.alphaStable;
    v[LAST_CONFIDENCE] = s.confidence;
    v[LAST_CRITICAL_FOR] = s.criticalForMs ?? 0;
    this.lastState = s.state;
    this.lastNulls = (src.metricR === null ? 1 : 0) | (src.logR === null ? 2 : 0) | (src.traceR === null ? 4 : 0) | (src.traceRA === null ? 8 : 0);
    this.lastPrimaryMetric = src.primaryMetric;
    this.lastRuptureId = s.ruptureId;
    this.lastPatternMatch = s.patternMatch;
    this.lastCalibrationSteps = calibrationSteps;
    this.restored = null;
  }

  /** the snapshot `remember` kept, as run built it (same fields, order and values) */
  private lastSnapshot(v: readonly number[]): WorkloadSnapshot {
    const calibrationSteps = this.lastCalibrationSteps;
    const fusedR = v[LAST_FUSED_R]!;
    const state = this.lastState;
    const calibrated = this.steps >= calibrationSteps;
    const nulls = this.lastNulls;
    const pm = this.lastPatternMatch;
    return {
      key: this.key,
      timeMs: v[LAST_TIME]!,
      fusedR,
      state,
      status: statusOf(this.steps, calibrationSteps),
      phase: !calibrated ? 'Calibrating' : isRupture(state) ? 'Rupture' : 'Active',
      signals: signalReadings({
        stress: v[LAST_SIGNALS]!,
        fatigue: v[LAST_SIGNALS + 1]!,
        mood: v[LAST_SIGNALS + 2]!,
        pressure: v[LAST_SIGNALS + 3]!,
        humidity: v[LAST_SIGNALS + 4]!,
        contagion: v[LAST_SIGNALS + 5]!,
        resilience: v[LAST_SIGNALS + 6]!,
        entropy: v[LAST_SIGNALS + 7]!,
        velocity: v[LAST_SIGNALS + 8]!,
        health_score: v[LAST_SIGNALS + 9]!,
      }),
      throughputDrop: v[LAST_THROUGHPUT_DROP]!,
      calibrationProgress: calibrationProgress(this.steps, calibrationSteps),
      calibrationEtaMinutes: calibrationEtaMinutes(this.steps, calibrationSteps, this.config.bucketMs),
      healthForecast: this.withRuptureEta(forecastHealthOf(this.healthRing, this.healthHead, this.healthRing.length, calibrated, this.config.bucketMs)),
      business: { sloBurnVelocity: v[LAST_BUSINESS]!, blastRadius: v[LAST_BUSINESS + 1]!, recoveryDebt: v[LAST_BUSINESS + 2]! },
      patternMatch: pm === null ? null : { ...pm },
      ruptureId: this.lastRuptureId,
      sources: {
        metricR: (nulls & 1) !== 0 ? null : v[LAST_SOURCES]!,
        logR: (nulls & 2) !== 0 ? null : v[LAST_SOURCES + 1]!,
        traceR: (nulls & 4) !== 0 ? null : v[LAST_SOURCES + 2]!,
        traceRA: (nulls & 8) !== 0 ? null : v[LAST_SOURCES + 3]!,
        primaryMetric: this.lastPrimaryMetric,
        alphaBurst: v[LAST_SOURCES + 4]!,
        alphaStable: v[LAST_SOURCES + 5]!,
      },
      confidence: v[LAST_CONFIDENCE]!,
      criticalForMs: v[LAST_CRITICAL_FOR]!,
    };
  }

  /** earliestInputEta over the metricR inputs' windows (latest value, 60-min slope) */
  private inputEtaSeconds(): number | null {
    const inputs = [];
    for (const name of TREND_INPUTS) {
      const w = this.windows.get(name);
      if (w === undefined) continue;
      inputs.push({ input: name, last: w.last, stableSlope: w.shared ? seriesStableSlope(w.series) : w.stable.slope() });
    }
    return earliestInputEta(inputs, (name) => {
      const t = seriesTrend(name, this.series.ensemble(name));
      return t === null ? Number.NaN : etaSlope(t);
    });
  }

  private withRuptureEta(f: HealthForecast): HealthForecast {
    if (this.lastCriticalEta !== null) f.criticalEtaMinutes = this.lastCriticalEta;
    return f;
  }

  /** appends a final health value to the ≤ 60-value history */
  private pushHealth(h: number): void {
    const ring = this.healthRing;
    if (ring.length < HEALTH_HISTORY) {
      ring.push(h);
      // full: copied once to drop the array's growth slack
      if (ring.length === HEALTH_HISTORY) this.healthRing = ring.slice();
      return;
    }
    ring[this.healthHead] = h;
    this.healthHead = (this.healthHead + 1) % HEALTH_HISTORY;
  }

  /** the health history, oldest first */
  private healthHistory(): number[] {
    const ring = this.healthRing;
    const out: number[] = [];
    for (let k = 0; k < ring.length; k++) out.push(ring[(this.healthHead + k) % ring.length]!);
    return out;
  }

  /** JSON-serialisable state (no -Infinity: absent times are null). Open buckets are not included. */
  toJSON(): WorkloadState {
    return {
      version: 1,
      key: this.key,
      steps: this.steps,
      originMs: this.originMs,
      prevStepMs: this.prevStepMs,
      lastProcessedBucket: finiteOrNull(this.buckets.lastProcessed),
      cores: this.cores,
      lastMetricMs: finiteOrNull(this.lastMetricMs),
      errorRate: this.errorRate,
      errorRateMs: finiteOrNull(this.errorRateMs),
      healthHistory: this.healthHistory(),
      pods: this.pods.map((kpi) => [kpi.pod, kpi.toJSON()]),
      windows: [...this.windows].map(([name, w]) =>
        w.shared ? [name, burstLineOf(w.series).toJSON(), w.series.stableLine.toJSON(), w.last] : [name, w.burst.toJSON(), w.stable.toJSON(), w.last],
      ),
      series: this.series.toJSON(),
      logCounter: this.logCounter?.exportState() ?? null,
      logBurst: this.logBurst?.exportState() ?? null,
      logSeries: this.logSeries?.exportState() ?? null,
      spanWindow: this.spanWindow?.exportState() ?? null,
      nearMiss: this.nearMiss?.exportState() ?? { inNearMiss: false, recordedAtMs: [] },
      fingerprints: this.fingerprints?.exportState() ?? { seq: 0, fingerprints: [] },
      bands: { lastBand: this.decision.band, lastState: this.decision.announcedState },
      decision: this.decision.toJSON(),
      episodes: this.episodes.exportState(),
      explainRecord: this.explainRecord,
      snapshot: this.snapshotOrNull,
    };
  }

  /** rebuilds from toJSON output; throws an Error naming the field when malformed */
  static fromJSON(key: string, state: unknown, config: AnalysisConfig, maxSeries: number): WorkloadAnalyzer {
    const s = parseWorkloadState(state);
    const w = new WorkloadAnalyzer(key, config, maxSeries);
    try {
      w.steps = s.steps;
      w.originMs = s.originMs;
      w.prevStepMs = s.prevStepMs;
      if (s.lastProcessedBucket !== null) w.buckets.lastProcessed = s.lastProcessedBucket;
      w.cores = Math.max(1, s.cores);
      w.lastMetricMs = s.lastMetricMs ?? Number.NEGATIVE_INFINITY;
      w.errorRate = s.errorRate;
      w.errorRateMs = s.errorRateMs ?? Number.NEGATIVE_INFINITY;
      w.healthRing = s.healthHistory.slice(-HEALTH_HISTORY);
      for (const [name, pod] of s.pods.slice(-config.maxPodsPerWorkload)) {
        const kpi = PodKpi.fromJSON(pod);
        kpi.pod = name;
        // a repeated name keeps its first place (as Map.set did)
        const at = w.pods.findIndex((p) => p.pod === name);
        if (at >= 0) w.pods[at] = kpi;
        else w.addPod(kpi);
      }
      w.series = SeriesSet.fromJSON(s.series, maxSeries);
      for (const [name, burst, stable, last] of s.windows) {
        // shared with the series: its replayed lines hold the same points; the saved running
        // moments make them continue bit for bit
        const series = w.shareableSeries(name);
        if (series !== undefined && burstLineOf(series).adoptMoments(burst) && series.stableLine.adoptMoments(stable)) {
          w.windows.set(name, { series, last, shared: true });
        } else {
          w.windows.set(name, { burst: SlidingRegression.fromJSON(burst), stable: SlidingRegression.fromJSON(stable), last, shared: false });
        }
      }
      if (s.logCounter !== null) {
        w.logCounter = LogBucketCounter.fromState(s.logCounter);
        w.logBurst = s.logBurst === null ? new LogBurstDetector(key) : LogBurstDetector.fromState(key, s.logBurst);
        w.logSeries = LogSeries.fromState(s.logSeries);
      }
      if (s.spanWindow !== null) w.spanWindow = SpanWindow.fromState(s.spanWindow);
      const nearMiss = NearMissTracker.fromState(s.nearMiss);
      const nearMissState = nearMiss.exportState();
      w.nearMiss = nearMissState.inNearMiss || nearMissState.recordedAtMs.length > 0 ? nearMiss : null;
      const fingerprints = FingerprintStore.fromState(key, s.fingerprints);
      const fingerprintState = fingerprints.exportState();
      w.fingerprintCount = fingerprintState.fingerprints.length;
      w.fingerprints = fingerprintState.seq > 0 || w.fingerprintCount > 0 ? fingerprints : null;
      if (s.decision !== undefined) w.decision = AlertDecision.fromJSON(s.decision);
      if (w.restored !== null) w.lastState = w.restored.state;
      w.episodes = RuptureEpisodeTracker.fromState(s.episodes);
      w.explainRecord = s.explainRecord;
      w.restored = s.snapshot;
    } catch (e) {
      throw new Error(`workload state: ${e instanceof Error ? e.message : String(e)}`);
    }
    return w;
  }

  /** `x` on the workload's axis; the sample time (epoch s) is origin + x */
  private observeSeries(points: SeriesPoint[], name: string, value: number, x: number): void {
    const p = this.series.observe(name, value, x, (this.originMs ?? 0) / 1000 + x);
    if (p !== null && p.firings.length > 0) points.push(p);
  }

  /** the input series whose lines the metricR windows can be (default sizes, tracked input) */
  private shareableSeries(name: string): SeriesEnsemble | undefined {
    if (this.config.burstWindow !== SERIES_BURST_POINTS || this.config.stableWindow !== SERIES_STABLE_POINTS) return undefined;
    return this.series.ensemble(name);
  }

  /**
   * The metricR windows of an input. With the default sizes (20 and 240 points) they are the
   * input series' own burst line (its detectors') and stable line (its ensemble's ca_ilr), which
   * see the same points: pushed once, stored once. Otherwise, or when the input is not tracked as
   * a series, they are windows of their own. Call after the series observed the point.
   */
  private pushWindow(name: string, x: number, y: number): void {
    let w = this.windows.get(name);
    if (w?.shared === true) {
      w.last = y;
      return;
    }
    const series = this.shareableSeries(name);
    if (series !== undefined) {
      // first sight, or windows restored on their own: the series' lines hold the same points
      this.windows.set(name, { series, last: y, shared: true });
      return;
    }
    if (w === undefined) {
      w = { burst: new SlidingRegression(this.config.burstWindow), stable: new SlidingRegression(this.config.stableWindow), last: y, shared: false };
      this.windows.set(name, w);
    }
    w.burst.push(x, y);
    w.stable.push(x, y);
    w.last = y;
  }

  /**
   * metricR = max over the metricR inputs with a full burst window (§2.2), each input's burst slope
   * through the decision layer's significance gate; present only with a metric bucket ≤ 5 min old
   */
  private metricSources(tStep: number, cfg: AnalysisConfig): SourceRatios {
    const sources = emptySources();
    if (tStep - this.lastMetricMs > cfg.absenceMs) return sources;
    let best: number | null = null;
    for (const name of METRIC_R_INPUTS) {
      const w = this.windows.get(name);
      if (w === undefined) continue;
      const lines = INPUT_LINES;
      if (w.shared) {
        if (!seriesBurstFull(w.series)) continue;
        lines.burstSlope = seriesBurstSlope(w.series);
        lines.burstStdError = seriesBurstSlopeStdError(w.series);
        lines.burstSpan = seriesBurstSpan(w.series);
        lines.stableSlope = seriesStableSlope(w.series);
        lines.burstMean = seriesBurstMean(w.series);
        lines.stableMean = w.series.stableLine.meanY();
      } else {
        if (!w.burst.full) continue;
        lines.burstSlope = w.burst.slope();
        lines.burstStdError = w.burst.slopeStdError();
        lines.burstSpan = w.burst.lastX() - w.burst.firstX();
        lines.stableSlope = w.stable.slope();
        lines.burstMean = w.burst.meanY();
        lines.stableMean = w.stable.meanY();
      }
      const r = this.decision.metricRatio(name, lines);
      if (!Number.isFinite(r)) continue;
      // every metricR input is worse when it rises: a falling one (recovery) is present but never the maximum
      const ratio = lines.burstSlope > 0 ? r : 0;
      if (best === null || ratio > best) {
        best = ratio;
        sources.primaryMetric = ratio > 0 ? name : null;
        sources.alphaBurst = ratio > 0 ? lines.burstSlope : 0;
        sources.alphaStable = ratio > 0 ? lines.stableSlope : 0;
      }
    }
    sources.metricR = best;
    return sources;
  }

  /** the pods' signals aggregated (a shared buffer: read before the next workload's step) */
  private podSignals(bucket: OpenBucket, ctx: PodStepContext): PodSignals {
    for (let q = 0; q < bucket.podInputs.length; q++) {
      const inputs = bucket.podInputs[q]!;
      if (!inputs.hasSamples()) continue;
      const pod = inputs.pod;
      let kpi = this.pod(pod);
      if (kpi === undefined) {
        if (this.pods.length >= this.config.maxPodsPerWorkload) this.evictOldestPod();
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

  /** context-event quiet period: 60 s before to 300 s after an event of this workload (§8.7) */
  private inQuietPeriod(tMs: number, events: readonly ContextEventInput[]): boolean {
    // indexed: a for-of here allocated an iterator on every step of every workload
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!;
      if (tMs >= e.timeMs - QUIET_BEFORE_MS && tMs <= e.timeMs + QUIET_AFTER_MS) return true;
    }
    return false;
  }

  /** appends the anomalies of the step's points to `out` */
  private anomaliesOf(points: readonly SeriesPoint[], tMs: number, quiet: boolean, env: StepEnv, out: AnomalyEvent[]): void {
    for (let i = 0; i < points.length; i++) {
      const p = points[i]!;
      if (p.firings.length === 0 || !judgedAsLevel(p.series) || (env.suppressions.length > 0 && this.suppressed(p.series, tMs, env.suppressions))) continue;
      const consensus = !quiet && p.consensus;
      const severity = anomalySeverity(consensus, quiet, this.decision.band);
      for (let k = 0; k < p.firings.length; k++) {
        const f = p.firings[k]!;
        out.push({
          id: `anm_${env.newHexId()}`,
          workload: this.key,
          metric: p.series,
          method: f.method,
          severity,
          value: f.value,
          expected: f.expected,
          score: f.score,
          consensus,
          timeMs: tMs,
        });
      }
    }
  }

  /** an active suppression whose `signals` names the series drops its anomalies (§5.6) */
  private suppressed(series: string, tMs: number, suppressions: readonly SuppressionInput[]): boolean {
    for (const s of suppressions) {
      if (s.signals === undefined || tMs < s.startMs || tMs > s.endMs) continue;
      if (s.signals.includes(series)) return true;
    }
    return false;
  }

  /** what moved (explain/diagnosis.ts) from the input series, the trace graph and context events */
  private diagnosis(env: StepEnv, openedAtMs: number, nowMs: number, primaryMetric: string | null): Diagnosis {
    const trends = [];
    for (const name of TREND_INPUTS) {
      const t = seriesTrend(name, this.series.ensemble(name));
      if (t !== null) trends.push(t);
    }
    return diagnose({
      trends,
      requestRate: lineTrend('request_rate', this.series.ensemble('request_rate')),
      restarts: seriesTrend('restarts', this.series.ensemble('restarts'), true),
      uptimeResets: uptimeResets(this.series.ensemble('uptime')),
      downstream: this.downstream.read(nowMs),
      deploy: recentDeploy(env.contextEvents, this.key, openedAtMs, nowMs),
      primaryMetric,
    });
  }

  private buildExplain(
    snapshot: WorkloadSnapshot,
    pod: PodSignals,
    fusion: ReturnType<typeof fuse>,
    env: StepEnv,
    openedAtMs: number,
    peakFusedR: number,
    peakAtMs: number,
  ): ExplainRecord {
    const sources = snapshot.sources;
    const weights = { ...env.weights };
    const topSignal = topFactor(weights, pod.penalties);
    const pipeline = primaryPipeline(sources.metricR, sources.logR, sources.traceR);
    const diagnosis = this.diagnosis(env, openedAtMs, snapshot.timeMs, sources.primaryMetric);
    const eta = failureEta(diagnosis.etaSeconds, snapshot.healthForecast.criticalEtaMinutes);
    const contagionSources = snapshot.signals.contagion.value >= 0.3 ? env.graph.contagionSources(this.name, snapshot.timeMs) : [];
    const recommendation = recommendationFor(diagnosis, { workload: this.key, state: snapshot.state, currentReplicas: null });
    const ruptureId = this.episodes.currentRuptureId() ?? '';
    const narrative = buildNarrative({
      name: this.name,
      fusedR: snapshot.fusedR,
      confidence: snapshot.confidence,
      signals: snapshot.signals,
      contagionSources,
      metricR: sources.metricR,
      logR: sources.logR,
      traceR: sources.traceR,
      primaryPipeline: pipeline,
      alphaBurst: sources.alphaBurst,
      alphaStable: sources.alphaStable,
      recommendation,
      ttfSeconds: eta.ttfSeconds,
      contextLines: contextEventLines(env.contextEvents, this.key, openedAtMs, null),
      diagnosis,
    });
    const modelContributions: Record<string, ModelContribution> = {};
    const ensemble = this.series.ensemble('fused_rupture_index');
    if (ensemble !== undefined) {
      const w = ensemble.weights();
      const predictions = ensemble.modelPredictions(FORECAST_STEPS_5_MIN);
      for (const m of MODEL_NAMES) modelContributions[m] = { weight: w[m], prediction: predictions[m] ?? snapshot.fusedR };
    }
    const signalValues = {} as Record<SignalName, number>;
    for (const s of SIGNAL_NAMES) signalValues[s] = snapshot.signals[s].value;
    return {
      ruptureId,
      workload: this.key,
      openedAtMs,
      closedAtMs: null,
      updatedAtMs: snapshot.timeMs,
      fusedR: snapshot.fusedR,
      peakFusedR,
      peakAtMs,
      state: snapshot.state,
      modelContributions,
      topFactor: diagnosis.factor ?? topSignal,
      topSignal,
      diagnosis,
      etaBasis: eta.basis,
      signalValues,
      primaryPipeline: pipeline,
      sources: { ...sources },
      fusionWeights: fusion.weights,
      fusedRBeforeCap: fusion.beforeCap,
      healthWeights: weights,
      penalties: { ...pod.penalties },
      ttfSeconds: eta.ttfSeconds,
      confidence: snapshot.confidence,
      narrative,
      recommendation,
    };
  }
}


function etaMinutesOf(record: ExplainRecord): number {
  return record.etaBasis === undefined || record.etaBasis === 'none' ? 0 : Math.floor(record.ttfSeconds / 60);
}

function finiteOrNull(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}
