/**
 * Anomaly detection on one series (analytics.md §5.6), run on every point:
 * - zscore: ring of the last 300 values incl. the current; fires beyond mu +- 3 sigma; warm-up 10.
 * - mad: median and 1.4826 x MAD of the last 300 incl. the current; fires beyond 3; warm-up 10.
 * - seasonal: Holt-Winters (p = 240) one-step forecast made before the update; sigma of its last
 *   181-200 residuals incl. the current (the newest 10 blocks of 20: the residuals are kept as
 *   block statistics, ensemble/error-slots.ts, not as a ring of 200); fires beyond 3; warm-up one
 *   season.
 * - ca_ilr: metricR of the series (burst 20 / stable 240 windows, noise gate) above 3.0, and the
 *   burst slope at least 3 standard errors from 0 (its own residuals, 18 degrees of freedom): on a
 *   noisy flat series metricR sits at its cap of 10 (analytics.md §2.2), so without the second test
 *   ca_ilr fired on nearly every point of every noisy series (docs/diagnosis.md).
 *
 * - novelty: the series' novelty score (novelty-score.ts: range, dispersion, day and week profile,
 *   context and run experts judged against the series' own past, repeats suppressed) at or above
 *   0.51.
 * Consensus: two or more methods on the same point.
 *
 * The per-point anomaly score in [0, 1] (what `npm run eval:nab` scores) is the novelty score;
 * `methodScores` carries each method's own score (the §5.6 deviations as s / (s + 3), so 3 sigma
 * maps to 0.5) for the per-method columns of the evaluation (docs/nab.md).
 * The value window, the Holt-Winters model and the stable regression line are the series
 * ensemble's own (the same points feed both): the detectors keep only the value window's running
 * sums, the seasonal residuals' block statistics and the 20-point burst line's scalars (its points are
 * the value window's). Built on an ensemble that the owner observes first
 * (`new SeriesDetectors(ensemble)`, as SeriesSet does), or standalone (`new SeriesDetectors()`:
 * it then owns and feeds an ensemble of its own, as the NAB evaluation does).
 * Persistence replays the last 300 points for the §5.6 methods and saves the novelty state whole
 * (its profiles span a week). Non-finite input is ignored.
 */
import { SeriesEnsemble } from '../ensemble/series-ensemble.js';
import { replayPoints } from '../ensemble/replay-points.js';
import {
  BURST_LINE,
  BURST_POINTS,
  DET_SUM,
  DET_SUM_SQ,
  RESIDUAL_POINTS,
  RES_STATS,
  RES_ZERO_RUN,
  STABLE_LINE,
  VALUE_META,
  layoutOf,
  timeElementOf,
  touchValue,
} from '../ensemble/series-memory.js';
import { sortedCount, sortedMedian, sortedMedianAbsDeviation, sortedZeroDeviation } from '../ensemble/sorted-slots.js';
import { atZeroPoint } from '../ensemble/zero-point.js';
import { SEASONAL_RESIDUAL_BLOCKS, errorNextAt, errorPoints, errorPush, errorPushZeros, errorSigma } from '../ensemble/error-slots.js';
import { LINE_POINTS, lineCount, lineFirstX, lineLastX, lineMeanY, lineNextPointAt, linePredict, linePush, lineSlope, lineSlopeStdError } from '../regression/line-slots.js';
import { LineView, slopeRatio, type RegressionLine } from '../regression/sliding-regression.js';
import { allocateNovelty, noveltyExpertScores, noveltyFromJSON, noveltyToJSON, observeNovelty, releaseNovelty, type NoveltyExperts } from './novelty-score.js';

export type AnomalyMethodName = 'zscore' | 'mad' | 'seasonal' | 'ca_ilr' | 'novelty';

export interface Firing {
  method: AnomalyMethodName;
  value: number;
  expected: number;
  score: number;
}

export interface DetectorOutput {
  firings: Firing[];
  consensus: boolean;
  /** anomaly score in [0, 1]: the novelty score */
  score: number;
  /** each method's own score in [0, 1] for this point (0 while it warms up) */
  methodScores: Record<AnomalyMethodName, number>;
}

/** the last point's method scores (analysis is synchronous: one scratch serves every series) */
const LAST_SCORES = new Float64Array(5);
/** detectPoint's seasonal residual as errorPush takes it (one model), one array for every series */
const SEASONAL_RESIDUAL = new Float64Array(1);
const ZSCORE = 0;
const MAD = 1;
const SEASONAL = 2;
const CA_ILR = 3;
const NOVELTY_AT = 4;
const NO_FIRINGS: readonly Firing[] = Object.freeze([]);

