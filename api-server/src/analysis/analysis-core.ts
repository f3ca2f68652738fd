/**
 * AnalysisCoreImpl: the facade of contract.ts. Ingest calls only buffer into the workload's
 * open buckets; step(nowMs) runs every closed, unprocessed bucket of every workload in
 * ascending bucket order (globally, so the shared service graph sees every workload's spans of
 * bucket b before any step of bucket b). Pure: the clock comes in as `nowMs`, ids from the
 * injected `newHexId` (12 lowercase hex characters; the core adds `r_`, `anm_`, `lb_`).
 *
 * Rejections (counted in ingestStats, never thrown): non-finite value or time, empty workload
 * key, samples for an already processed bucket (late) and samples beyond the open-bucket bound
 * (overflow).
 */
import type {
  AnalysisCore,
  AnalysisIngestStats,
  ContextEventInput,
  ExplainRecord,
  ForecastResult,
  StepOutput,
  SuppressionInput,
  WeightOverride,
  WorkloadSnapshot,
} from './contract.js';
import type { LogRecord, MetricRecord, SpanRecord } from '../model/records.js';
import { calibrationStepsOf, resolveConfig, type AnalysisConfig } from './config.js';
import { resolveMetricName, seriesNameOf } from './normalise/metric-names.js';
import { sampleValue } from './normalise/unit-rules.js';
import { DEFAULT_HEALTH_WEIGHTS, WeightTable, type HealthWeights } from './weights/health-weights.js';
import { ObjectiveTable } from './objectives/objective-edges.js';
import { DEFAULT_FAILURE_EDGES, type FailureEdges } from './explain/failure-eta.js';
import type { FailureObjective } from '../model/failure-objective.js';
import { WorkloadAnalyzer, type StepEnv } from './workload-analyzer.js';
import type { BucketTally, OpenBucket } from './buckets/workload-buckets.js';
import { DERIVED_SERIES } from './series/series-set.js';
import { StepRun } from './step-run.js';
import { classifyLog } from './logs/log-classifier.js';
import { ServiceGraph } from './traces/service-graph.js';
import type { SloConfig } from './business/business-signals.js';

export interface AnalysisCoreOptions {
  /** 12 lowercase hex characters per call (the service passes a CSPRNG-backed one) */
  newHexId: () => string;
  config?: Partial<AnalysisConfig>;
  /** series per workload (inputs + the 4 derived), default 32 */
  maxSeriesPerWorkload?: number;
}

export type IngestStats = AnalysisIngestStats;

export const MAX_FORECAST_HORIZON_MINUTES = 10_080;

const NO_CONTEXT_EVENTS: readonly ContextEventInput[] = Object.freeze([]);
const NO_SUPPRESSIONS: readonly SuppressionInput[] = Object.freeze([]);

export class AnalysisCoreImpl implements AnalysisCore {
  readonly config: AnalysisConfig;
  private readonly calibrationSteps: number;
  private readonly maxSeries: number;
  private readonly newHexId: () => string;
  private readonly workloads = new Map<string, WorkloadAnalyzer>();
  private readonly graph = new ServiceGraph();
  private weightTable = new WeightTable();
  /** bumped by setWeights: an analyzer whose weightsVersion differs resolves its weights again */
  private weightsVersion = 0;
  private objectiveTable = new ObjectiveTable();
  /** bumped by setObjectives: an analyzer whose objectivesVersion differs resolves its failure edges again */
  private objectivesVersion = 0;
  /** the env handed to each workload's step (one object, its per-workload fields replaced) */
  private readonly env: StepEnv;
  /** the closed buckets of a step and their workloads (emptied after each step) */
  private readonly stepBuckets: OpenBucket[] = [];
  private readonly stepWorkloads: WorkloadAnalyzer[] = [];
  /** a step run holds stepBuckets and stepWorkloads */
  private stepping = false;
  private contextByWorkload = new Map<string, ContextEventInput[]>();
  private suppressionsByWorkload = new Map<string, SuppressionInput[]>();
  private slos = new Map<string, SloConfig>();
  /** explain records in order of last refresh (oldest first), bounded by count and age */
  private readonly explainRecords = new Map<string, ExplainRecord>();
  private readonly latestRuptureOf = new Map<string, string>();
  private readonly stats: IngestStats = { acceptedSamples: 0, rejectedInvalid: 0, lateSamples: 0, overflowSamples: 0 };
  /** workload-buckets opened by ingest and not run by a step yet (waitingBuckets), counted where buckets open */
  private readonly tally: BucketTally = { waiting: 0 };

