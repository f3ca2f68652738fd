/**
 * The ensemble of one series (analytics.md §5.3-5.5): the five models predict the next point; their
 * one-step errors are kept as sums over blocks of 40 points covering the last hour (201 to 240
 * points, error-slots.ts); after every 4th point (60 s of sample time) the weights are set from
 * the normalised inverse mean absolute errors with a floor of 0.05.
 * Confidence = 1 / (1 + mean MSE over the five models), a model without errors counting as 1.
 *
 * The object holds one Float64Array, the series' memory (series-memory.ts), and a Uint16 view of
 * it (sorted positions, sample times, the values' floats, the season's bfloat16s): the models, their
 * residuals' block sums and weights, and the state of the series' §5.6 detectors (series-detectors.ts), which
 * read the value window, Holt-Winters' forecast made before the update and the stable line there
 * after each observe instead of keeping copies.
 *
 * Its values are kept as floats (the models, detectors and novelty score see y so rounded:
 * storedValue), or as given once they need doubles (value-precision.ts; the WIDE stage).
 * Persistence replays the last 300 points (`toJSON`/`fromJSON`, with whether they are doubles),
 * which rebuilds every window exactly; only Holt-Winters' longer memory is approximated.
 * Non-finite input is ignored.
 */
import { LineView, type LineHost, type RegressionLine } from '../regression/sliding-regression.js';
import { LINE_POINTS, lineNextPointAt } from '../regression/line-slots.js';
import { errorBlockStride, errorNextAt, errorPush, errorPushZeros, errorSigma } from './error-slots.js';
import { confidenceOf, reweigh } from './model-weights.js';
import { atZeroPoint, countZeroRun, zeroPointReached } from './zero-point.js';
import { sortedAt, sortedCount, sortedMiddleAt, sortedNextRingAt } from './sorted-slots.js';
import { replayKeepsDoubles, replayPoints } from './replay-points.js';
import { needsDoubles } from './value-precision.js';
import {
  ariPredict,
  ariUpdate,
  ariUpdateAtZero,
  ariUsable,
  caIlrPredict,
  caIlrSlopePerStep,
  caIlrUpdate,
  caIlrUsable,
  ewmaUpdate,
  ewmaUsable,
  hwPredict,
  hwSeasonNextAt,
  hwUpdate,
  hwUpdateAtZero,
  hwUsable,
  madPredict,
  madUpdate,
  madUsable,
  modelPredict,
  modelUsable,
  ARIMA,
  CA_ILR,
  EWMA,
  HOLT_WINTERS,
  MAD,
} from './models.js';
import {
  ARI_PHI,
  ERROR_STATS,
  EVICTED,
  EWMA_LEVEL,
  LAST_Y,
  MODEL_COUNT,
  ONE_STEP,
  POINTS,
  RES_ZERO_RUN,
  STABLE_LINE,
  STAGE,
  STABLE_POINTS,
  VALUE_META,
  VALUE_POINTS,
  WEIGHTS,
  WIDE,
  ZERO_RUN,
  touchValue,
  widenSeriesMemory,
  growSeriesMemory,
  positionsView,
  layoutOf,
  needsGrowth,
  newSeriesMemory,
  ringTime,
  timeElementOf,
  timeFits,
  loosenTimes,
  type StageLayout,
} from './series-memory.js';

export const MODEL_NAMES = ['ca_ilr', 'arima', 'holt_winters', 'mad', 'ewma'] as const;
export type ModelName = (typeof MODEL_NAMES)[number];
/** observe's residuals (NaN where a model made no forecast), one array for every series */
const RESIDUAL_SCRATCH = new Float64Array(MODEL_COUNT);

const OFFSETS = [1, 5, 10, 30, 60, 120, 360];

export interface ForecastOutput {
  current: number;
  trend: 'rising' | 'falling' | 'stable';
  warmingUp: boolean;
  confidence: number;
  models: { name: string; weight: number; mean: number }[];
  points: { offsetMinutes: number; mean: number; lower80: number; upper80: number; lower95: number; upper95: number }[];
}

export interface EnsembleState {
  points: [number, number][];
  /** the series keeps its values as doubles (its memory is at the WIDE stage); absent: as floats */
  doubles?: true;
}

export class SeriesEnsemble implements LineHost {
  /** everything of the series, the detectors' part included (series-memory.ts) */
  private d: Float64Array;
  /**
   * the same memory as 16-bit integers: the value window's sorted positions (sorted-slots.ts),
   * its sample times and its floats (two halves each), and Holt-Winters' season (bfloat16s)
   */
  private u: Uint16Array;