const THRESHOLD = 3;
/** the novelty score at which `novelty` fires: the standard profile's corpus threshold (docs/nab.md) */
export const NOVELTY_FIRES_AT = 0.51;
const NOISE_GATE = 0.02;
/** the burst slope's distance from 0, in its standard errors, beyond which ca_ilr may fire (two-sided p ≈ 0.008 at 18 degrees of freedom) */
const BURST_SLOPE_T = 3;

/** the ensemble's value window (zscore, mad, and the novelty score's median once full) */
const VALUE_WINDOW = 300;

/**
 * The novelty chunk of a series scored without the novelty method (SeriesSet's derived series):
 * detectPoint then leaves the novelty score at 0 and `novelty` never fires there.
 */
export const NO_NOVELTY = -1;

/** gives back the novelty chunks of an owner (detectors, a series set) once it is garbage collected */
const noveltyOwners = new FinalizationRegistry<number[]>((ids) => {
  for (const id of ids) if (id !== NO_NOVELTY) releaseNovelty(id);
});

/**
 * Registers `ids`, the novelty chunks `owner` holds (it may replace entries later; NO_NOVELTY
 * entries hold none), to be given back when `owner` is garbage collected.
 */
export function releaseWithOwner(owner: object, ids: number[]): void {
  noveltyOwners.register(owner, ids);
}

/** the 20-point burst line (ca_ilr) of the series whose memory `ensemble` holds, read in place */
export function burstLineOf(ensemble: SeriesEnsemble): RegressionLine {
  return new LineView(ensemble, BURST_LINE, BURST_POINTS);
}

/** metricRatio of the series' burst and stable lines, read in place (no line objects) */
export function seriesMetricRatio(ensemble: SeriesEnsemble, noiseGate: number): number | null {
  const d = ensemble.memory;
  if (lineCount(d, BURST_LINE) !== BURST_POINTS) return null;
  return slopeRatio(lineSlope(d, BURST_LINE), lineLastX(d, BURST_LINE, BURST_POINTS, ensemble.positions) - lineFirstX(d, BURST_LINE, ensemble.positions), lineSlope(d, STABLE_LINE), noiseGate);
}

/**
 * detectPoint's own cache lines of the next point (the burst line's scalars, its next point and
 * that point's time, the next seasonal residual slot), summed: SeriesEnsemble.touchNextPoint's
 * counterpart. Changes nothing.
 */
export function touchDetectorLines(ensemble: SeriesEnsemble): number {
  const d = ensemble.memory;
  const layout = layoutOf(d);
  // the line's scalars may straddle two cache lines: both ends
  const oldest = lineNextPointAt(d, BURST_LINE, BURST_POINTS);
  let sum = (d[BURST_LINE] as number) + (d[BURST_LINE + LINE_POINTS - 1] as number) + touchValue(d, ensemble.positions, layout, oldest);
  // the oldest point's time, which the line's removal reads (not in the WIDE stage, where it is beside its value)
  if (layout.times >= 0) sum += ensemble.positions[timeElementOf(layout, oldest)] as number;
  // the residual blocks exist from the 256-point stage on: the block the next residual goes to
  return layout.room >= 256 ? sum + (d[errorNextAt(d, RES_STATS, layout.residualBlocks, 1, SEASONAL_RESIDUAL_BLOCKS)] as number) : sum;
}

/** the slope of the series' burst line */
/** the burst line's slope standard error (decision/slope-significance.ts), +Infinity under 3 points */
export function seriesBurstSlopeStdError(ensemble: SeriesEnsemble): number {
  return lineSlopeStdError(ensemble.memory, BURST_LINE, BURST_POINTS, ensemble.positions);
}

/** whether the burst window is full (metricR needs 20 points) */
export function seriesBurstFull(ensemble: SeriesEnsemble): boolean {
  return lineCount(ensemble.memory, BURST_LINE) === BURST_POINTS;
}

/** the burst window's mean */
export function seriesBurstMean(ensemble: SeriesEnsemble): number {
  return lineMeanY(ensemble.memory, BURST_LINE);
}

/** the burst line's time span (last x − first x), 0 when empty */
export function seriesBurstSpan(ensemble: SeriesEnsemble): number {
  const d = ensemble.memory;
  return lineCount(d, BURST_LINE) === 0 ? 0 : lineLastX(d, BURST_LINE, BURST_POINTS, ensemble.positions) - lineFirstX(d, BURST_LINE, ensemble.positions);
}

export function seriesBurstSlope(ensemble: SeriesEnsemble): number {
  return lineSlope(ensemble.memory, BURST_LINE);
}

/** the slope of the series' stable line */
export function seriesStableSlope(ensemble: SeriesEnsemble): number {
  return lineSlope(ensemble.memory, STABLE_LINE);
}

