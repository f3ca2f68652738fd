/**
 * One workload's analysis: ingest buffering into 15-s buckets, and the analysis step of one
 * closed bucket (analytics.md §0.1, §1-§8) as a pipeline of stages (stages/*), in this order:
 * inputs and windows (§1, §2.2), logs (§4.1), traces (§4.2), per-pod signals (§3), fusion and
 * bands (§4.3, §4.4, §6, §8.1), derived series and anomalies (§5.1, §5.6), health forecast and
 * business (§7.1, §7.2), fingerprints (§7.3), the snapshot and the explain record (§8). Each stage
 * owns its state or gets it passed; this class holds them and runs them. Pure: no clock, no I/O,
 * ids from the injected factory.
 *
 * State bound per workload (beyond buffered, unprocessed buckets): ≤ 32 pods × ~2.5 KB,
 * 4 × (20 + 240)-point regression windows, ≤ 32 series (ensemble + detectors each, bounded by
 * their modules), a 60-value health history, a 20-bucket log baseline, a 10-span window,
 * ≤ 1000 fingerprints and 7 days of near-miss times.
 */
import type { ExplainRecord, WorkloadSnapshot } from './contract.js';
import type { AnalysisConfig } from './config.js';
import { WorkloadBuckets, type BucketTally, type OpenBucket } from './buckets/workload-buckets.js';
import { stepDtSeconds } from './signals/formulas.js';
import { DEFAULT_HEALTH_WEIGHTS, type HealthWeights } from './weights/health-weights.js';
import { DEFAULT_FAILURE_EDGES, type FailureEdges } from './explain/failure-eta.js';
import { healthCeiling } from './bands.js';
import type { SeriesPoint, SeriesSet } from './series/series-set.js';
import type { LogBucketCounter } from './logs/log-step-counter.js';
import type { WorkloadState } from './workload-state.js';
import type { SpanWindow } from './traces/span-window.js';
import type { AlertDecision } from './decision/alert-decision.js';
import type { RuptureEpisodeTracker } from './episodes/rupture-episode.js';
import type { NearMissTracker } from './business/near-miss.js';
import type { StepEnv, StepSink, WorkloadStepResult } from './stages/step-env.js';
import type { InputStage } from './stages/input-stage.js';
import type { PodStage } from './stages/pod-stage.js';
import { LogStage, NO_LOGS } from './stages/log-stage.js';
import { spanWindowFor, traceStep } from './stages/trace-stage.js';
import { fuseAndBand } from './stages/fusion-stage.js';
import { anomaliesOf, observeDerived } from './stages/series-stage.js';
import { businessStep, healthForecastStep, nearMissStep, type HealthHistory } from './stages/forecast-stage.js';
import { FingerprintStage } from './stages/fingerprint-stage.js';
import { criticalEtaMinutes, explainStep } from './stages/explain-stage.js';
import { DownstreamHistory } from './explain/downstream-history.js';
import { LevelHistory } from './explain/level-history.js';
import { provisionalSnapshot, snapshotOf, type SnapshotMemory, type SnapshotParts } from './stages/snapshot-stage.js';
import { freshParts, partsFromState, stateOf, type WorkloadParts } from './stages/state-codec.js';

export type { StepEnv, StepSink, WorkloadStepResult } from './stages/step-env.js';

// Scratch of one analysis step, shared by every analyzer (steps never overlap and nothing here
// outlives the step): the series points with firings, the parts of the snapshot.
const POINTS: SeriesPoint[] = [];
const SNAPSHOT_PARTS = {} as SnapshotParts;

/** where touchAhead leaves the sum of what it read (a store, so the reads stay) */
const AHEAD_TOUCHED = new Float64Array(1);

