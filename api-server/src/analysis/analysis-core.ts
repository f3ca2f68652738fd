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
  AnomalyEvent,
  BandEvent,
  ContextEventInput,
  ExplainRecord,
  Fingerprint,
  ForecastResult,
  StepOutput,
  SuppressionInput,
  WeightOverride,
  WorkloadSnapshot,
} from './contract.js';
import type { LogRecord, MetricRecord, SpanRecord } from '../ingest/records.js';
import { calibrationStepsOf, resolveConfig, type AnalysisConfig } from './config.js';
import { resolveMetricName, seriesNameOf } from './normalise/metric-names.js';
import { sampleValue } from './normalise/unit-rules.js';
import { WeightTable, type HealthWeights } from './weights/health-weights.js';
import { WorkloadAnalyzer, type StepEnv } from './workload-analyzer.js';
import type { OpenBucket } from './buckets/workload-buckets.js';
import { DERIVED_SERIES } from './series/series-set.js';
import { classifyLog } from './logs/log-classifier.js';
import type { LogBurstEvent } from './logs/log-burst.js';
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

export class AnalysisCoreImpl implements AnalysisCore {
  readonly config: AnalysisConfig;
  private readonly calibrationSteps: number;
  private readonly maxSeries: number;
  private readonly newHexId: () => string;
  private readonly workloads = new Map<string, WorkloadAnalyzer>();
  private readonly firstSeenMs = new Map<string, number>();
  private readonly graph = new ServiceGraph();
  private weightTable = new WeightTable();
  private readonly weightCache = new Map<string, Readonly<HealthWeights>>();
  private contextByWorkload = new Map<string, ContextEventInput[]>();
  private suppressionsByWorkload = new Map<string, SuppressionInput[]>();
  private slos = new Map<string, SloConfig>();
  /** explain records in order of last refresh (oldest first), bounded by count and age */
  private readonly explainRecords = new Map<string, ExplainRecord>();
  private readonly latestRuptureOf = new Map<string, string>();
  private readonly stats: IngestStats = { acceptedSamples: 0, rejectedInvalid: 0, lateSamples: 0, overflowSamples: 0 };

  constructor(options: AnalysisCoreOptions) {
    this.config = resolveConfig(options.config);
    this.calibrationSteps = calibrationStepsOf(this.config);
    this.maxSeries = Math.max(4, options.maxSeriesPerWorkload ?? 32);
    this.newHexId = options.newHexId;
  }

  private analyzer(key: string, timeMs: number): WorkloadAnalyzer {
    let w = this.workloads.get(key);
    if (w === undefined) {
      w = new WorkloadAnalyzer(key, this.config, this.maxSeries);
      this.workloads.set(key, w);
      this.firstSeenMs.set(key, timeMs);
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

  step(nowMs: number): StepOutput {
    const byIndex = new Map<number, [WorkloadAnalyzer, OpenBucket][]>();
    for (const w of this.workloads.values()) {
      if (w.buckets.openCount === 0) continue;
      for (const b of w.buckets.takeClosed(nowMs)) {
        let list = byIndex.get(b.index);
        if (list === undefined) {
          list = [];
          byIndex.set(b.index, list);
        }
        list.push([w, b]);
      }
    }
    const snapshots = new Map<string, WorkloadSnapshot>();
    const anomalies: AnomalyEvent[] = [];
    const bandEvents: BandEvent[] = [];
    const ruptures = new Map<string, ExplainRecord>();
    const fingerprints: Fingerprint[] = [];
    const logBursts: LogBurstEvent[] = [];
    let latestStepMs = Number.NEGATIVE_INFINITY;
    const indices = [...byIndex.keys()].sort((a, b) => a - b);
    for (const index of indices) {
      const list = byIndex.get(index)!;
      for (const [, bucket] of list) for (const span of bucket.spans) this.graph.observeSpan(span);
      for (const [w, bucket] of list) {
        const r = w.step(bucket, this.envFor(w.key));
        snapshots.set(w.key, r.snapshot);
        for (const a of r.anomalies) anomalies.push(a);
        if (r.bandEvent !== null) bandEvents.push(r.bandEvent);
        if (r.explain !== null) {
          ruptures.set(r.explain.ruptureId, r.explain);
          this.storeExplain(r.explain);
        }
        if (r.fingerprint !== null) fingerprints.push(r.fingerprint);
        for (const e of r.logBursts) logBursts.push(e);
        if (r.snapshot.timeMs > latestStepMs) latestStepMs = r.snapshot.timeMs;
        w.buckets.recycle(bucket);
      }
    }
    if (indices.length > 0) {
      this.graph.prune(latestStepMs);
      this.expireExplain(latestStepMs);
    }
    return { snapshots: [...snapshots.values()], anomalies, bandEvents, ruptures: [...ruptures.values()], fingerprints, logBursts };
  }

  private envFor(key: string): StepEnv {
    return {
      config: this.config,
      calibrationSteps: this.calibrationSteps,
      weights: this.weightsFor(key),
      newHexId: this.newHexId,
      graph: this.graph,
      contextEvents: this.contextByWorkload.get(key) ?? [],
      suppressions: this.suppressionsByWorkload.get(key) ?? [],
      slo: this.slos.get(key),
      maxSeries: this.maxSeries,
    };
  }

  private weightsFor(key: string): Readonly<HealthWeights> {
    let w = this.weightCache.get(key);
    if (w === undefined) {
      w = this.weightTable.weightsFor(key);
      this.weightCache.set(key, w);
    }
    return w;
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
    return w.snapshotOrNull ?? w.provisionalSnapshot(this.calibrationSteps, this.firstSeenMs.get(key) ?? 0);
  }

  workloadKeys(): string[] {
    return [...this.workloads.keys()];
  }

  setWeights(overrides: WeightOverride[]): void {
    this.weightTable = new WeightTable(overrides);
    this.weightCache.clear();
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
    const w = WorkloadAnalyzer.fromJSON(key, state, this.config, this.maxSeries);
    this.workloads.set(key, w);
    if (!this.firstSeenMs.has(key)) this.firstSeenMs.set(key, w.lastStepMs ?? 0);
  }

  removeWorkload(key: string): void {
    this.workloads.delete(key);
    this.firstSeenMs.delete(key);
    const latest = this.latestRuptureOf.get(key);
    if (latest !== undefined) this.dropExplain(latest);
  }

  lastProcessedBucket(key: string): number | undefined {
    const last = this.workloads.get(key)?.buckets.lastProcessed;
    return last === undefined || !Number.isFinite(last) ? undefined : last;
  }

  ingestStats(): IngestStats {
    return { ...this.stats };
  }
}