  constructor(options: AnalysisCoreOptions) {
    this.config = resolveConfig(options.config);
    this.calibrationSteps = calibrationStepsOf(this.config);
    this.maxSeries = Math.max(4, options.maxSeriesPerWorkload ?? 32);
    this.newHexId = options.newHexId;
    this.env = {
      config: this.config,
      calibrationSteps: this.calibrationSteps,
      weights: DEFAULT_HEALTH_WEIGHTS,
      edges: DEFAULT_FAILURE_EDGES,
      newHexId: this.newHexId,
      graph: this.graph,
      contextEvents: NO_CONTEXT_EVENTS,
      suppressions: NO_SUPPRESSIONS,
      slo: undefined,
      maxSeries: this.maxSeries,
    };
  }

  private analyzer(key: string, timeMs: number): WorkloadAnalyzer {
    let w = this.workloads.get(key);
    if (w === undefined) {
      w = new WorkloadAnalyzer(key, this.config, this.maxSeries, undefined, this.tally);
      w.firstSeenMs = timeMs;
      this.workloads.set(key, w);
    }
    return w;
  }

  private count(result: 'ok' | 'late' | 'overflow'): void {
    if (result === 'ok') this.stats.acceptedSamples++;
    else if (result === 'late') this.stats.lateSamples++;
    else this.stats.overflowSamples++;
  }

  observeMetric(record: MetricRecord): void {
    if (!Number.isFinite(record.value) || !Number.isFinite(record.timeMs) || record.workload === '') {
      this.stats.rejectedInvalid++;
      return;
    }
    const resolved = resolveMetricName(record.name);
    const value = sampleValue(resolved.unit, record.value, resolved.scale);
    const w = this.analyzer(record.workload, record.timeMs);
    this.count(w.buckets.addMetric(record.pod ?? '', resolved.input, value, resolved.rank, record.timeMs));
  }

  observeLog(record: LogRecord): void {
    if (!Number.isFinite(record.timeMs) || record.workload === '') {
      this.stats.rejectedInvalid++;
      return;
    }
    const w = this.analyzer(record.workload, record.timeMs);
    const result = w.buckets.addLog(record.timeMs);
    if (result === 'ok') w.logs().observe(classifyLog(record.severityNumber, record.severityText, record.body), record.timeMs);
    this.count(result);
  }

  observeSpan(record: SpanRecord): void {
    if (!Number.isFinite(record.startMs) || !Number.isFinite(record.endMs) || record.workload === '') {
      this.stats.rejectedInvalid++;
      return;
    }
    const w = this.analyzer(record.workload, record.startMs);
    this.count(w.buckets.addSpan(record));
  }

  /**
   * Workload-buckets opened by ingest and not yet run by a step (a step started but not finished
   * still counts those it has not run): what a backlog holds in memory, about 1 KB each
   * (docs/memory.md). The ingest sink refuses new telemetry while it is above its budget.
   */
  waitingBuckets(): number {
    return this.tally.waiting;
  }

  step(nowMs: number): StepOutput {
    return this.beginStep(nowMs).output();
  }