export class WorkloadAnalyzer {
  readonly buckets: WorkloadBuckets;
  readonly name: string;
  steps: number;
  private originMs: number | null;
  private prevStepMs: number | null;
  private readonly inputs: InputStage;
  private readonly pods: PodStage;
  private readonly series: SeriesSet;
  private logStage: LogStage | null;
  private spanWindow: SpanWindow | null;
  private readonly decision: AlertDecision;
  private readonly episodes: RuptureEpisodeTracker;
  private readonly health: HealthHistory;
  private nearMiss: NearMissTracker | null;
  private fingerprints: FingerprintStage | null;
  private explainRecord: ExplainRecord | null;
  private readonly memory: SnapshotMemory;
  /** the downstream edges' error shares over time (not saved: a restart relearns them within the hour) */
  private readonly downstream = new DownstreamHistory();
  /** the error rate's 15-min levels over 6 h (not saved: a restart relearns them) */
  private readonly errorLevels = new LevelHistory();
  /** the core's bookkeeping: its weight-table version these weights were resolved at, and the first sample time */
  weightsVersion = -1;
  weights: Readonly<HealthWeights> = DEFAULT_HEALTH_WEIGHTS;
  /** the core's objective-table version these failure edges were resolved at */
  objectivesVersion = -1;
  edges: FailureEdges = DEFAULT_FAILURE_EDGES;
  firstSeenMs = 0;

  constructor(
    readonly key: string,
    private readonly config: AnalysisConfig,
    maxSeries: number,
    parts: WorkloadParts = freshParts(maxSeries),
    /** the analysis' count of waiting buckets (buckets/workload-buckets.ts) */
    tally?: BucketTally,
  ) {
    this.name = key.split('/')[2] ?? key;
    this.buckets = new WorkloadBuckets(config.bucketMs, config.maxOpenBuckets, config.bucketGraceMs, tally);
    if (parts.lastProcessedBucket !== null) this.buckets.lastProcessed = parts.lastProcessedBucket;
    this.steps = parts.steps;
    this.originMs = parts.originMs;
    this.prevStepMs = parts.prevStepMs;
    this.inputs = parts.inputs;
    this.pods = parts.pods;
    this.series = parts.series;
    this.logStage = parts.logs;
    this.spanWindow = parts.spanWindow;
    this.decision = parts.decision;
    this.episodes = parts.episodes;
    this.health = parts.health;
    this.nearMiss = parts.nearMiss;
    this.fingerprints = parts.fingerprints;
    this.explainRecord = parts.explainRecord;
    this.memory = parts.memory;
  }

  /** the log line counter, created at the first line */
  logs(): LogBucketCounter {
    this.logStage ??= new LogStage(this.key);
    return this.logStage.counter;
  }

