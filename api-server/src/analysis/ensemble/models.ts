/**
 * The five streaming forecasters of analytics.md §5.2. Each sees one point per analysis step
 * (x in seconds, y the value) and predicts y `h` steps (15 s each) ahead. Non-finite input is
 * ignored by the owner (SeriesEnsemble) before it reaches a model.
 */
import { SlidingRegression } from '../regression/sliding-regression.js';
import { SortedWindow } from './sorted-window.js';
import { grownArray, grownCapacity } from '../windows/grown-capacity.js';

export const STEP_SECONDS = 15;

/** ca_ilr: the stable-window regression line (240 points), usable after 3 points. */
export class CaIlrModel {
  readonly line = new SlidingRegression(240);
  private x = 0;
  update(y: number, x: number): void {
    this.x = x;
    this.line.push(x, y);
  }
  get usable(): boolean {
    return this.line.count >= 3;
  }
  predict(h: number): number {
    return this.line.predict(this.x + STEP_SECONDS * h);
  }
  /** slope per step */
  slopePerStep(): number {
    return this.line.slope() * STEP_SECONDS;
  }
}

const DIFFS = 64;
/** fit's scratch (synchronous, so one set serves every series): autocorrelations, coefficients */
const RHO = new Float64Array(4);
const PHI = new Float64Array(3);
const PHI_PREVIOUS = new Float64Array(3);

/**
 * arima: ARI(3,1) with Yule-Walker (Levinson-Durbin) over the last 64 differences, refitted every
 * 10 points. The differences and the three coefficients share one Float64Array.
 */
export class AriModel {
  /** [0, 64): ring of differences; [64, 67): phi */
  private readonly diffs = new Float64Array(DIFFS + 3);
  private dHead = 0;
  private dCount = 0;
  private last = NaN;
  private sinceFit = 0;

  /** the AR coefficients of the differences */
  get phi(): [number, number, number] {
    return [this.diffs[DIFFS] as number, this.diffs[DIFFS + 1] as number, this.diffs[DIFFS + 2] as number];
  }

  update(y: number): void {
    if (!Number.isNaN(this.last)) {
      let slot = this.dHead + this.dCount;
      if (slot >= DIFFS) slot -= DIFFS;
      this.diffs[slot] = y - this.last;
      if (this.dCount < DIFFS) this.dCount += 1;
      else this.dHead = this.dHead + 1 === DIFFS ? 0 : this.dHead + 1;
      this.sinceFit += 1;
      if (this.dCount >= 8 && (this.sinceFit >= 10 || this.dCount === 8)) {
        this.fit();
        this.sinceFit = 0;
      }
    }
    this.last = y;
  }
  get usable(): boolean {
    return this.dCount >= 10;
  }
  private diff(k: number): number {
    const i = this.dHead + k;
    return this.diffs[i >= DIFFS ? i - DIFFS : i] as number;
  }
  private fit(): void {
    const n = this.dCount;
    for (let lag = 0; lag <= 3; lag += 1) {
      let s = 0;
      for (let i = lag; i < n; i += 1) s += this.diff(i) * this.diff(i - lag);
      RHO[lag] = s / n;
    }
    const r0 = RHO[0] as number;
    if (Math.abs(r0) < 1e-12) return;
    for (let lag = 0; lag <= 3; lag += 1) RHO[lag] = (RHO[lag] as number) / r0;
    if (!levinsonDurbinInto(RHO, 3, PHI, PHI_PREVIOUS)) return;
    if (Math.abs(PHI[0] as number) + Math.abs(PHI[1] as number) + Math.abs(PHI[2] as number) < 1) this.diffs.set(PHI, DIFFS);
  }
  predict(h: number): number {
    const steps = Math.min(Math.max(1, h), 20);
    let r0 = this.dCount > 0 ? this.diff(this.dCount - 1) : 0;
    let r1 = this.dCount > 1 ? this.diff(this.dCount - 2) : 0;
    let r2 = this.dCount > 2 ? this.diff(this.dCount - 3) : 0;
    const p0 = this.diffs[DIFFS] as number;
    const p1 = this.diffs[DIFFS + 1] as number;
    const p2 = this.diffs[DIFFS + 2] as number;
    let y = this.last;
    for (let s = 0; s < steps; s += 1) {
      const d = p0 * r0 + p1 * r1 + p2 * r2;
      y += d;
      r2 = r1;
      r1 = r0;
      r0 = d;
    }
    return y;
  }
}

/** Levinson-Durbin recursion on autocorrelations rho[0..p] (rho[0] = 1); undefined when unstable. */
export function levinsonDurbin(rho: number[], p: number): number[] | undefined {
  const phi = new Float64Array(p);
  return levinsonDurbinInto(Float64Array.from(rho), p, phi, new Float64Array(p)) ? Array.from(phi) : undefined;
}