  /** `stage`: the memory stage to start at (series-memory.ts STAGES, or WIDE; 0, the smallest, by default) */
  constructor(stage = 0) {
    this.d = newSeriesMemory(stage);
    this.u = positionsView(this.d);
  }

  /** an empty ensemble to replay a saved one's points into: at the WIDE stage when it kept doubles */
  static forSaved(state: unknown): SeriesEnsemble {
    return new SeriesEnsemble(replayKeepsDoubles(state) ? WIDE : 0);
  }

  /** the value kept for y, which the detectors read after observe(y): y rounded to a float, or y at the WIDE stage */
  storedValue(y: number): number {
    return (this.d[STAGE] as number) === WIDE ? y : Math.fround(y);
  }

  /** the series' memory (replaced by a larger one as its windows grow) */
  get memory(): Float64Array {
    return this.d;
  }

  /**
   * the series' memory as 16-bit integers (replaced with it): where the value window's sorted
   * positions are, and its sample times (16- or 32-bit offsets: series-memory.ts)
   */
  get positions(): Uint16Array {
    return this.u;
  }

  /** Returns the one-step ensemble prediction made before seeing `y` (null if none), then learns `y`. */
  observe(y: number, xSeconds: number): number | null {
    if (!Number.isFinite(y) || !Number.isFinite(xSeconds)) return null;
    if (needsGrowth(this.d)) this.replaceMemory(growSeriesMemory(this.d));
    // a time the offsets cannot hold (series-memory.ts): 32-bit offsets, or the times as doubles
    while (!timeFits(this.d, this.u, xSeconds)) this.replaceMemory(loosenTimes(this.d, this.u));
    // the value as the series keeps it: a float, unless it must keep doubles from now on (value-precision.ts)
    const given = y;
    if ((this.d[STAGE] as number) !== WIDE) {
      if (needsDoubles(this.d, y)) this.replaceMemory(widenSeriesMemory(this.d, this.u));
      else y = Math.fround(y);
    }
    const d = this.d;
    const layout = layoutOf(d);
    const u = this.u;
    if (atZeroPoint(d, y)) return observeAtZero(d, u, layout, xSeconds);
    // every usable model's one-step forecast, made once before learning y (written out: no
    // dispatch on the model per point)
    d[ONE_STEP + CA_ILR] = caIlrUsable(d) ? caIlrPredict(d, 1) : Number.NaN;
    d[ONE_STEP + ARIMA] = ariUsable(d) ? ariPredict(d, u, layout, 1) : Number.NaN;
    d[ONE_STEP + HOLT_WINTERS] = hwUsable(d) ? hwPredict(d, u, layout, 1) : Number.NaN;
    d[ONE_STEP + MAD] = madUsable(d) ? madPredict(d, u, layout) : Number.NaN;
    d[ONE_STEP + EWMA] = ewmaUsable(d) ? (d[EWMA_LEVEL] as number) : Number.NaN;
    const points = (d[POINTS] as number) | 0;
    let prediction: number | null = null;
    if (points > 0) {
      prediction = combineOneStep(d);
      const residuals = RESIDUAL_SCRATCH;
      for (let m = 0; m < MODEL_COUNT; m += 1) residuals[m] = y - (d[ONE_STEP + m] as number);
      errorPush(d, ERROR_STATS, layout.errorBlocks, MODEL_COUNT, residuals);
    }
    // the value window first: the stable line's points are its (time, value) points, and the line
    // writes this point's time in the times' ring (series-memory.ts)
    d[EVICTED] = madUpdate(d, u, layout, y);
    caIlrUpdate(d, u, y, xSeconds);
    ariUpdate(d, u, layout, y);
    hwUpdate(d, u, layout, y);
    ewmaUpdate(d, y);
    d[LAST_Y] = given;
    d[POINTS] = points + 1;
    if ((points + 1) % 4 === 0) reweigh(d, layout.errorBlocks);
    countZeroRun(d, u, layout, y);
    return prediction;
  }

  private replaceMemory(d: Float64Array): void {
    this.d = d;
    this.u = positionsView(d);
  }

  /**
   * Forgets the derived runs of the zero fixed point (zero-point.ts), so that the next points take
   * the full update until the runs build up again. Changes no output: the tests compare a series
   * forgetting them before every point with one that does not.
   */
  forgetZeroRuns(): void {
    this.d[ZERO_RUN] = 0;
    this.d[RES_ZERO_RUN] = 0;
  }

