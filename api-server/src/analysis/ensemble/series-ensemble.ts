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

export const MODEL_NAMES = ['ca_ilr', 'arima', 'holt_winters', 'mad', 'ewma'] as const;
export type ModelName = (typeof MODEL_NAMES)[number];
const HW_INDEX = MODEL_NAMES.indexOf('holt_winters');
const EWMA_INDEX = MODEL_NAMES.indexOf('ewma');
/** reweigh's scratch (synchronous, so one array serves every series) */
const INVERSE_SCRATCH: number[] = [0, 0, 0, 0, 0];

const ERROR_RING = 240;
const SIGMA_WINDOW = 200;
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

/**
 * One model's signed one-step residuals over the last hour (240 points) with running sums, so the
 * MAE, MSE and the sigma of the last 200 are O(1) to read; the sums are recomputed exactly every
 * 1000 pushes to bound drift.
 */
class ErrorRing {
  readonly residuals = new Float64Array(ERROR_RING);
  head = 0;
  count = 0;
  private sumAbs = 0;
  private sumSq = 0;
  private sum200 = 0;
  private sumSq200 = 0;
  private pushes = 0;

  push(e: number): void {
    if (this.count === ERROR_RING) {
      const old = this.residuals[this.head] as number;
      this.sumAbs -= Math.abs(old);
      this.sumSq -= old * old;
      this.head = (this.head + 1) % ERROR_RING;
      this.count -= 1;
    }
    if (this.count >= SIGMA_WINDOW) {
      const leaving = this.at(this.count - SIGMA_WINDOW);
      this.sum200 -= leaving;
      this.sumSq200 -= leaving * leaving;
    }
    this.residuals[(this.head + this.count) % ERROR_RING] = e;
    this.count += 1;
    this.sumAbs += Math.abs(e);
    this.sumSq += e * e;
    this.sum200 += e;
    this.sumSq200 += e * e;
    this.pushes += 1;
    if (this.pushes % 1000 === 0) this.recompute();
  }
  at(k: number): number {
    return this.residuals[(this.head + k) % ERROR_RING] as number;
  }
  mae(): number {
    return Math.max(0, this.sumAbs) / this.count;
  }
  mse(): number {
    return Math.max(0, this.sumSq) / this.count;
  }
  /** population standard deviation of the last 200 residuals */
  sigma(): number {
    const n = Math.min(SIGMA_WINDOW, this.count);
    if (n < 2) return 0;
    const mean = this.sum200 / n;
    return Math.sqrt(Math.max(0, this.sumSq200 / n - mean * mean));
  }
  toJSON(): number[] {
    const out: number[] = [];
    for (let k = 0; k < this.count; k += 1) out.push(this.at(k));
    return out;
  }
  private recompute(): void {
    this.sumAbs = this.sumSq = this.sum200 = this.sumSq200 = 0;
    for (let k = 0; k < this.count; k += 1) {
      const e = this.at(k);
      this.sumAbs += Math.abs(e);
      this.sumSq += e * e;
      if (k >= this.count - SIGMA_WINDOW) {
        this.sum200 += e;
        this.sumSq200 += e * e;
      }
    }
  }
}

export class SeriesEnsemble {
  private readonly caIlr = new CaIlrModel();
  private readonly arima = new AriModel();
  private readonly hw = new HoltWintersModel();
  private readonly mad = new MedianModel();
  private readonly ewma = new EwmaModel();
  private readonly errors: Record<ModelName, ErrorRing> = {
    ca_ilr: new ErrorRing(),
    arima: new ErrorRing(),
    holt_winters: new ErrorRing(),
    mad: new ErrorRing(),
    ewma: new ErrorRing(),
  };
  /** the weights, updated in place by reweigh (weights() hands out a copy) */
  private readonly w: Record<ModelName, number> = { ca_ilr: 1, arima: 0, holt_winters: 0, mad: 0, ewma: 0 };
  private points = 0;
  private readonly recentX = new Float64Array(REPLAY_POINTS);
  private readonly recentY = new Float64Array(REPLAY_POINTS);
  private lastY = 0;
  /** what the last observe left for the detectors (see sharedForDetectors) */
  private evicted = Number.NaN;
  private hwUsableBefore = false;
  /** each model's one-step forecast made by the last observe, NaN when the model was not usable */
  private readonly oneStep: number[] = [0, 0, 0, 0, 0];
  private hwPredictionBefore = 0;

  private usable(m: ModelName): boolean {
    switch (m) {
      case 'ca_ilr':
        return this.caIlr.usable;
      case 'arima':
        return this.arima.usable;
      case 'holt_winters':
        return this.hw.usable;
      case 'mad':
        return this.mad.usable;
      case 'ewma':
        return this.ewma.usable;
    }
  }

  private modelPredict(m: ModelName, h: number): number {
    switch (m) {
      case 'ca_ilr':
        return this.caIlr.predict(h);
      case 'arima':
        return this.arima.predict(h);
      case 'holt_winters':
        return this.hw.predict(h);
      case 'mad':
        return this.mad.predict();
      case 'ewma':
        return this.ewma.predict();
    }
  }