/**
 * levinsonDurbin without allocation: the coefficients go to `phi` (length >= p), `previous` is
 * scratch of the same length; false when the recursion is unstable or not finite.
 */
function levinsonDurbinInto(rho: Float64Array, p: number, phi: Float64Array, previous: Float64Array): boolean {
  let err = rho[0] as number;
  for (let k = 1; k <= p; k += 1) {
    let acc = rho[k] as number;
    for (let j = 1; j < k; j += 1) acc -= (phi[j - 1] as number) * (rho[k - j] as number);
    if (Math.abs(err) < 1e-12) return false;
    const kappa = acc / err;
    for (let j = 0; j < k - 1; j += 1) previous[j] = phi[j] as number;
    for (let j = 1; j < k; j += 1) phi[j - 1] = (previous[j - 1] as number) - kappa * (previous[k - j - 1] as number);
    phi[k - 1] = kappa;
    err *= 1 - kappa * kappa;
  }
  for (let j = 0; j < p; j += 1) if (!Number.isFinite(phi[j] as number)) return false;
  return true;
}

/** the damped trend's multiplier after h steps: phi (1 - phi^h) / (1 - phi), phi = 0.98 */
const dampAfter = (h: number): number => (0.98 * (1 - 0.98 ** h)) / (1 - 0.98);
const DAMP_ONE_STEP = dampAfter(1);

/**
 * holt_winters: damped additive, alpha 0.3, beta 0.05, gamma 0.2, phi 0.98, season 240. The
 * season's storage grows with the first season's points (grownCapacity).
 */
export class HoltWintersModel {
  static readonly PERIOD = 240;
  private season = new Float64Array(grownCapacity(0, HoltWintersModel.PERIOD));
  private n = 0;
  private level = 0;
  private trend = 0;
  private last = 0;
  private bufferSum = 0;

  update(y: number): void {
    const p = HoltWintersModel.PERIOD;
    this.n += 1;
    this.last = y;
    if (this.n <= p) {
      if (this.n > this.season.length) this.season = grownArray(this.season, p);
      this.season[this.n - 1] = y;
      this.bufferSum += y;
      if (this.n === p) {
        this.level = this.bufferSum / p;
        this.trend = 0;
        for (let i = 0; i < p; i += 1) this.season[i] = (this.season[i] as number) - this.level;
      }
      return;
    }
    const i = (this.n - 1) % p;
    const s = this.season[i] as number;
    const levelNew = 0.3 * (y - s) + 0.7 * (this.level + 0.98 * this.trend);
    this.trend = 0.05 * (levelNew - this.level) + 0.95 * 0.98 * this.trend;
    this.season[i] = 0.2 * (y - levelNew) + 0.8 * s;
    this.level = levelNew;
  }
  get usable(): boolean {
    return this.n > HoltWintersModel.PERIOD;
  }
  predict(h: number): number {
    if (!this.usable) return this.last;
    const damp = h === 1 ? DAMP_ONE_STEP : dampAfter(h);
    return this.level + this.trend * damp + (this.season[(this.n + h - 1) % HoltWintersModel.PERIOD] as number);
  }
  toJSON(): { n: number; level: number; trend: number; last: number; bufferSum: number; season: number[] } {
    return { n: this.n, level: this.level, trend: this.trend, last: this.last, bufferSum: this.bufferSum, season: Array.from(this.season) };
  }
  static fromJSON(s: { n: number; level: number; trend: number; last: number; bufferSum: number; season: number[] }): HoltWintersModel {
    const m = new HoltWintersModel();
    m.n = s.n;
    m.level = s.level;
    m.trend = s.trend;
    m.last = s.last;
    m.bufferSum = s.bufferSum;
    m.season = new Float64Array(HoltWintersModel.PERIOD);
    m.season.set(s.season.slice(0, HoltWintersModel.PERIOD));
    return m;
  }
}

/** mad: the median of the last 300 values, flat; usable after 10 values. */
export class MedianModel {
  readonly window = new SortedWindow(300);
  /** returns the value that left the window (NaN when none did) */
  update(y: number): number {
    return this.window.push(y);
  }
  get usable(): boolean {
    return this.window.count >= 10;
  }
  predict(): number {
    return this.window.median();
  }
}

/** ewma: level <- 0.1 y + 0.9 level (first value starts it), flat. */
export class EwmaModel {
  level = NaN;
  update(y: number): void {
    this.level = Number.isNaN(this.level) ? y : 0.1 * y + 0.9 * this.level;
  }
  get usable(): boolean {
    return !Number.isNaN(this.level);
  }
  predict(): number {
    return this.level;
  }
}