export class SeriesDetectors {
  private readonly base: SeriesEnsemble;
  private readonly ownsBase: boolean;
  /** the novelty score's chunk, as the one entry of the array given back when this is collected */
  private readonly novelty: number[];

  /**
   * `ensemble`: the series' ensemble, observed by the owner before each observe here unless `owns`
   * (a standalone detector's own, which each observe here feeds first)
   */
  constructor(ensemble?: SeriesEnsemble, owns = ensemble === undefined) {
    this.base = ensemble ?? new SeriesEnsemble();
    this.ownsBase = owns;
    this.novelty = [allocateNovelty()];
    releaseWithOwner(this, this.novelty);
  }

  /**
   * `xSeconds`: the point's time on the series' own axis (regressions); `atSeconds`: its sample
   * time in epoch seconds (the novelty profiles' time of day and week), `xSeconds` when absent.
   */
  observe(y: number, xSeconds: number, atSeconds = xSeconds): DetectorOutput {
    const firings = this.firingsAt(y, xSeconds, atSeconds);
    const sc = LAST_SCORES;
    const methodScores: Record<AnomalyMethodName, number> = { zscore: sc[ZSCORE] as number, mad: sc[MAD] as number, seasonal: sc[SEASONAL] as number, ca_ilr: sc[CA_ILR] as number, novelty: sc[NOVELTY_AT] as number };
    return { firings: [...firings], consensus: firings.length >= 2, score: methodScores.novelty, methodScores };
  }

  /**
   * What observe does, without building its result: the firings of this point (a shared empty
   * array when none fired; consensus is two or more).
   */
  firingsAt(y: number, xSeconds: number, atSeconds = xSeconds): readonly Firing[] {
    if (this.ownsBase && Number.isFinite(y) && Number.isFinite(xSeconds)) this.base.observe(y, xSeconds);
    return detectPoint(this.base, this.novelty[0] as number, y, xSeconds, atSeconds);
  }

  /** the novelty score's experts at the last point (evaluation) */
  noveltyExperts(): NoveltyExperts {
    return noveltyExpertScores(this.novelty[0] as number);
  }

  /** continues from a saved novelty state (a fresh, warming-up score when it is not one) */
  withNovelty(state: unknown): this {
    const restored = noveltyFromJSON(state);
    releaseNovelty(this.novelty[0] as number);
    this.novelty[0] = restored;
    return this;
  }

  /** the novelty state (the §5.6 methods rebuild from the ensemble's points) */
  noveltyState(): unknown {
    return noveltyToJSON(this.novelty[0] as number);
  }

  /** the last 300 points (those of the ensemble underneath) and the novelty state */
  toJSON(): { points: [number, number][]; novelty: unknown } {
    return { ...this.base.toJSON(), novelty: this.noveltyState() };
  }

  /**
   * A standalone detector rebuilt by replaying the points of `toJSON`; the novelty score then
   * continues from its saved state (the replay does not feed it twice).
   */
  static fromJSON(state: unknown): SeriesDetectors {
    const d = new SeriesDetectors(SeriesEnsemble.forSaved(state), true);
    for (const [x, y] of replayPoints(state)) d.observe(y, x);
    const saved = typeof state === 'object' && state !== null ? (state as { novelty?: unknown }).novelty : undefined;
    return d.withNovelty(saved);
  }
}

/**
 * The §5.6 methods and the novelty score on the point `base` (the series' ensemble) has just
 * observed, the novelty state in chunk `novelty` (NO_NOVELTY: no novelty score, 0): the firings
 * (a shared empty array when none fired, else a fresh array the caller may keep); the method
 * scores are left in LAST_SCORES. Non-finite input: nothing, no firings. The methods read the
 * value as the series keeps it (SeriesEnsemble.storedValue: a float unless it keeps doubles); a
 * firing reports the value as given.
 */
