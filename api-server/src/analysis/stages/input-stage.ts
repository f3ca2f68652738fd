/**
 * Stage 1 of the tick, inputs and windows (analytics.md §1, §2.2): the bucket's workload-level
 * means become points of the input series and of the metricR regression windows; metricR is read
 * from those windows through the decision layer's significance gate; the inputs' latest values and
 * slopes give the earliest ETA to a failure edge. Owns the per-workload input state (cores, the
 * last metric time, the error rate, the windows). Pure: no clock, no I/O.
 */
import type { SourceRatios } from '../contract.js';
import type { AnalysisConfig } from '../config.js';
import type { OpenBucket, WorkloadMeans } from '../buckets/workload-buckets.js';
import { loadPerCore } from '../normalise/unit-rules.js';
import type { AlertDecision, InputLines } from '../decision/alert-decision.js';
import { SERIES_BURST_POINTS, SERIES_STABLE_POINTS, type SeriesPoint, type SeriesSet } from '../series/series-set.js';
import { SlidingRegression } from '../regression/index.js';
import type { SeriesEnsemble } from '../ensemble/index.js';
import { burstLineOf, seriesBurstFull, seriesBurstMean, seriesBurstSlope, seriesBurstSlopeStdError, seriesBurstSpan, seriesStableSlope } from '../anomaly/index.js';
import { seriesTrend } from '../explain/diagnosis-inputs.js';
import { earliestInputEta, etaSlope, TREND_INPUTS, type EtaInput, type FailureEdges, type TrendInput } from '../explain/failure-eta.js';
import type { WorkloadState } from '../workload-state.js';

/** inputs whose burst/stable slopes give metricR, in tie order (§2.2) */
export const METRIC_R_INPUTS = ['cpu', 'memory', 'latency', 'error_rate'] as const;
/** each metricR input's place in METRIC_R_INPUTS (InputStage's windows by place) */
const METRIC_R_PLACE: ReadonlyMap<string, number> = new Map(METRIC_R_INPUTS.map((name, k) => [name, k]));
/** TREND_INPUTS[k]'s place in METRIC_R_INPUTS, −1 for one that is not a metricR input (it has no windows) */
const TREND_PLACE: readonly number[] = TREND_INPUTS.map((name) => METRIC_R_PLACE.get(name) ?? -1);

/**
 * The metricR windows of an input: the input series' own burst and stable lines, read in place in
 * its memory (observe pushes them; a series is never dropped), or lines of their own.
 */
type MetricWindows =
  | { series: SeriesEnsemble; last: number; shared: true }
  | { burst: SlidingRegression; stable: SlidingRegression; last: number; shared: false };

export function emptySources(): SourceRatios {
  return { metricR: null, logR: null, traceR: null, traceRA: null, primaryMetric: null, alphaBurst: 0, alphaStable: 0 };
}

// Scratch of one step, shared by every workload (steps never overlap): the bucket means and the
// lines of one metricR input as the decision layer reads them.
const MEANS: WorkloadMeans = { names: [], means: [], lastMs: [] };
/** one metricR input's lines as the decision layer reads them, the standard error computed from `window` when asked */
class WindowLines implements InputLines {
  burstSlope = 0;
  burstSpan = 0;
  stableSlope = 0;
  burstMean = 0;
  stableMean = 0;
  /** the windows the other fields were read from */
  window: MetricWindows | null = null;

  burstStdError(): number {
    const w = this.window!;
    return w.shared ? seriesBurstSlopeStdError(w.series) : w.burst.slopeStdError();
  }
}
const INPUT_LINES = new WindowLines();

// Scratch of inputEtaSeconds, shared by every workload (steps never overlap): each trend input's
// latest value and 60-min slope, the ones with windows, and the series their refined slope is read from.
const ETA_INPUT_OF: EtaInput[] = TREND_INPUTS.map((input) => ({ input, last: 0, stableSlope: 0 }));
const ETA_INPUTS: EtaInput[] = [];
let etaSeries: SeriesSet | null = null;

/** the ETA slope of an input's recent trend in the series of the running inputEtaSeconds (NaN without a trend) */
function refinedEtaSlope(name: TrendInput): number {
  const t = seriesTrend(name, etaSeries!.ensemble(name));
  return t === null ? Number.NaN : etaSlope(t);
}

export class InputStage {
  cores = 1;
  lastMetricMs = Number.NEGATIVE_INFINITY;
  errorRate = 0;
  errorRateMs = Number.NEGATIVE_INFINITY;
  /** the windows of each input in the order they were first made (the saved order) */
  private readonly windows = new Map<string, MetricWindows>();
  /** the same windows of each metricR input by its place in METRIC_R_INPUTS, read every step instead of by name */
  private readonly windowsAt: (MetricWindows | undefined)[] = [undefined, undefined, undefined, undefined];

