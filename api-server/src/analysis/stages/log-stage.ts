/**
 * Stage 2 of the tick, logs (analytics.md §4.1): the bucket's log counts give logR through the
 * burst detector and the decision layer's significance gate, the mood term, the error share and
 * the log series' points. Created at the workload's first log line. Pure: no clock, no I/O; log
 * burst ids come from the step's id factory.
 */
import { DEFAULT_LOG_GATE, gatedLogRatio } from '../decision/log-significance.js';
import { LogBucketCounter, logErrorShare, logMoodTerm, logSentiment } from '../logs/log-step-counter.js';
import { LogBurstDetector } from '../logs/log-burst.js';
import { LogSeries } from '../logs/log-series.js';
import type { SeriesPoint, SeriesSet } from '../series/series-set.js';
import type { StepEnv, StepSink } from './step-env.js';

/** what the log stage gives the later stages (one object per step, shared by every workload) */
export interface LogStepResult {
  logR: number | null;
  moodTerm: number;
  recentLogs: boolean;
  errorShare: number;
}

/** the result of a workload without a log line yet */
export const NO_LOGS: Readonly<LogStepResult> = { logR: null, moodTerm: 0, recentLogs: false, errorShare: 0 };
const RESULT: LogStepResult = { ...NO_LOGS };

/** the env of the running step, for the id factory below (no closure per step) */
let idEnv: StepEnv | null = null;
const newLogBurstId = (): string => `lb_${idEnv!.newHexId()}`;

/** the saved form of a workload's log state (null parts: no log line seen) */
export interface LogStageState {
  logCounter: unknown;
  logBurst: unknown;
  logSeries: unknown;
}

export class LogStage {
  readonly counter: LogBucketCounter;
  private readonly burst: LogBurstDetector;
  private readonly series: LogSeries;

  constructor(key: string, counter = new LogBucketCounter(), burst = new LogBurstDetector(key), series = new LogSeries()) {
    this.counter = counter;
    this.burst = burst;
    this.series = series;
  }

  /** the stage's state restored, or null when no log line was seen */
  static fromState(key: string, s: LogStageState): LogStage | null {
    if (s.logCounter === null) return null;
    return new LogStage(
      key,
      LogBucketCounter.fromState(s.logCounter),
      s.logBurst === null ? new LogBurstDetector(key) : LogBurstDetector.fromState(key, s.logBurst),
      LogSeries.fromState(s.logSeries),
    );
  }

  /**
   * §4.1: the bucket's counts; burst events go to `sink`, the log series' points with firings to
   * `points` (`x` on the workload's axis, the sample time origin + x)
   */
  step(bucketIndex: number, env: StepEnv, sink: StepSink, series: SeriesSet, points: SeriesPoint[], x: number, originS: number): LogStepResult {
    idEnv = env;
    const out = RESULT;
    const counts = this.counter.take(bucketIndex);
    const burst = this.burst.step({ bucketIndex, warn: counts.warn, error: counts.error }, newLogBurstId);
    if (burst.started !== null) sink.logBursts.push(burst.started);
    if (burst.ended !== null) sink.logBursts.push(burst.ended);
    out.logR = counts.present ? gatedLogRatio(burst.logR, burst.count, burst.baselineMean, DEFAULT_LOG_GATE) : null;
    out.moodTerm = logMoodTerm(logSentiment(counts));
    out.recentLogs = counts.recentClassified;
    out.errorShare = logErrorShare(counts);
    const ls = this.series.step(counts);
    observeInto(series, points, 'log_error_rate', ls.logErrorRate, x, originS);
    observeInto(series, points, 'log_burst_index', ls.logBurstIndex, x, originS);
    return out;
  }

  exportState(): LogStageState {
    return { logCounter: this.counter.exportState(), logBurst: this.burst.exportState(), logSeries: this.series.exportState() };
  }
}

/** a point of series `name` at `x` on the workload's axis (sample time origin + x), kept in `points` when it fired */
export function observeInto(series: SeriesSet, points: SeriesPoint[], name: string, value: number, x: number, originS: number): void {
  const p = series.observe(name, value, x, originS + x);
  if (p !== null && p.firings.length > 0) points.push(p);
}
