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
import { z } from 'zod';
import type { AnalysisConfig } from './config.js';
import { WorkloadBuckets, type OpenBucket } from './buckets/workload-buckets.js';
import { loadPerCore } from './normalise/unit-rules.js';
import { PodKpi, type PodKpiState, type PodSignals } from './signals/pod-kpi.js';
import { aggregatePods } from './signals/aggregate.js';
import { signalState, PENDING_STATE } from './signals/states.js';
import { stepDtSeconds } from './signals/formulas.js';
import type { HealthWeights } from './weights/health-weights.js';
import { calibrationEtaMinutes, calibrationProgress, statusOf } from './calibration/progress.js';
import { fuse } from './fusion/fusion.js';
import { isRupture, stateOf } from './bands.js';
import { BandTracker } from './episodes/band-tracker.js';
import type { Band } from './bands.js';
import { fallbackForecast, forecastHealth } from './health-forecast/health-forecast.js';
import { SERIES_BURST_POINTS, SERIES_STABLE_POINTS, SeriesSet, type SeriesPoint, type SeriesSetState } from './series/series-set.js';
import { SlidingRegression, metricRatio, type RegressionState } from './regression/index.js';
import { MODEL_NAMES } from './ensemble/index.js';
import { LogBucketCounter, logErrorShare, logMoodTerm, logSentiment } from './logs/log-step-counter.js';
import { LogBurstDetector, type LogBurstEvent } from './logs/log-burst.js';
import { LogSeries } from './logs/log-series.js';
import type { ServiceGraph } from './traces/service-graph.js';
import { SpanWindow } from './traces/span-window.js';
import { NearMissTracker } from './business/near-miss.js';
import { businessSignals, type SloConfig } from './business/business-signals.js';
import { FingerprintStore } from './fingerprint/fingerprint-store.js';
import { fingerprintVector } from './fingerprint/fingerprint-vector.js';
import { RuptureEpisodeTracker } from './episodes/rupture-episode.js';
import { primaryPipeline, topFactor } from './explain/top-factor.js';
import { ttfSeconds } from './explain/ttf.js';
import { buildNarrative } from './explain/narrative.js';
import { recommendAction } from './explain/recommendation.js';
import { contextEventLines } from './explain/context-lines.js';

/** inputs whose burst/stable slopes give metricR, in tie order (§2.2) */
export const METRIC_R_INPUTS = ['cpu', 'memory', 'latency', 'error_rate'] as const;
const METRIC_R_SET: ReadonlySet<string> = new Set(METRIC_R_INPUTS);
const HEALTH_HISTORY = 60;
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

interface MetricWindows {
  burst: SlidingRegression;
  stable: SlidingRegression;
  last: number;
  /** the input series' own lines, which observe pushes (a series is never dropped) */
  shared: boolean;
}

function emptySources(): SourceRatios {
  return { metricR: null, logR: null, traceR: null, traceRA: null, primaryMetric: null, alphaBurst: 0, alphaStable: 0 };
}

export class WorkloadAnalyzer {
  readonly buckets: WorkloadBuckets;
  readonly name: string;
  private logCounter: LogBucketCounter | null = null;
  private logBurst: LogBurstDetector | null = null;
  private logSeries: LogSeries | null = null;
  private spanWindow: SpanWindow | null = null;
  private pods = new Map<string, PodKpi>();
  private windows = new Map<string, MetricWindows>();
  private series: SeriesSet;
  private nearMiss = new NearMissTracker();
  private fingerprints: FingerprintStore;
  private bands = new BandTracker();
  private episodes = new RuptureEpisodeTracker();
  private explainRecord: ExplainRecord | null = null;
  steps = 0;
  private originMs: number | null = null;
  private prevStepMs: number | null = null;
  private cores = 1;
  private lastMetricMs = Number.NEGATIVE_INFINITY;
  private errorRate = 0;
  private errorRateMs = Number.NEGATIVE_INFINITY;
  private healthHistory: number[] = [];
  private fingerprintCount = 0;
  private last: WorkloadSnapshot | null = null;

