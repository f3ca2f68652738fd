/**
 * The ensemble of one series (analytics.md §5.3-5.5): the five models predict the next point; their
 * one-step errors fill a ring of 240 (one hour); after every 4th point (60 s of sample time) the
 * weights are set from the normalised inverse mean absolute errors with a floor of 0.05.
 * Confidence = 1 / (1 + mean MSE over the five models), a model without errors counting as 1.
 *
 * Persistence replays the last 300 points (`toJSON`/`fromJSON`), which rebuilds every window
 * exactly; only Holt-Winters' longer memory is approximated. Non-finite input is ignored.
 *
 * The series' anomaly detectors read three of its parts instead of keeping copies (analytics.md
 * §5.6 runs them on the same points): the sorted window of the last 300 values (MAD model), the
 * Holt-Winters model (its one-step forecast made before the update) and the 240-point regression
 * line (ca_ilr), exposed by the getters below after each observe.
 */
import type { SlidingRegression } from '../regression/sliding-regression.js';
import { AriModel, CaIlrModel, EwmaModel, HoltWintersModel, MedianModel } from './models.js';
import type { SortedWindow } from './sorted-window.js';
import { ModelErrors } from './model-errors.js';
import { grownArray, grownCapacity } from '../windows/grown-capacity.js';

export const MODEL_NAMES = ['ca_ilr', 'arima', 'holt_winters', 'mad', 'ewma'] as const;
export type ModelName = (typeof MODEL_NAMES)[number];
const MODEL_COUNT = MODEL_NAMES.length;
/** where the one-step forecasts start in the model state (after the weights) */
const ONE_STEP = MODEL_COUNT;
const CA_ILR = 0;
const ARIMA = 1;
const HOLT_WINTERS = 2;
const MAD = 3;
const EWMA = 4;
/** reweigh's scratch (synchronous, so one array serves every series) */
const INVERSE_SCRATCH = new Float64Array(MODEL_COUNT);
/** observe's residuals (NaN where a model made no forecast), one array for every series */
const RESIDUAL_SCRATCH = new Float64Array(MODEL_COUNT);

const REPLAY_POINTS = 300;
const WEIGHT_FLOOR = 0.05;
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
}

