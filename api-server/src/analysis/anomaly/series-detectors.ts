/**
 * Anomaly detection on one series (analytics.md §5.6), run on every point:
 * - zscore: ring of the last 300 values incl. the current; fires beyond mu +- 3 sigma; warm-up 10.
 * - mad: median and 1.4826 x MAD of the last 300 incl. the current; fires beyond 3; warm-up 10.
 * - seasonal: Holt-Winters (p = 240) one-step forecast made before the update; sigma of its last
 *   200 residuals incl. the current; fires beyond 3; warm-up one season.
 * - ca_ilr: metricR of the series (burst 20 / stable 240 windows, noise gate) above 3.0.
 * Consensus: two or more methods on the same point.
 *
 * The per-point anomaly score in [0, 1] (what `npm run eval:nab` scores) is s / (s + 3) of the
 * larger of the zscore and seasonal deviations in sigmas, so 3 sigma maps to 0.5. mad and ca_ilr
 * still fire and count for consensus but stay out of the score: on the benchmark their scores
 * saturate on flat stretches and on slow ramps (docs/nab.md).
 * Persistence replays the last 300 points. Non-finite input is ignored.
 */
import { HoltWintersModel } from '../ensemble/models.js';
import { SortedWindow } from '../ensemble/sorted-window.js';
import { replayPoints } from '../ensemble/series-ensemble.js';
import { SlidingRegression, metricRatio } from '../regression/sliding-regression.js';

export type AnomalyMethodName = 'zscore' | 'mad' | 'seasonal' | 'ca_ilr';

export interface Firing {
  method: AnomalyMethodName;
  value: number;
  expected: number;
  score: number;
}

export interface DetectorOutput {
  firings: Firing[];
  consensus: boolean;
  /** anomaly score in [0, 1]: the larger of the zscore and seasonal scores */
  score: number;
  /** each method's own score in [0, 1] for this point (0 while it warms up) */
  methodScores: Record<AnomalyMethodName, number>;
}

const squash = (s: number): number => (Number.isFinite(s) && s > 0 ? s / (s + THRESHOLD) : 0);

const WINDOW = 300;
const THRESHOLD = 3;
const NOISE_GATE = 0.02;

export class SeriesDetectors {
  private readonly values = new SortedWindow(WINDOW);
  private readonly ring = new Float64Array(WINDOW);
  private head = 0;
  private n = 0;
  private sum = 0;
  private sumSq = 0;
  private readonly hw = new HoltWintersModel();
  private readonly residuals = new Float64Array(200);
  private rCount = 0;
  private rSum = 0;
  private rSumSq = 0;
  private readonly burst = new SlidingRegression(20);
  private readonly stable = new SlidingRegression(240);
  private readonly recentX = new Float64Array(WINDOW);
  private readonly recentY = new Float64Array(WINDOW);
  private points = 0;

  observe(y: number, xSeconds: number): DetectorOutput {
    const methodScores: Record<AnomalyMethodName, number> = { zscore: 0, mad: 0, seasonal: 0, ca_ilr: 0 };
    if (!Number.isFinite(y) || !Number.isFinite(xSeconds)) return { firings: [], consensus: false, score: 0, methodScores };
    const firings: Firing[] = [];

    // zscore over the ring including the current value
    if (this.n === WINDOW) {
      const old = this.ring[this.head] as number;
      this.sum -= old;
      this.sumSq -= old * old;
      this.head = (this.head + 1) % WINDOW;
      this.n -= 1;
    }
    this.ring[(this.head + this.n) % WINDOW] = y;
    this.n += 1;
    this.sum += y;
    this.sumSq += y * y;
    this.values.push(y);
    if (this.n >= 10) {
      const mu = this.sum / this.n;
      const sigma = Math.sqrt(Math.max(0, this.sumSq / this.n - mu * mu));
      const z = Math.abs(y - mu) / (sigma + 1e-10);
      if (sigma > 1e-9) methodScores.zscore = squash(z);
      if (sigma > 1e-9 && z > THRESHOLD) firings.push({ method: 'zscore', value: y, expected: mu, score: (y - mu) / (sigma + 1e-10) });
      const med = this.values.median();
      const madSigma = 1.4826 * this.values.medianAbsDeviation(med);
      if (madSigma >= 1e-10) {
        const m = Math.abs(y - med) / madSigma;
        methodScores.mad = squash(m);
        if (m > THRESHOLD) firings.push({ method: 'mad', value: y, expected: med, score: m });
      }
    }

    // seasonal: forecast before the update
    if (this.hw.usable) {
      const expected = this.hw.predict(1);
      const residual = y - expected;
      const slot = this.rCount % 200;
      if (this.rCount >= 200) {
        const old = this.residuals[slot] as number;
        this.rSum -= old;
        this.rSumSq -= old * old;
      }
      this.residuals[slot] = residual;
      this.rSum += residual;
      this.rSumSq += residual * residual;
      this.rCount += 1;
      if (this.rCount % 1000 === 0) this.recomputeResidualSums();
      const sigma = this.residualSigma();
      if (sigma >= 1e-10 && this.rCount >= 10) {
        const s = Math.abs(residual) / sigma;
        methodScores.seasonal = squash(s);
        if (s > THRESHOLD) firings.push({ method: 'seasonal', value: y, expected, score: s });
      }
    }
    this.hw.update(y);

    // ca_ilr: metricR of the series
    this.burst.push(xSeconds, y);
    this.stable.push(xSeconds, y);
    const r = metricRatio(this.burst, this.stable, NOISE_GATE);
    if (r !== null) methodScores.ca_ilr = squash(r);
    if (r !== null && r > THRESHOLD) {
      firings.push({ method: 'ca_ilr', value: r, expected: this.stable.predict(xSeconds), score: r });
    }


    const slot = this.points % WINDOW;
    this.recentX[slot] = xSeconds;
    this.recentY[slot] = y;
    this.points += 1;
    return { firings, consensus: firings.length >= 2, score: Math.max(methodScores.zscore, methodScores.seasonal), methodScores };
  }

  /** sigma of the last 200 residuals, O(1) from running sums (recomputed exactly every 1000) */
  private residualSigma(): number {
    const n = Math.min(200, this.rCount);
    const mean = this.rSum / n;
    return Math.sqrt(Math.max(0, this.rSumSq / n - mean * mean));
  }

  private recomputeResidualSums(): void {
    const n = Math.min(200, this.rCount);
    this.rSum = 0;
    this.rSumSq = 0;
    for (let k = 0; k < n; k += 1) {
      const r = this.residuals[k] as number;
      this.rSum += r;
      this.rSumSq += r * r;
    }
  }

  toJSON(): { points: [number, number][] } {
    const n = Math.min(this.points, WINDOW);
    const points: [number, number][] = [];
    for (let k = this.points - n; k < this.points; k += 1) points.push([this.recentX[k % WINDOW] as number, this.recentY[k % WINDOW] as number]);
    return { points };
  }

  static fromJSON(state: unknown): SeriesDetectors {
    const d = new SeriesDetectors();
    for (const [x, y] of replayPoints(state)) d.observe(y, x);
    return d;
  }
}