  constructor(
    readonly key: string,
    private readonly config: AnalysisConfig,
    maxSeries: number,
  ) {
    this.name = key.split('/')[2] ?? key;
    this.buckets = new WorkloadBuckets(config.bucketMs, config.maxOpenBuckets);
    this.series = new SeriesSet(maxSeries);
    this.fingerprints = new FingerprintStore(key);
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

  get snapshotOrNull(): WorkloadSnapshot | null {
    return this.last;
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
    const cfg = env.config;
    const tStep = (bucket.index + 1) * cfg.bucketMs;
    const dt = stepDtSeconds(this.prevStepMs ?? undefined, tStep);
    if (this.originMs === null) this.originMs = tStep;
    const x = (tStep - this.originMs) / 1000;
    const points: SeriesPoint[] = [];

    // §1: workload-level bucket means → windows and series
    const coresMean = bucket.workloadMean('cores');
    if (coresMean !== undefined) this.cores = Math.max(1, coresMean.mean);
    bucket.forEachWorkloadMean((name, mean, lastMs) => {
      if (name === 'cores') return;
      if (lastMs > this.lastMetricMs) this.lastMetricMs = lastMs;
      const value = name === 'load' ? loadPerCore(mean, this.cores) : mean;
      if (name === 'error_rate') {
        this.errorRate = value;
        this.errorRateMs = lastMs;
      }
      const p = this.series.observe(name, value, x, tStep / 1000);
      if (p !== null && p.firings.length > 0) points.push(p);
      if (METRIC_R_SET.has(name)) this.pushWindow(name, x, value);
    });

    // §4.1 logs
    let logR: number | null = null;
    let moodTerm = 0;
    let recentLogs = false;
    let errorShare = 0;
    const logBursts: LogBurstEvent[] = [];
    if (this.logCounter !== null && this.logBurst !== null) {
      const counts = this.logCounter.take(bucket.index);
      const burst = this.logBurst.step({ bucketIndex: bucket.index, warn: counts.warn, error: counts.error }, () => `lb_${env.newHexId()}`);
      if (burst.started !== null) logBursts.push(burst.started);
      if (burst.ended !== null) logBursts.push(burst.ended);
      if (counts.present) logR = burst.logR;
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

    // §3 per-pod signals, aggregated
    const signalsOf = this.podSignals(bucket, {
      tMs: tStep,
      dtSeconds: dt,
      absenceMs: cfg.absenceMs,
      cores: this.cores,
      logMoodTerm: moodTerm,
      recentLogs,
      logErrorShare: errorShare,
      graphContagion,
      weights: env.weights,
      calibrationSteps: env.calibrationSteps,
      fatigueThreshold: cfg.fatigueThreshold,
      fatigueRecovery: cfg.fatigueRecovery,
    });
    const values = signalsOf.values;

    // §2.2 metricR and §4.3 fusion
    const sources = this.metricSources(tStep, cfg);
    sources.logR = logR;
    sources.traceR = traceR;
    sources.traceRA = traceRA;
    const fusion = fuse(sources.metricR, logR, traceR);
    const fusedR = fusion.fusedR;
    const state = stateOf(fusedR);

    // §6 calibration, §4.4 bands, §8.1 episodes
    this.steps += 1;
    const calibrated = this.steps >= env.calibrationSteps;
    const quiet = !calibrated || this.inQuietPeriod(tStep, env.contextEvents);
    const episode = this.episodes.step({ fusedR, calibrated, tStepMs: tStep }, () => `r_${env.newHexId()}`);
    const ruptureId = episode.ruptureId;
    const bandEvent = this.bands.update({ workload: this.key, state, fusedR, timeMs: tStep, quiet, ruptureId });
    const phase: WorkloadPhase = !calibrated ? 'Calibrating' : isRupture(state) ? 'Rupture' : 'Active';

    // §5.1 derived series
    this.observeSeries(points, 'health_score', values.health_score, x);
    this.observeSeries(points, 'stress', values.stress, x);
    this.observeSeries(points, 'fatigue', values.fatigue, x);
    this.observeSeries(points, 'fused_rupture_index', fusedR, x);
    const fusedEnsemble = this.series.ensemble('fused_rupture_index');
    const confidence = fusedEnsemble?.confidence() ?? 0;

    // §5.6 anomalies (not while calibrating)
    const anomalies = calibrated ? this.anomaliesOf(points, tStep, quiet, env) : [];

    // §7.1 health forecast
    this.healthHistory.push(values.health_score);
    if (this.healthHistory.length > HEALTH_HISTORY) this.healthHistory.shift();
    const healthForecast = forecastHealth(this.healthHistory, calibrated, cfg.bucketMs);

    // §7.2 business
    this.nearMiss.step(fusedR, tStep);
    const callers = env.graph.callersOf(this.name, tStep);
    const business = businessSignals({
      errorRateLast: tStep - this.errorRateMs <= cfg.absenceMs ? this.errorRate : 0,
      slo: env.slo ?? null,
      callers,
      recoveryDebt: this.nearMiss.recoveryDebt(tStep),
    });

    // §7.3 fingerprints
    // the vector is only needed to record (FusedR > 3) or to match (a fingerprint exists)
    let fingerprint: Fingerprint | null = null;
    let patternMatch: PatternMatch | null = null;
    if (calibrated && (fusedR > 3 || this.fingerprintCount > 0)) {
      const vector = fingerprintVector({ ...values, throughputDrop: signalsOf.throughputDrop, fusedR });
      fingerprint = this.fingerprints.maybeRecord({ vector, fusedR, ruptureId, nowMs: tStep });
      if (fingerprint !== null) this.fingerprintCount += 1;
      patternMatch = this.fingerprints.match(vector, { ruptureId: this.episodes.currentRuptureId(), openedAtMs: this.episodes.currentOpenedAtMs() });
    }

    const signals = {} as Record<SignalName, SignalReading>;
    for (const s of SIGNAL_NAMES) signals[s] = { value: values[s], state: signalState(s, values[s]) };
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
    };

    // §8 explain record: refreshed every step of the episode, closed at its end
    let explain: ExplainRecord | null = null;
    if (ruptureId !== null) {
      if (episode.closed && this.explainRecord !== null) {
        explain = { ...this.explainRecord, closedAtMs: tStep, updatedAtMs: tStep };
      } else if (!episode.closed) {
        explain = this.buildExplain(snapshot, signalsOf, fusion, env, episode.openedAtMs ?? tStep, episode.peakFusedR, episode.peakAtMs ?? tStep);
      }
      this.explainRecord = episode.closed ? null : explain;
    }

    this.prevStepMs = tStep;
    this.last = snapshot;
    return { snapshot, anomalies, bandEvent, explain, fingerprint, logBursts };
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
      healthHistory: [...this.healthHistory],
      pods: [...this.pods].map(([name, kpi]) => [name, kpi.toJSON()]),
      windows: [...this.windows].map(([name, w]) => [name, w.burst.toJSON(), w.stable.toJSON(), w.last]),
      series: this.series.toJSON(),
      logCounter: this.logCounter?.exportState() ?? null,
      logBurst: this.logBurst?.exportState() ?? null,
      logSeries: this.logSeries?.exportState() ?? null,
      spanWindow: this.spanWindow?.exportState() ?? null,
      nearMiss: this.nearMiss.exportState(),
      fingerprints: this.fingerprints.exportState(),
      bands: this.bands.toJSON(),
      episodes: this.episodes.exportState(),
      explainRecord: this.explainRecord,
      snapshot: this.last,
    };
  }

