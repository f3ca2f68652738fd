/**
 * The inputs of a diagnosis read from what the analysis keeps: input series' regression lines
 * (60-min stable and 5-min burst), context events. The downstream edges come from
 * downstream-history.ts.
 * Pure.
 */
import type { ContextEventInput } from '../contract.js';
import type { SeriesEnsemble } from '../ensemble/index.js';
import { BURST_LINE, STABLE_LINE, STABLE_POINTS } from '../ensemble/series-memory.js';
import { lineCopyPoints, lineCount, lineSlope } from '../regression/line-slots.js';
import type { DiagnosisInput, InputTrend } from './diagnosis.js';
import { CONTEXT_LOOKBACK_MS } from './context-lines.js';
import { theilSenSlope } from './failure-eta.js';

const DEPLOY_WORDS = /deploy|release|rollout|upgrade/i;
/** the recent climb the ETA's robust slope is fitted on: from the trough, within these bounds (seconds back) */
const CLIMB_MAX_S = 30 * 60;
const CLIMB_MIN_S = 5 * 60;
/** seriesTrend's copy of a stable line's points (synchronous, so one pair serves every call) */
const TREND_XS = new Float64Array(STABLE_POINTS);
const TREND_YS = new Float64Array(STABLE_POINTS);

/**
 * The trend of an input series over its 60-min window, from its trough to now: `from` is the
 * lowest value of the window (the latest one when it repeats), `to` the latest value, the span the
 * time between them and the slope their rise rate (a regression line over the whole window would
 * average a 30-min flat stretch into a 3-min climb). `counter` (restarts) compares the first and
 * the latest value instead. Null without a series or with fewer than 2 points.
 */
export function seriesTrend(name: string, ensemble: SeriesEnsemble | undefined, counter = false): InputTrend | null {
  if (ensemble === undefined) return null;
  const d = ensemble.memory;
  // the stable line's points, copied once into the shared scratch (no arrays per call)
  const xs = TREND_XS;
  const ys = TREND_YS;
  const n = lineCopyPoints(d, STABLE_LINE, STABLE_POINTS, xs, ys, ensemble.positions);
  if (n < 2) return null;
  const last = n - 1;
  let at = 0;
  if (!counter) for (let i = 1; i <= last; i++) if (ys[i]! <= ys[at]!) at = i;
  const from = ys[at]!;
  const to = ys[last]!;
  const span = xs[last]! - xs[at]!;
  // the recent climb: from the trough, but at most 30 min and at least 5 min back
  const startX = Math.min(Math.max(xs[at]!, xs[last]! - CLIMB_MAX_S), xs[last]! - CLIMB_MIN_S);
  let climb = last;
  while (climb > 0 && xs[climb - 1]! >= startX) climb -= 1;
  return {
    input: name,
    from,
    to,
    spanSeconds: span,
    slopePerSecond: span > 0 ? (to - from) / span : 0,
    burstSlopePerSecond: lineCount(d, BURST_LINE) >= 2 ? lineSlope(d, BURST_LINE) : 0,
    robustSlopePerSecond: counter ? Number.NaN : theilSenSlope(xs, ys, climb, n),
  };
}

/** drops of an uptime series (seconds) by more than a minute within its 60-min window */
export function uptimeResets(ensemble: SeriesEnsemble | undefined): number {
  if (ensemble === undefined || ensemble.stableLine.count < 2) return 0;
  const { ys } = ensemble.stableLine.toJSON();
  let n = 0;
  for (let i = 1; i < ys.length; i++) if (ys[i]! < ys[i - 1]! - 60) n += 1;
  return n;
}

/**
 * The trend of a noisy level (traffic): its 60-min regression line from its first to its last
 * point, so one low and one high sample do not make a rise. Null as seriesTrend.
 */
export function lineTrend(name: string, ensemble: SeriesEnsemble | undefined): InputTrend | null {
  if (ensemble === undefined || ensemble.stableLine.count < 2) return null;
  const line = ensemble.stableLine;
  const x0 = line.firstX();
  const x1 = line.lastX();
  return { input: name, from: line.predict(x0), to: line.predict(x1), spanSeconds: x1 - x0, slopePerSecond: line.slope(), burstSlopePerSecond: 0, robustSlopePerSecond: Number.NaN };
}

/** the latest deploy-like context event of `workload` in the hour before `openedAtMs` or after it (up to `nowMs`) */
export function recentDeploy(events: readonly ContextEventInput[], workload: string, openedAtMs: number, nowMs: number): DiagnosisInput['deploy'] {
  let best: ContextEventInput | null = null;
  for (const e of events) {
    if (e.workload !== workload || !DEPLOY_WORDS.test(e.event) || !Number.isFinite(e.timeMs)) continue;
    if (e.timeMs < openedAtMs - CONTEXT_LOOKBACK_MS || e.timeMs > nowMs) continue;
    if (best === null || e.timeMs > best.timeMs) best = e;
  }
  if (best === null) return null;
  return { event: best.event, description: best.description, minutesBefore: Math.max(0, Math.floor((openedAtMs - best.timeMs) / 60_000)) };
}