export class SeriesEnsemble {
  private readonly caIlr = new CaIlrModel();
  private readonly arima = new AriModel();
  private readonly hw = new HoltWintersModel();
  private readonly mad = new MedianModel();
  private readonly ewma = new EwmaModel();
  /** one-step residuals of each model, indexed as MODEL_NAMES */
  private readonly errors = new ModelErrors(MODEL_COUNT);
  /** model state: [0, 5): the weights, indexed as MODEL_NAMES, updated in place by reweigh (weights() hands
   * out a copy); [5, 10): each model's one-step forecast made by the last observe, NaN when the
   * model was not usable. One array for both: one allocation per series. */
  private readonly ms = Float64Array.of(1, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  private points = 0;
  /** sample times of the last 300 points (their values are the mad window's), for persistence */
  private recentX: Float64Array;
  private lastY = 0;
  /** what the last observe left for the detectors (see the getters below) */
  private evicted = Number.NaN;

  constructor() {
    this.recentX = new Float64Array(grownCapacity(0, REPLAY_POINTS));
  }

  private usable(m: number): boolean {
    switch (m) {
      case CA_ILR:
        return this.caIlr.usable;
      case ARIMA:
        return this.arima.usable;
      case HOLT_WINTERS:
        return this.hw.usable;
      case MAD:
        return this.mad.usable;
      default:
        return this.ewma.usable;
    }
  }

  private modelPredict(m: number, h: number): number {
    switch (m) {
      case CA_ILR:
        return this.caIlr.predict(h);
      case ARIMA:
        return this.arima.predict(h);
      case HOLT_WINTERS:
        return this.hw.predict(h);
      case MAD:
        return this.mad.predict();
      default:
        return this.ewma.predict();
    }
  }

  /** Returns the one-step ensemble prediction made before seeing `y` (null if none), then learns `y`. */
  observe(y: number, xSeconds: number): number | null {
    if (!Number.isFinite(y) || !Number.isFinite(xSeconds)) return null;
    // every usable model's one-step forecast, made once before learning y
    const ms = this.ms;
    for (let m = 0; m < MODEL_COUNT; m += 1) ms[ONE_STEP + m] = this.usable(m) ? this.modelPredict(m, 1) : Number.NaN;
    let prediction: number | null = null;
    if (this.points > 0) {
      prediction = this.combineOneStep();
      const residuals = RESIDUAL_SCRATCH;
      for (let m = 0; m < MODEL_COUNT; m += 1) residuals[m] = y - (ms[ONE_STEP + m] as number);
      this.errors.push(residuals);
    }
    this.caIlr.update(y, xSeconds);
    this.arima.update(y);
    this.hw.update(y);
    this.evicted = this.mad.update(y);
    this.ewma.update(y);
    const slot = this.points % REPLAY_POINTS;
    if (slot >= this.recentX.length) this.recentX = grownArray(this.recentX, REPLAY_POINTS);
    this.recentX[slot] = xSeconds;
    this.lastY = y;
    this.points += 1;
    if (this.points % 4 === 0) this.reweigh();
    return prediction;
  }

  /** predict(1) from the forecasts observe just made (same terms in the same order) */
  private combineOneStep(): number {
    let s = 0;
    let wsum = 0;
    for (let m = 0; m < MODEL_COUNT; m += 1) {
      const w = this.ms[m] as number;
      const p = this.ms[ONE_STEP + m] as number;
      if (Number.isNaN(p) || w === 0) continue;
      s += w * p;
      wsum += w;
    }
    if (wsum === 0) return Number.isNaN(this.ms[ONE_STEP + EWMA] as number) ? this.lastY : (this.ms[ONE_STEP + EWMA] as number);
    const p = s / wsum;
    return Number.isFinite(p) ? p : this.lastY;
  }

  private reweigh(): void {
    const inv = INVERSE_SCRATCH;
    let total = 0;
    for (let m = 0; m < MODEL_COUNT; m += 1) {
      inv[m] = this.errors.count(m) < 5 ? Number.NaN : 1 / Math.max(this.errors.mae(m), 1e-9);
      if (!Number.isNaN(inv[m] as number)) total += inv[m] as number;
    }
    const w = this.ms;
    if (total === 0) {
      w.fill(0, 0, MODEL_COUNT);
      w[CA_ILR] = 1;
      return;
    }
    let sum = 0;
    for (let m = 0; m < MODEL_COUNT; m += 1) {
      const v = inv[m] as number;
      w[m] = Number.isNaN(v) ? 0 : Math.max(v / total, WEIGHT_FLOOR);
      sum += w[m] as number;
    }
    for (let m = 0; m < MODEL_COUNT; m += 1) w[m] = (w[m] as number) / sum;
  }

  // The parts the series' detectors read after each observe (no copies of the windows).
  /** the last 300 values, sorted (the MAD model's window) */
  get valueWindow(): SortedWindow {
    return this.mad.window;
  }
  /** the value the last observe pushed out of valueWindow, NaN when none */
  get lastEvicted(): number {
    return this.evicted;
  }
  /** whether Holt-Winters could forecast before the last observe, and that one-step forecast */
  get seasonalUsableBefore(): boolean {
    return !Number.isNaN(this.ms[ONE_STEP + HOLT_WINTERS] as number);
  }
  get seasonalForecastBefore(): number {
    const p = this.ms[ONE_STEP + HOLT_WINTERS] as number;
    return Number.isNaN(p) ? 0 : p;
  }
  /** the 240-point regression line of ca_ilr (the stable window) */
  get stableLine(): SlidingRegression {
    return this.caIlr.line;
  }

  weights(): Record<ModelName, number> {
    const out = {} as Record<ModelName, number>;
    MODEL_NAMES.forEach((name, m) => {
      out[name] = this.ms[m] as number;
    });
    return out;
  }

  modelPredictions(steps: number): Record<ModelName, number | null> {
    const out = {} as Record<ModelName, number | null>;
    MODEL_NAMES.forEach((name, m) => {
      out[name] = this.usable(m) ? this.modelPredict(m, steps) : null;
    });
    return out;
  }

  /** Weighted prediction `steps` ahead over the usable models (weights renormalised over them). */
  predict(steps: number): number {
    let s = 0;
    let wsum = 0;
    for (let m = 0; m < MODEL_COUNT; m += 1) {
      const w = this.ms[m] as number;
      if (!this.usable(m) || w === 0) continue;
      s += w * this.modelPredict(m, steps);
      wsum += w;
    }
    if (wsum === 0) return this.usable(EWMA) ? this.ewma.predict() : this.lastY;
    const p = s / wsum;
    return Number.isFinite(p) ? p : this.lastY;
  }

  confidence(): number {
    let total = 0;
    for (let m = 0; m < MODEL_COUNT; m += 1) total += this.errors.count(m) === 0 ? 1 : this.errors.mse(m);
    const c = 1 / (1 + total / MODEL_COUNT);
    return Number.isFinite(c) ? c : 0;
  }

  forecast(horizonMinutes: number): ForecastOutput {
    const offsets = [...OFFSETS.filter((o) => o < horizonMinutes), horizonMinutes];
    const points = offsets.map((offsetMinutes) => {
      const steps = offsetMinutes * 4;
      const mean = this.predict(steps);
      let pooled = 0;
      for (let m = 0; m < MODEL_COUNT; m += 1) {
        const sigma = this.errors.sigma(m) * Math.sqrt(steps / 4 + 1);
        pooled += (this.ms[m] as number) * sigma * sigma;
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
    const slope = this.caIlr.slopePerStep();
    return {
      current: this.lastY,
      trend: slope > 0.001 ? 'rising' : slope < -0.001 ? 'falling' : 'stable',
      warmingUp: !this.hw.usable,
      confidence: this.confidence(),
      models: MODEL_NAMES.map((name, m) => ({ name, weight: this.ms[m] as number, mean: this.usable(m) ? this.modelPredict(m, horizonMinutes * 4) : this.lastY })),
      points,
    };
  }

  /** the last 300 points: times from recentX, values from the mad window (the same points) */
  toJSON(): EnsembleState {
    const window = this.mad.window;
    const n = window.count;
    const points: [number, number][] = [];
    for (let k = 0; k < n; k += 1) points.push([this.recentX[(this.points - n + k) % REPLAY_POINTS] as number, window.at(k)]);
    return { points };
  }

  static fromJSON(state: unknown): SeriesEnsemble {
    const e = new SeriesEnsemble();
    for (const [x, y] of replayPoints(state)) e.observe(y, x);
    return e;
  }
}

/** Validates a persisted `{points: [[x, y], ...]}`; anything else restores nothing. */
export function replayPoints(state: unknown): [number, number][] {
  if (typeof state !== 'object' || state === null || !Array.isArray((state as { points?: unknown }).points)) return [];
  return ((state as { points: unknown[] }).points).filter(
    (p): p is [number, number] => Array.isArray(p) && p.length === 2 && Number.isFinite(p[0]) && Number.isFinite(p[1]),
  );
}