  /**
   * Takes every closed bucket of every workload (marking them processed, so a sample for one of
   * them is `late` from now on) and returns the step that runs them, in ascending bucket index and
   * within an index in workload order. Its output is the same whether it runs at once or in parts.
   */
  beginStep(nowMs: number): StepRun {
    // one step at a time reuses the two arrays; a second one started meanwhile gets its own
    const reuse = !this.stepping;
    const buckets = reuse ? this.stepBuckets : [];
    const owners = reuse ? this.stepWorkloads : [];
    let several = false;
    for (const w of this.workloads.values()) {
      if (w.buckets.openCount === 0) continue;
      const taken = w.buckets.takeClosedInto(nowMs, buckets);
      if (taken > 1) several = true;
      for (let i = 0; i < taken; i++) owners.push(w);
    }
    const n = buckets.length;
    let sorted = true;
    for (let i = 1; i < n && sorted; i++) sorted = buckets[i - 1]!.index <= buckets[i]!.index;
    if (!sorted) {
      // stable: equal indices keep the workload order
      const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => buckets[a]!.index - buckets[b]!.index);
      const bs = order.map((i) => buckets[i]!);
      const ws = order.map((i) => owners[i]!);
      for (let i = 0; i < n; i++) {
        buckets[i] = bs[i]!;
        owners[i] = ws[i]!;
      }
    }
    if (reuse) this.stepping = true;
    return new StepRun(buckets, owners, several, {
      observeSpan: (span) => this.graph.observeSpan(span),
      run: (w, bucket, sink) => {
        this.tally.waiting -= 1;
        return w.run(bucket, this.envFor(w), sink);
      },
      storeExplain: (record) => this.storeExplain(record),
      finish: (latestStepMs) => {
        this.graph.prune(latestStepMs);
        this.expireExplain(latestStepMs);
      },
      release: () => {
        buckets.length = 0;
        owners.length = 0;
        if (reuse) this.stepping = false;
      },
    });
  }

  private envFor(w: WorkloadAnalyzer): StepEnv {
    const env = this.env;
    env.weights = this.weightsFor(w);
    env.edges = this.edgesFor(w);
    env.contextEvents = this.contextByWorkload.size === 0 ? NO_CONTEXT_EVENTS : (this.contextByWorkload.get(w.key) ?? NO_CONTEXT_EVENTS);
    env.suppressions = this.suppressionsByWorkload.size === 0 ? NO_SUPPRESSIONS : (this.suppressionsByWorkload.get(w.key) ?? NO_SUPPRESSIONS);
    env.slo = this.slos.size === 0 ? undefined : this.slos.get(w.key);
    return env;
  }

  /** the workload's weights, resolved again only after setWeights */
  private weightsFor(w: WorkloadAnalyzer): Readonly<HealthWeights> {
    if (w.weightsVersion !== this.weightsVersion) {
      w.weights = this.weightTable.weightsFor(w.key);
      w.weightsVersion = this.weightsVersion;
    }
    return w.weights;
  }

  /** the workload's failure edges (its objectives), resolved again only after setObjectives */
  private edgesFor(w: WorkloadAnalyzer): FailureEdges {
    if (w.objectivesVersion !== this.objectivesVersion) {
      w.edges = this.objectiveTable.edgesFor(w.key);
      w.objectivesVersion = this.objectivesVersion;
    }
    return w.edges;
  }

  private storeExplain(record: ExplainRecord): void {
    this.explainRecords.delete(record.ruptureId);
    this.explainRecords.set(record.ruptureId, record);
    this.latestRuptureOf.set(record.workload, record.ruptureId);
    while (this.explainRecords.size > this.config.maxExplainRecords) {
      const oldest = this.explainRecords.keys().next().value as string;
      this.dropExplain(oldest);
    }
  }

  private expireExplain(nowMs: number): void {
    for (const [id, r] of this.explainRecords) {
      if (nowMs - r.updatedAtMs <= this.config.explainRetentionMs) break;
      this.dropExplain(id);
    }
  }

  private dropExplain(id: string): void {
    const r = this.explainRecords.get(id);
    this.explainRecords.delete(id);
    if (r !== undefined && this.latestRuptureOf.get(r.workload) === id) this.latestRuptureOf.delete(r.workload);
  }

  snapshot(key: string): WorkloadSnapshot | undefined {
    const w = this.workloads.get(key);
    if (w === undefined) return undefined;
    return w.snapshotOrNull ?? w.provisionalSnapshot(this.calibrationSteps, w.firstSeenMs);
  }

  /** true when this core analyses the workload (a Map lookup, for the ingest guard) */
  hasWorkload(key: string): boolean {
    return this.workloads.has(key);
  }

  workloadKeys(): string[] {
    return [...this.workloads.keys()];
  }

  setWeights(overrides: WeightOverride[]): void {
    this.weightTable = new WeightTable(overrides);
    this.weightsVersion++;
  }

  setObjectives(objectives: readonly FailureObjective[]): void {
    this.objectiveTable = new ObjectiveTable(objectives);
    this.objectivesVersion++;
  }

  setContextEvents(events: ContextEventInput[]): void {
    const m = new Map<string, ContextEventInput[]>();
    for (const e of events) {
      if (!Number.isFinite(e.timeMs)) continue;
      let list = m.get(e.workload);
      if (list === undefined) {
        list = [];
        m.set(e.workload, list);
      }
      list.push(e);
    }
    this.contextByWorkload = m;
  }

  setSuppressions(suppressions: SuppressionInput[]): void {
    const m = new Map<string, SuppressionInput[]>();
    for (const s of suppressions) {
      const normalised: SuppressionInput =
        s.signals === undefined ? s : { ...s, signals: [...new Set([...s.signals, ...s.signals.map((n) => seriesNameOf(n))])] };
      let list = m.get(s.workload);
      if (list === undefined) {
        list = [];
        m.set(s.workload, list);
      }
      list.push(normalised);
    }
    this.suppressionsByWorkload = m;
  }

  /** SLO contracts per workload key (analytics.md §7.2, §12); replaces the whole map */
  setSlos(slos: ReadonlyMap<string, SloConfig>): void {
    this.slos = new Map(slos);
  }

  /** a rupture id, or a workload key (its latest episode) */
  explain(ruptureId: string): ExplainRecord | undefined {
    const direct = this.explainRecords.get(ruptureId);
    if (direct !== undefined) return direct;
    const latest = this.latestRuptureOf.get(ruptureId);
    return latest === undefined ? undefined : this.explainRecords.get(latest);
  }

  forecast(key: string, metric: string, horizonMinutes: number): ForecastResult | undefined {
    const w = this.workloads.get(key);
    if (w === undefined || !Number.isFinite(horizonMinutes)) return undefined;
    const name = (DERIVED_SERIES as readonly string[]).includes(metric) ? metric : seriesNameOf(metric);
    const ensemble = w.seriesEnsemble(name);
    if (ensemble === undefined) return undefined;
    const horizon = Math.min(MAX_FORECAST_HORIZON_MINUTES, Math.max(1, Math.floor(horizonMinutes)));
    const f = ensemble.forecast(horizon);
    return {
      workload: key,
      metric: name,
      horizonMinutes: horizon,
      current: f.current,
      trend: f.trend,
      confidence: f.confidence,
      warmingUp: f.warmingUp,
      timeMs: w.lastStepMs ?? 0,
      models: f.models,
      points: f.points,
    };
  }

  exportWorkload(key: string): unknown {
    return this.workloads.get(key)?.toJSON();
  }

  importWorkload(key: string, state: unknown): void {
    const w = WorkloadAnalyzer.fromJSON(key, state, this.config, this.maxSeries, this.tally);
    const previous = this.workloads.get(key);
    if (previous !== undefined) this.tally.waiting -= previous.buckets.openCount;
    w.firstSeenMs = previous !== undefined ? previous.firstSeenMs : (w.lastStepMs ?? 0);
    this.workloads.set(key, w);
  }

  removeWorkload(key: string): void {
    const w = this.workloads.get(key);
    if (w !== undefined) this.tally.waiting -= w.buckets.openCount;
    this.workloads.delete(key);
    const latest = this.latestRuptureOf.get(key);
    if (latest !== undefined) this.dropExplain(latest);
  }

  lastProcessedBucket(key: string): number | undefined {
    return this.workloads.get(key)?.buckets.lastProcessed;
  }

  ingestStats(): IngestStats {
    return { ...this.stats };
  }
}