  /** Returns the one-step ensemble prediction made before seeing `y` (null if none), then learns `y`. */
  observe(y: number, xSeconds: number): number | null {
    if (!Number.isFinite(y) || !Number.isFinite(xSeconds)) return null;
    // every usable model's one-step forecast, made once before learning y
    for (let i = 0; i < MODEL_NAMES.length; i += 1) {
      const m = MODEL_NAMES[i] as ModelName;
      this.oneStep[i] = this.usable(m) ? this.modelPredict(m, 1) : Number.NaN;
    }
    this.hwUsableBefore = !Number.isNaN(this.oneStep[HW_INDEX] as number);
    this.hwPredictionBefore = this.hwUsableBefore ? (this.oneStep[HW_INDEX] as number) : 0;
    let prediction: number | null = null;
    if (this.points > 0) {
      prediction = this.combineOneStep();
      for (let i = 0; i < MODEL_NAMES.length; i += 1) {
        const p = this.oneStep[i] as number;
        if (!Number.isNaN(p)) this.errors[MODEL_NAMES[i] as ModelName].push(y - p);
      }
    }
    this.caIlr.update(y, xSeconds);
    this.arima.update(y);
    this.hw.update(y);
    this.evicted = this.mad.update(y);
    this.ewma.update(y);
    const slot = this.points % REPLAY_POINTS;
    this.recentX[slot] = xSeconds;
    this.recentY[slot] = y;
    this.lastY = y;
    this.points += 1;
    if (this.points % 4 === 0) this.reweigh();
    return prediction;
  }

  /** predict(1) from the forecasts observe just made (same terms in the same order) */
  private combineOneStep(): number {
    let s = 0;
    let wsum = 0;
    for (let i = 0; i < MODEL_NAMES.length; i += 1) {
      const w = this.w[MODEL_NAMES[i] as ModelName];
      const p = this.oneStep[i] as number;
      if (Number.isNaN(p) || w === 0) continue;
      s += w * p;
      wsum += w;
    }
    if (wsum === 0) return Number.isNaN(this.oneStep[EWMA_INDEX] as number) ? this.lastY : (this.oneStep[EWMA_INDEX] as number);
    const p = s / wsum;
    return Number.isFinite(p) ? p : this.lastY;
  }

  private reweigh(): void {
    const inv = INVERSE_SCRATCH;
    let total = 0;
    for (let i = 0; i < MODEL_NAMES.length; i += 1) {
      const errors = this.errors[MODEL_NAMES[i] as ModelName];
      inv[i] = errors.count < 5 ? Number.NaN : 1 / Math.max(errors.mae(), 1e-9);
      if (!Number.isNaN(inv[i] as number)) total += inv[i] as number;
    }
    const w = this.w;
    if (total === 0) {
      w.ca_ilr = 1;
      w.arima = w.holt_winters = w.mad = w.ewma = 0;
      return;
    }
    let sum = 0;
    for (let i = 0; i < MODEL_NAMES.length; i += 1) {
      const m = MODEL_NAMES[i] as ModelName;
      const v = inv[i] as number;
      w[m] = Number.isNaN(v) ? 0 : Math.max(v / total, WEIGHT_FLOOR);
      sum += w[m];
    }
    for (const m of MODEL_NAMES) w[m] /= sum;
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
    return this.hwUsableBefore;
  }
  get seasonalForecastBefore(): number {
    return this.hwPredictionBefore;
  }
  /** the 240-point regression line of ca_ilr (the stable window) */
  get stableLine(): SlidingRegression {
    return this.caIlr.line;
  }

  weights(): Record<ModelName, number> {
    return { ...this.w };
  }

  modelPredictions(steps: number): Record<ModelName, number | null> {
    const out = {} as Record<ModelName, number | null>;
    for (const m of MODEL_NAMES) out[m] = this.usable(m) ? this.modelPredict(m, steps) : null;
    return out;
  }

  /** Weighted prediction `steps` ahead over the usable models (weights renormalised over them). */
  predict(steps: number): number {
    let s = 0;
    let wsum = 0;
    for (const m of MODEL_NAMES) {
      if (!this.usable(m) || this.w[m] === 0) continue;
      s += this.w[m] * this.modelPredict(m, steps);
      wsum += this.w[m];
    }
    if (wsum === 0) return this.usable('ewma') ? this.ewma.predict() : this.lastY;
    const p = s / wsum;
    return Number.isFinite(p) ? p : this.lastY;
  }

  confidence(): number {
    let total = 0;
    for (const m of MODEL_NAMES) total += this.errors[m].count === 0 ? 1 : this.errors[m].mse();
    const c = 1 / (1 + total / MODEL_NAMES.length);
    return Number.isFinite(c) ? c : 0;
  }

  forecast(horizonMinutes: number): ForecastOutput {
    const offsets = [...OFFSETS.filter((o) => o < horizonMinutes), horizonMinutes];
    const points = offsets.map((offsetMinutes) => {
      const steps = offsetMinutes * 4;
      const mean = this.predict(steps);
      let pooled = 0;
      for (const m of MODEL_NAMES) {
        const sigma = this.errors[m].sigma() * Math.sqrt(steps / 4 + 1);
        pooled += this.w[m] * sigma * sigma;
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
      models: MODEL_NAMES.map((name) => ({ name, weight: this.w[name], mean: this.usable(name) ? this.modelPredict(name, horizonMinutes * 4) : this.lastY })),
      points,
    };
  }

  toJSON(): EnsembleState {
    const n = Math.min(this.points, REPLAY_POINTS);
    const points: [number, number][] = [];
    for (let k = this.points - n; k < this.points; k += 1) points.push([this.recentX[k % REPLAY_POINTS] as number, this.recentY[k % REPLAY_POINTS] as number]);
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