  /**
   * Reads one value from each cache line the next observe reads first and returns their sum: the
   * scalars, the residual block, the stable line's scalars and next point (its oldest once full)
   * with that point's time, the value window's next slot and its time's (ARI's differences are the
   * values before it) and middle, the next season and residual slots (at the zero fixed point only
   * the lines a next +0 reads: zero-point.ts). An owner about
   * to observe many series touches them all first, so that their memory reads overlap instead of
   * waiting one after another (group prefetching, docs/performance.md); the sum only keeps the
   * reads from being optimised away.
   * Changes nothing; 0 when the next observe grows the memory.
   */
  touchNextPoint(): number {
    const d = this.d;
    if (needsGrowth(d)) return 0;
    const layout = layoutOf(d);
    let sum = 0;
    // the scalars and the residuals' statistics, through ARI's coefficients
    for (let i = 0; i < ARI_PHI + 3; i += 8) sum += d[i] as number;
    // the line's scalars may straddle two cache lines: both ends
    const oldest = lineNextPointAt(d, STABLE_LINE, STABLE_POINTS);
    sum += (d[STABLE_LINE] as number) + (d[STABLE_LINE + LINE_POINTS - 1] as number) + touchValue(d, this.u, layout, oldest);
    // the next value (its time beside it in the WIDE stage)
    const next = sortedNextRingAt(d, VALUE_META, layout.valueRing, VALUE_POINTS, layout.valueStride);
    sum += touchValue(d, this.u, layout, next);
    // their times' slots: the next point's and the stable line's oldest, which its removal reads (not in the WIDE stage)
    if (layout.times >= 0) sum += (this.u[timeElementOf(layout, next)] as number) + (this.u[timeElementOf(layout, oldest)] as number);
    // the residual block the next point writes (its counts at the zero fixed point): 128 bytes, up to three lines
    const block = errorNextAt(d, ERROR_STATS, layout.errorBlocks, MODEL_COUNT);
    const blockEnd = block + errorBlockStride(MODEL_COUNT) - 1;
    for (let i = block; i < blockEnd; i += 8) sum += d[i] as number;
    sum += d[blockEnd] as number;
    // at the zero fixed point a next +0 reads none of the rest (zero-point.ts)
    if (zeroPointReached(d)) return sum;
    // the middle rank's position, then the value it names
    sum += touchValue(d, this.u, layout, layout.valueRing + (this.u[sortedMiddleAt(d, VALUE_META, layout.valueSorted)] as number));
    sum += this.u[hwSeasonNextAt(d, layout)] as number;
    return sum;
  }

  // The parts the series' detectors read after each observe (they live in the same memory).
  /** the value the last observe pushed out of the value window, NaN when none */
  get lastEvicted(): number {
    return this.d[EVICTED] as number;
  }
  /** whether Holt-Winters could forecast before the last observe, and that one-step forecast */
  get seasonalUsableBefore(): boolean {
    return !Number.isNaN(this.d[ONE_STEP + HOLT_WINTERS] as number);
  }
  get seasonalForecastBefore(): number {
    const p = this.d[ONE_STEP + HOLT_WINTERS] as number;
    return Number.isNaN(p) ? 0 : p;
  }
  /** the 240-point regression line of ca_ilr (the stable window), read in place */
  get stableLine(): RegressionLine {
    return new LineView(this, STABLE_LINE, STABLE_POINTS);
  }

  weights(): Record<ModelName, number> {
    const out = {} as Record<ModelName, number>;
    MODEL_NAMES.forEach((name, m) => {
      out[name] = this.d[WEIGHTS + m] as number;
    });
    return out;
  }

  modelPredictions(steps: number): Record<ModelName, number | null> {
    const d = this.d;
    const layout = layoutOf(d);
    const out = {} as Record<ModelName, number | null>;
    MODEL_NAMES.forEach((name, m) => {
      out[name] = modelUsable(d, m) ? modelPredict(d, this.u, layout, m, steps) : null;
    });
    return out;
  }

  /** Weighted prediction `steps` ahead over the usable models (weights renormalised over them). */
  predict(steps: number): number {
    const d = this.d;
    const layout = layoutOf(d);
    let s = 0;
    let wsum = 0;
    for (let m = 0; m < MODEL_COUNT; m += 1) {
      const w = d[WEIGHTS + m] as number;
      if (!modelUsable(d, m) || w === 0) continue;
      s += w * modelPredict(d, this.u, layout, m, steps);
      wsum += w;
    }
    const lastY = d[LAST_Y] as number;
    if (wsum === 0) return ewmaUsable(d) ? (d[EWMA_LEVEL] as number) : lastY;
    const p = s / wsum;
    return Number.isFinite(p) ? p : lastY;
  }

  confidence(): number {
    return confidenceOf(this.d, layoutOf(this.d).errorBlocks);
  }