  /**
   * §1: the bucket's workload-level means into the input series (their points with firings
   * appended to `points`) and the metricR windows; `x` is the step on the workload's axis
   */
  observe(bucket: OpenBucket, series: SeriesSet, cfg: AnalysisConfig, x: number, tStep: number, points: SeriesPoint[]): void {
    const means = MEANS;
    const nMeans = bucket.collectMeans(means);
    // the memory every series of this step reads first, touched at once (docs/performance.md)
    series.prefetch(tStep / 1000);
    series.prefetchContexts(means.names, means.means, nMeans);
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
      const p = series.observe(name, value, x, tStep / 1000);
      if (p !== null && p.firings.length > 0) points.push(p);
      const place = METRIC_R_PLACE.get(name);
      if (place !== undefined) this.pushWindow(series, cfg, place, x, value);
    }
  }

  /** the error rate when this step's bucket brought one, else null */
  errorRateOfStep(tStep: number, bucketMs: number): number | null {
    return tStep - this.errorRateMs <= bucketMs ? this.errorRate : null;
  }

  /** the error rate of the last metric bucket, 0 once older than the absence limit */
  errorRateAt(tStep: number, absenceMs: number): number {
    return tStep - this.errorRateMs <= absenceMs ? this.errorRate : 0;
  }

  /**
   * metricR = max over the metricR inputs with a full burst window (§2.2), each input's burst slope
   * through the decision layer's significance gate; present only with a metric bucket ≤ 5 min old
   */
  metricSources(tStep: number, cfg: AnalysisConfig, decision: AlertDecision): SourceRatios {
    const sources = emptySources();
    if (tStep - this.lastMetricMs > cfg.absenceMs) return sources;
    let best: number | null = null;
    for (let place = 0; place < METRIC_R_INPUTS.length; place++) {
      const name = METRIC_R_INPUTS[place]!;
      const w = this.windowsAt[place];
      if (w === undefined) continue;
      const lines = INPUT_LINES;
      lines.window = w;
      if (w.shared) {
        if (!seriesBurstFull(w.series)) continue;
        lines.burstSlope = seriesBurstSlope(w.series);
        lines.burstSpan = seriesBurstSpan(w.series);
        lines.stableSlope = seriesStableSlope(w.series);
        lines.burstMean = seriesBurstMean(w.series);
        lines.stableMean = w.series.stableLine.meanY();
      } else {
        if (!w.burst.full) continue;
        lines.burstSlope = w.burst.slope();
        lines.burstSpan = w.burst.lastX() - w.burst.firstX();
        lines.stableSlope = w.stable.slope();
        lines.burstMean = w.burst.meanY();
        lines.stableMean = w.stable.meanY();
      }
      const r = decision.metricRatio(name, lines);
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
    INPUT_LINES.window = null;
    sources.metricR = best;
    return sources;
  }

  /** earliestInputEta over the metricR inputs' windows (latest value, 60-min slope) */
  inputEtaSeconds(series: SeriesSet, edges: FailureEdges): number | null {
    const inputs = ETA_INPUTS;
    inputs.length = 0;
    for (let k = 0; k < TREND_INPUTS.length; k++) {
      const place = TREND_PLACE[k]!;
      const w = place < 0 ? undefined : this.windowsAt[place];
      if (w === undefined) continue;
      const input = ETA_INPUT_OF[k]!;
      input.last = w.last;
      input.stableSlope = w.shared ? seriesStableSlope(w.series) : w.stable.slope();
      inputs.push(input);
    }
    etaSeries = series;
    return earliestInputEta(inputs, refinedEtaSlope, edges);
  }

  /** the windows in their saved form */
  exportWindows(): WorkloadState['windows'] {
    return [...this.windows].map(([name, w]) =>
      w.shared ? [name, burstLineOf(w.series).toJSON(), w.series.stableLine.toJSON(), w.last] : [name, w.burst.toJSON(), w.stable.toJSON(), w.last],
    );
  }

  /** restores saved windows over the restored `series` */
  restoreWindows(windows: WorkloadState['windows'], series: SeriesSet, cfg: AnalysisConfig): void {
    for (const [name, burst, stable, last] of windows) {
      // shared with the series: its replayed lines hold the same points; the saved running
      // moments make them continue bit for bit
      const shared = shareableSeries(series, cfg, name);
      if (shared !== undefined && burstLineOf(shared).adoptMoments(burst) && shared.stableLine.adoptMoments(stable)) {
        this.setWindows(name, { series: shared, last, shared: true });
      } else {
        this.setWindows(name, { burst: SlidingRegression.fromJSON(burst), stable: SlidingRegression.fromJSON(stable), last, shared: false });
      }
    }
  }

  /** `w` becomes the windows of input `name` (by name, and by place for a metricR input) */
  private setWindows(name: string, w: MetricWindows): void {
    this.windows.set(name, w);
    const place = METRIC_R_PLACE.get(name);
    if (place !== undefined) this.windowsAt[place] = w;
  }

  /**
   * The metricR windows of an input (given by its place in METRIC_R_INPUTS). With the default
   * sizes (20 and 240 points) they are the input series' own burst line (its detectors') and
   * stable line (its ensemble's ca_ilr), which see the same points: pushed once, stored once.
   * Otherwise, or when the input is not tracked as a series, they are windows of their own. Call
   * after the series observed the point.
   */
  private pushWindow(series: SeriesSet, cfg: AnalysisConfig, place: number, x: number, y: number): void {
    const name = METRIC_R_INPUTS[place]!;
    let w = this.windowsAt[place];
    if (w?.shared === true) {
      w.last = y;
      return;
    }
    const shared = shareableSeries(series, cfg, name);
    if (shared !== undefined) {
      // first sight, or windows restored on their own: the series' lines hold the same points
      this.setWindows(name, { series: shared, last: y, shared: true });
      return;
    }
    if (w === undefined) {
      w = { burst: new SlidingRegression(cfg.burstWindow), stable: new SlidingRegression(cfg.stableWindow), last: y, shared: false };
      this.setWindows(name, w);
    }
    w.burst.push(x, y);
    w.stable.push(x, y);
    w.last = y;
  }
}

/** the input series whose lines the metricR windows can be (default sizes, tracked input) */
function shareableSeries(series: SeriesSet, cfg: AnalysisConfig, name: string): SeriesEnsemble | undefined {
  if (cfg.burstWindow !== SERIES_BURST_POINTS || cfg.stableWindow !== SERIES_STABLE_POINTS) return undefined;
  return series.ensemble(name);
}