export function detectPoint(base: SeriesEnsemble, novelty: number, given: number, xSeconds: number, atSeconds: number): readonly Firing[] {
  const scores = LAST_SCORES;
  scores[ZSCORE] = 0;
  scores[MAD] = 0;
  scores[SEASONAL] = 0;
  scores[CA_ILR] = 0;
  scores[NOVELTY_AT] = 0;
  if (!Number.isFinite(given) || !Number.isFinite(xSeconds)) return NO_FIRINGS;
  const y = base.storedValue(given);
  // the ensemble's memory after its observe: the value window, Holt-Winters' forecast, the
  // stable line, and the detectors' own sums, residual blocks and burst line
  const d = base.memory;
  const u = base.positions;
  const layout = layoutOf(d);
  let firings: Firing[] | null = null;

  // zscore over the last 300 values including the current one (running sums)
  const evicted = base.lastEvicted;
  let sum = d[DET_SUM] as number;
  let sumSq = d[DET_SUM_SQ] as number;
  if (!Number.isNaN(evicted)) {
    sum -= evicted;
    sumSq -= evicted * evicted;
  }
  sum += y;
  sumSq += y * y;
  d[DET_SUM] = sum;
  d[DET_SUM_SQ] = sumSq;
  const n = sortedCount(d, VALUE_META);
  let median = NaN;
  if (n >= 10) {
    const mu = sum / n;
    const sigma = Math.sqrt(Math.max(0, sumSq / n - mu * mu));
    const z = Math.abs(y - mu) / (sigma + 1e-10);
    if (sigma > 1e-9) scores[ZSCORE] = z;
    if (sigma > 1e-9 && z > THRESHOLD) (firings ??= []).push({ method: 'zscore', value: given, expected: mu, score: (y - mu) / (sigma + 1e-10) });
    // at the zero fixed point every value of the window is +0: so are the median and the deviation
    const atZero = atZeroPoint(d, y);
    const med = atZero ? 0 : sortedMedian(d, VALUE_META, layout.valueRing, u, layout.valueSorted);
    median = med;
    const madSigma = 1.4826 * (atZero ? sortedZeroDeviation(d, VALUE_META) : sortedMedianAbsDeviation(d, VALUE_META, layout.valueRing, u, layout.valueSorted, med));
    if (madSigma >= 1e-10) {
      const m = Math.abs(y - med) / madSigma;
      scores[MAD] = m;
      if (m > THRESHOLD) (firings ??= []).push({ method: 'mad', value: given, expected: med, score: m });
    }
  }

  // seasonal: the Holt-Winters forecast made before this point's update
  if (base.seasonalUsableBefore) {
    const expected = base.seasonalForecastBefore;
    const residual = y - expected;
    // the residuals' block statistics (Welford within a block, Chan across: no running sums to drift)
    const zeroRun = d[RES_ZERO_RUN] as number;
    const zero = Object.is(residual, 0);
    // +0 after RESIDUAL_POINTS residuals of +0: the block in progress holds +0 only (errorPushZeros' condition)
    if (zero && zeroRun >= RESIDUAL_POINTS) errorPushZeros(d, RES_STATS, layout.residualBlocks, 1, SEASONAL_RESIDUAL_BLOCKS);
    else {
      SEASONAL_RESIDUAL[0] = residual;
      errorPush(d, RES_STATS, layout.residualBlocks, 1, SEASONAL_RESIDUAL, SEASONAL_RESIDUAL_BLOCKS);
    }
    d[RES_ZERO_RUN] = zero ? Math.min(RESIDUAL_POINTS, zeroRun + 1) : 0;
    const sigma = zero && zeroRun >= RESIDUAL_POINTS ? 0 : errorSigma(d, RES_STATS, layout.residualBlocks, 1, 0, SEASONAL_RESIDUAL_BLOCKS);
    if (sigma >= 1e-10 && errorPoints(d, RES_STATS) >= 10) {
      const s = Math.abs(residual) / sigma;
      scores[SEASONAL] = s;
      if (s > THRESHOLD) (firings ??= []).push({ method: 'seasonal', value: given, expected, score: s });
    }
  }

  // ca_ilr: metricR of the series (burst 20 here, stable 240 = the ensemble's line)
  linePush(d, BURST_LINE, BURST_POINTS, xSeconds, y, u);
  const r = seriesMetricRatio(base, NOISE_GATE);
  if (r !== null) scores[CA_ILR] = r;
  if (r !== null && r > THRESHOLD && Math.abs(lineSlope(d, BURST_LINE)) > BURST_SLOPE_T * lineSlopeStdError(d, BURST_LINE, BURST_POINTS, u)) {
    (firings ??= []).push({ method: 'ca_ilr', value: r, expected: linePredict(d, STABLE_LINE, xSeconds), score: r });
  }

  // novelty: the median only once the 300-value window is full, as the dispersion expert wants
  const score = novelty === NO_NOVELTY ? 0 : observeNovelty(novelty, y, atSeconds, n >= VALUE_WINDOW ? median : NaN);
  // the four methods' raw scores into [0, 1]: s / (s + 3), 0 for a score that is not positive and finite
  // (a loop, not a helper per method: a call that is not inlined boxes its double argument and result)
  for (let k = ZSCORE; k <= CA_ILR; k += 1) {
    const raw = scores[k] as number;
    scores[k] = raw > 0 && raw < Number.POSITIVE_INFINITY ? raw / (raw + THRESHOLD) : 0;
  }
  scores[NOVELTY_AT] = score;
  if (score >= NOVELTY_FIRES_AT) (firings ??= []).push({ method: 'novelty', value: given, expected: median, score });
  return firings ?? NO_FIRINGS;
}