  /** the last step's snapshot (a new object each call), the restored one before any step, else null */
  get snapshotOrNull(): WorkloadSnapshot | null {
    return this.memory.snapshot(this.key, this.steps, this.health, this.config.bucketMs);
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
    return provisionalSnapshot(this.key, calibrationSteps, this.config.bucketMs, nowMs);
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
    AHEAD_TOUCHED[0] = this.pods.touch() + this.health.touch();
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
    const originS = this.originMs / 1000;
    const points = POINTS;
    points.length = 0;
    const series = this.series;

    // §1 inputs: workload-level bucket means → series and metricR windows
    this.inputs.observe(bucket, series, cfg, x, tStep, points);
    // §4.1 logs, §4.2 traces
    const logs = this.logStage === null ? NO_LOGS : this.logStage.step(bucket.index, env, sink, series, points, x, originS);
    this.spanWindow = spanWindowFor(this.spanWindow, bucket);
    const traces = traceStep(this.spanWindow, bucket, tStep);
    const graphContagion = env.graph.contagionInto(this.name, tStep);
    this.downstream.observe(env.graph.edgesFrom(this.name, tStep), tStep);
    const errorRate = this.inputs.errorRateOfStep(tStep, cfg.bucketMs);
    if (errorRate !== null) this.errorLevels.observe(errorRate, tStep);
    // §3 per-pod signals, aggregated
    const pod = this.pods.signals(bucket, { tStep, dtSeconds: dt, cores: this.inputs.cores, logs, graphContagion }, env);
    const values = pod.values;

    // §2.2 metricR, §4.3 fusion, §6 calibration, §4.4 bands, §8.1 episodes
    const sources = this.inputs.metricSources(tStep, cfg, this.decision);
    this.steps += 1;
    const bands = fuseAndBand(this.key, this.decision, this.episodes, sources, logs, traces, this.steps, tStep, env, sink);
    const fusedR = bands.fusedR;
    // one story: a step inside a rupture band never reports a health above the band's ceiling
    values.health_score = Math.min(values.health_score, healthCeiling(bands.state));

    // §5.1 derived series, §5.6 anomalies (not while calibrating)
    const confidence = observeDerived(series, points, values, fusedR, x, originS);
    anomaliesOf(this.key, points, tStep, bands, this.decision.band, env, sink);

    // §7.1 health forecast, §7.2 business, §7.3 fingerprints
    const inputEta = bands.calibrated ? this.inputs.inputEtaSeconds(series, env.edges) : null;
    const healthForecast = healthForecastStep(this.health, values.health_score, bands.calibrated, cfg.bucketMs, inputEta);
    this.nearMiss = nearMissStep(this.nearMiss, fusedR, tStep);
    const business = businessStep(this.name, this.inputs.errorRateAt(tStep, cfg.absenceMs), this.nearMiss, tStep, env);
    let patternMatch = null;
    if (FingerprintStage.wanted(this.fingerprints, bands.calibrated, fusedR)) {
      this.fingerprints ??= FingerprintStage.empty(this.key);
      patternMatch = this.fingerprints.step(pod, fusedR, bands.episode.ruptureId, this.episodes, tStep, sink.fingerprints);
    }

    // the snapshot; §8 explain record: refreshed every step of the episode, closed at its end
    const parts = SNAPSHOT_PARTS;
    parts.key = this.key;
    parts.tStep = tStep;
    parts.steps = this.steps;
    parts.calibrationSteps = env.calibrationSteps;
    parts.bucketMs = cfg.bucketMs;
    parts.bands = bands;
    parts.pod = pod;
    parts.healthForecast = healthForecast;
    parts.business = business;
    parts.patternMatch = patternMatch;
    parts.sources = sources;
    parts.confidence = confidence;
    const snapshot = snapshotOf(parts);
    const episode = bands.episode;
    const explain = explainStep(this, series, this.downstream, this.errorLevels, this.episodes, this.explainRecord, episode, snapshot, pod, env);
    if (episode.ruptureId !== null) this.explainRecord = episode.closed ? null : explain;
    sink.explain = explain;
    // one forecast: inside an open rupture, critical_eta_minutes is the explain record's ETA
    this.memory.criticalEta = criticalEtaMinutes(explain, inputEta);
    if (this.memory.criticalEta !== null) snapshot.healthForecast.criticalEtaMinutes = this.memory.criticalEta;

    this.prevStepMs = tStep;
    this.memory.remember(snapshot, env.calibrationSteps);
    return snapshot;
  }

  /** JSON-serialisable state (no -Infinity: absent times are null). Open buckets are not included. */
  toJSON(): WorkloadState {
    const parts: WorkloadParts = {
      steps: this.steps,
      originMs: this.originMs,
      prevStepMs: this.prevStepMs,
      lastProcessedBucket: null,
      inputs: this.inputs,
      pods: this.pods,
      series: this.series,
      logs: this.logStage,
      spanWindow: this.spanWindow,
      decision: this.decision,
      episodes: this.episodes,
      health: this.health,
      nearMiss: this.nearMiss,
      fingerprints: this.fingerprints,
      explainRecord: this.explainRecord,
      memory: this.memory,
    };
    return stateOf(this.key, parts, this.buckets.lastProcessed, this.snapshotOrNull);
  }

  /** rebuilds from toJSON output; throws an Error naming the field when malformed */
  static fromJSON(key: string, state: unknown, config: AnalysisConfig, maxSeries: number, tally?: BucketTally): WorkloadAnalyzer {
    return new WorkloadAnalyzer(key, config, maxSeries, partsFromState(key, state, config, maxSeries), tally);
  }
}