  /** rebuilds from toJSON output; throws an Error naming the field when malformed */
  static fromJSON(key: string, state: unknown, config: AnalysisConfig, maxSeries: number): WorkloadAnalyzer {
    const parsed = workloadStateSchema.safeParse(state);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`workload state: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
    }
    const s = parsed.data as unknown as WorkloadState;
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
      w.healthHistory = s.healthHistory.slice(-HEALTH_HISTORY);
      for (const [name, pod] of s.pods.slice(-config.maxPodsPerWorkload)) w.pods.set(name, PodKpi.fromJSON(pod));
      w.series = SeriesSet.fromJSON(s.series, maxSeries);
      for (const [name, burst, stable, last] of s.windows) {
        // shared with the series: its replayed lines hold the same points; the saved running
        // moments make them continue bit for bit
        const lines = w.shareableLines(name);
        if (lines !== undefined && lines.burst.adoptMoments(burst) && lines.stable.adoptMoments(stable)) {
          w.windows.set(name, { burst: lines.burst, stable: lines.stable, last, shared: true });
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
      w.nearMiss = NearMissTracker.fromState(s.nearMiss);
      w.fingerprints = FingerprintStore.fromState(key, s.fingerprints);
      w.fingerprintCount = w.fingerprints.all().length;
      w.bands = BandTracker.fromJSON(s.bands);
      w.episodes = RuptureEpisodeTracker.fromState(s.episodes);
      w.explainRecord = s.explainRecord;
      w.last = s.snapshot;
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

  /** the input series' lines when the metricR windows can be them (default sizes, tracked input) */
  private shareableLines(name: string): { burst: SlidingRegression; stable: SlidingRegression } | undefined {
    if (this.config.burstWindow !== SERIES_BURST_POINTS || this.config.stableWindow !== SERIES_STABLE_POINTS) return undefined;
    return this.series.lines(name);
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
    const lines = this.shareableLines(name);
    if (lines !== undefined) {
      // first sight, or windows restored on their own: the series' lines hold the same points
      this.windows.set(name, { burst: lines.burst, stable: lines.stable, last: y, shared: true });
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

  /** metricR = max over the metricR inputs with a full burst window (§2.2); present only with a metric bucket ≤ 5 min old */
  private metricSources(tStep: number, cfg: AnalysisConfig): SourceRatios {
    const sources = emptySources();
    if (tStep - this.lastMetricMs > cfg.absenceMs) return sources;
    let best: number | null = null;
    for (const name of METRIC_R_INPUTS) {
      const w = this.windows.get(name);
      if (w === undefined) continue;
      const r = metricRatio(w.burst, w.stable, cfg.noiseGate);
      if (r === null || !Number.isFinite(r)) continue;
      if (best === null || r > best) {
        best = r;
        sources.primaryMetric = name;
        sources.alphaBurst = w.burst.slope();
        sources.alphaStable = w.stable.slope();
      }
    }
    sources.metricR = best;
    return sources;
  }

  private podSignals(bucket: OpenBucket, ctx: Parameters<PodKpi['step']>[0]): PodSignals {
    for (const [pod, inputs] of bucket.pods) {
      if (!hasSamples(inputs)) continue;
      let kpi = this.pods.get(pod);
      if (kpi === undefined) {
        if (this.pods.size >= this.config.maxPodsPerWorkload) this.evictOldestPod();
        kpi = new PodKpi();
        this.pods.set(pod, kpi);
      }
      kpi.absorb(inputs);
    }
    const results: PodSignals[] = [];
    for (const [pod, kpi] of this.pods) {
      if (!kpi.isLive(ctx.tMs, ctx.absenceMs)) {
        this.pods.delete(pod);
        continue;
      }
      results.push(kpi.step(ctx));
    }
    if (results.length === 0) {
      // no pod with a live input (logs or traces only): one workload-level KPI state
      let kpi = this.pods.get('');
      if (kpi === undefined) {
        kpi = new PodKpi();
        this.pods.set('', kpi);
      }
      results.push(kpi.step(ctx));
    }
    return aggregatePods(results);
  }

  private evictOldestPod(): void {
    let oldest: string | undefined;
    let oldestMs = Number.POSITIVE_INFINITY;
    for (const [pod, kpi] of this.pods) {
      if (kpi.lastSeenMs < oldestMs) {
        oldestMs = kpi.lastSeenMs;
        oldest = pod;
      }
    }
    if (oldest !== undefined) this.pods.delete(oldest);
  }

  /** context-event quiet period: 60 s before to 300 s after an event of this workload (§8.7) */
  private inQuietPeriod(tMs: number, events: readonly ContextEventInput[]): boolean {
    for (const e of events) if (tMs >= e.timeMs - QUIET_BEFORE_MS && tMs <= e.timeMs + QUIET_AFTER_MS) return true;
    return false;
  }

  private anomaliesOf(points: readonly SeriesPoint[], tMs: number, quiet: boolean, env: StepEnv): AnomalyEvent[] {
    const out: AnomalyEvent[] = [];
    for (const p of points) {
      if (p.firings.length === 0 || this.suppressed(p.series, tMs, env.suppressions)) continue;
      const consensus = !quiet && p.consensus;
      for (const f of p.firings) {
        out.push({
          id: `anm_${env.newHexId()}`,
          workload: this.key,
          metric: p.series,
          method: f.method,
          severity: consensus ? 'critical' : 'warning',
          value: f.value,
          expected: f.expected,
          score: f.score,
          consensus,
          timeMs: tMs,
        });
      }
    }
    return out;
  }

  /** an active suppression whose `signals` names the series drops its anomalies (§5.6) */
  private suppressed(series: string, tMs: number, suppressions: readonly SuppressionInput[]): boolean {
    for (const s of suppressions) {
      if (s.signals === undefined || tMs < s.startMs || tMs > s.endMs) continue;
      if (s.signals.includes(series)) return true;
    }
    return false;
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
    const top = topFactor(weights, pod.penalties);
    const pipeline = primaryPipeline(sources.metricR, sources.logR, sources.traceR);
    const primaryWindow = sources.primaryMetric === null ? undefined : this.windows.get(sources.primaryMetric);
    const ttf = primaryWindow === undefined ? 3600 : ttfSeconds(primaryWindow.last, primaryWindow.burst.slope());
    const contagionSources = snapshot.signals.contagion.value >= 0.3 ? env.graph.contagionSources(this.name, snapshot.timeMs) : [];
    const recommendation = recommendAction({
      workload: this.key,
      state: snapshot.state,
      signals: {
        stress: snapshot.signals.stress.value,
        fatigue: snapshot.signals.fatigue.value,
        pressure: snapshot.signals.pressure.value,
        entropy: snapshot.signals.entropy.value,
        contagion: snapshot.signals.contagion.value,
      },
      contagionSources,
      currentReplicas: null,
    });
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
      ttfSeconds: ttf,
      contextLines: contextEventLines(env.contextEvents, this.key, openedAtMs, null),
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
      topFactor: top,
      signalValues,
      primaryPipeline: pipeline,
      sources: { ...sources },
      fusionWeights: fusion.weights,
      fusedRBeforeCap: fusion.beforeCap,
      healthWeights: weights,
      penalties: { ...pod.penalties },
      ttfSeconds: ttf,
      confidence: snapshot.confidence,
      narrative,
      recommendation,
    };
  }
}


function hasSamples(inputs: ReadonlyMap<string, { count: number }>): boolean {
  for (const acc of inputs.values()) if (acc.count > 0) return true;
  return false;
}

function finiteOrNull(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}

/** JSON form of a WorkloadAnalyzer (exportWorkload / importWorkload) */
export interface WorkloadState {
  version: 1;
  key: string;
  steps: number;
  originMs: number | null;
  prevStepMs: number | null;
  lastProcessedBucket: number | null;
  cores: number;
  lastMetricMs: number | null;
  errorRate: number;
  errorRateMs: number | null;
  healthHistory: number[];
  pods: [string, PodKpiState][];
  windows: [string, RegressionState, RegressionState, number][];
  series: SeriesSetState;
  logCounter: unknown;
  logBurst: unknown;
  logSeries: unknown;
  spanWindow: unknown;
  nearMiss: unknown;
  fingerprints: unknown;
  bands: { lastBand: Band; lastState: WorkloadSnapshot['state'] };
  episodes: unknown;
  explainRecord: ExplainRecord | null;
  snapshot: WorkloadSnapshot | null;
}

const finite = z.number().finite();
const ruptureState = z.enum(['stable', 'elevated', 'warning', 'critical', 'emergency']);
const workloadStateSchema = z.object({
  version: z.literal(1),
  key: z.string(),
  steps: z.number().int().min(0),
  originMs: finite.nullable(),
  prevStepMs: finite.nullable(),
  lastProcessedBucket: z.number().int().nullable(),
  cores: finite,
  lastMetricMs: finite.nullable(),
  errorRate: finite,
  errorRateMs: finite.nullable(),
  healthHistory: z.array(finite),
  pods: z.array(z.tuple([z.string(), z.object({}).passthrough()])),
  windows: z.array(z.tuple([z.string(), z.unknown(), z.unknown(), finite])),
  series: z.object({ series: z.array(z.tuple([z.string(), z.unknown(), z.unknown()])), untracked: finite }),
  logCounter: z.unknown(),
  logBurst: z.unknown(),
  logSeries: z.unknown(),
  spanWindow: z.unknown(),
  nearMiss: z.unknown(),
  fingerprints: z.unknown(),
  bands: z.object({ lastBand: z.enum(['normal', 'warning', 'critical', 'emergency']), lastState: ruptureState }),
  episodes: z.unknown(),
  explainRecord: z.object({ ruptureId: z.string() }).passthrough().nullable(),
  snapshot: z.object({ key: z.string(), fusedR: finite }).passthrough().nullable(),
});