  forecast(horizonMinutes: number): ForecastOutput {
    const d = this.d;
    const layout = layoutOf(d);
    const offsets = [...OFFSETS.filter((o) => o < horizonMinutes), horizonMinutes];
    // each model's residual sigma over its 5 newest blocks (the last 161-200 points), computed once for every offset
    const sigmas = MODEL_NAMES.map((_, m) => errorSigma(d, ERROR_STATS, layout.errorBlocks, MODEL_COUNT, m));
    const points = offsets.map((offsetMinutes) => {
      const steps = offsetMinutes * 4;
      const mean = this.predict(steps);
      let pooled = 0;
      for (let m = 0; m < MODEL_COUNT; m += 1) {
        const sigma = (sigmas[m] as number) * Math.sqrt(steps / 4 + 1);
        pooled += (d[WEIGHTS + m] as number) * sigma * sigma;
      }
      const sigma = Math.sqrt(pooled);
      return {
        offsetMinutes,
        mean,
        lower80: mean - 1.2816 * sigma,
        upper80: mean + 1.2816 * sigma,
        lower95: mean - 1.96 * sigma,
        upper95: mean + 1.96 * sigma,
      };
    });
    const slope = caIlrSlopePerStep(d);
    const lastY = d[LAST_Y] as number;
    return {
      current: lastY,
      trend: slope > 0.001 ? 'rising' : slope < -0.001 ? 'falling' : 'stable',
      warmingUp: !hwUsable(d),
      confidence: this.confidence(),
      models: MODEL_NAMES.map((name, m) => ({ name, weight: d[WEIGHTS + m] as number, mean: modelUsable(d, m) ? modelPredict(d, this.u, layout, m, horizonMinutes * 4) : lastY })),
      points,
    };
  }

  /** the last 300 points: times from the times' ring (written by the stable line), values from the value window (the same points) */
  toJSON(): EnsembleState {
    const d = this.d;
    const layout = layoutOf(d);
    const n = sortedCount(d, VALUE_META);
    const total = d[POINTS] as number;
    const points: [number, number][] = [];
    for (let k = 0; k < n; k += 1) {
      points.push([ringTime(d, this.u, (total - n + k) % VALUE_POINTS), sortedAt(d, VALUE_META, layout.valueRing, this.u, VALUE_POINTS, k, layout.valueStride)]);
    }
    return (d[STAGE] as number) === WIDE ? { points, doubles: true } : { points };
  }

  static fromJSON(state: unknown): SeriesEnsemble {
    const e = SeriesEnsemble.forSaved(state);
    for (const [x, y] of replayPoints(state)) e.observe(y, x);
    return e;
  }
}

/**
 * observe of y = +0 at the zero fixed point (zero-point.ts): the five forecasts are +0 again (the
 * stored ones stay), every residual is +0 over +0, ARI's difference and the season's value too, and
 * the EWMA level stays +0; the stable line (its sample times move), the value window (its times),
 * the counters and the reweighing are updated as observe does.
 */
function observeAtZero(d: Float64Array, u: Uint16Array, layout: StageLayout, xSeconds: number): number {
  const points = (d[POINTS] as number) | 0;
  const prediction = combineOneStep(d);
  errorPushZeros(d, ERROR_STATS, layout.errorBlocks, MODEL_COUNT);
  // the value window before the stable line, as in observe
  d[EVICTED] = madUpdate(d, u, layout, 0);
  caIlrUpdate(d, u, 0, xSeconds);
  ariUpdateAtZero(d);
  hwUpdateAtZero(d);
  // the same closing bookkeeping as observe, written out: as a shared helper it made the in-cache
  // tick 1-8 % slower in four of four alternating runs (V8's inlining of observe changed)
  d[LAST_Y] = 0;
  d[POINTS] = points + 1;
  if ((points + 1) % 4 === 0) reweigh(d, layout.errorBlocks);
  return prediction;
}

/** predict(1) from the forecasts observe just made (same terms in the same order) */
function combineOneStep(d: Float64Array): number {
  let s = 0;
  let wsum = 0;
  for (let m = 0; m < MODEL_COUNT; m += 1) {
    const w = d[WEIGHTS + m] as number;
    const p = d[ONE_STEP + m] as number;
    if (Number.isNaN(p) || w === 0) continue;
    s += w * p;
    wsum += w;
  }
  const lastY = d[LAST_Y] as number;
  if (wsum === 0) return Number.isNaN(d[ONE_STEP + EWMA] as number) ? lastY : (d[ONE_STEP + EWMA] as number);
  const p = s / wsum;
  return Number.isFinite(p) ? p : lastY;
}
