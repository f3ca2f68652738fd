/**
 * Anomaly detection on one series (analytics.md §5.6), run on every point:
 * - zscore: ring of the last 300 values incl. the current; fires beyond mu +- 3 sigma; warm-up 10.
 * - mad: median and 1.4826 x MAD of the last 300 incl. the current; fires beyond 3; warm-up 10.
 * - seasonal: Holt-Winters (p = 240) one-step forecast made before the update; sigma of its last
 *   200 residuals incl. the current; fires beyond 3; warm-up one season.
 * - ca_ilr: metricR of the series (burst 20 / stable 240 windows, noise gate) above 3.0.
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
 * ensemble's own (the same points feed both): the detectors keep only their running sums, the
 * residual ring and the 20-point burst line. Built on an ensemble that the owner observes first
 * (`new SeriesDetectors(ensemble)`, as SeriesSet does), or standalone (`new SeriesDetectors()`:
 * it then owns and feeds an ensemble of its own, as the NAB evaluation does).
 * Persistence replays the last 300 points for the §5.6 methods and saves the novelty state whole
 * (its profiles span a week). Non-finite input is ignored.
 */
import { SeriesEnsemble, replayPoints } from '../ensemble/series-ensemble.js';
import { SlidingRegression, metricRatio } from '../regression/sliding-regression.js';
import { NoveltyScore } from './novelty-score.js';

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
const ZSCORE = 0;
const MAD = 1;
const SEASONAL = 2;
const CA_ILR = 3;
const NOVELTY_AT = 4;
const NO_FIRINGS: readonly Firing[] = Object.freeze([]);

const squash = (s: number): number => (Number.isFinite(s) && s > 0 ? s / (s + THRESHOLD) : 0);

const THRESHOLD = 3;
/** the novelty score at which `novelty` fires: the standard profile's corpus threshold (docs/nab.md) */
export const NOVELTY_FIRES_AT = 0.51;
const NOISE_GATE = 0.02;
/** the ensemble's value window (zscore, mad, and the novelty score's median once full) */
const VALUE_WINDOW = 300;

export class SeriesDetectors {
  private readonly base: SeriesEnsemble;
  private readonly ownsBase: boolean;
  private sum = 0;
  private sumSq = 0;
  private readonly residuals = new Float64Array(200);
  private rCount = 0;
  private rSum = 0;
  private rSumSq = 0;
  private readonly burst = new SlidingRegression(20);
  private novelty: NoveltyScore;

  /** `ensemble`: the series' ensemble, observed by the owner before each observe here */
  /** `ensemble`: the series' ensemble, observed by the owner before each observe here */
  constructor(ensemble?: SeriesEnsemble) {
    this.base = ensemble ?? new SeriesEnsemble();
    this.ownsBase = ensemble === undefined;
    this.novelty = new NoveltyScore();
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
   * array when none fired; consensus is two or more). The service's hot path (SeriesSet).
   */
  firingsAt(y: number, xSeconds: number, atSeconds = xSeconds): readonly Firing[] {
    const scores = LAST_SCORES;
    scores.fill(0);
    if (!Number.isFinite(y) || !Number.isFinite(xSeconds)) return NO_FIRINGS;
    if (this.ownsBase) this.base.observe(y, xSeconds);
    let firings: Firing[] | null = null;
    const values = this.base.valueWindow;

    // zscore over the last 300 values including the current one (running sums)
    const evicted = this.base.lastEvicted;
    if (!Number.isNaN(evicted)) {
      this.sum -= evicted;
      this.sumSq -= evicted * evicted;
    }
    this.sum += y;
    this.sumSq += y * y;
    const n = values.count;
    let median = NaN;
    if (n >= 10) {
      const mu = this.sum / n;
      const sigma = Math.sqrt(Math.max(0, this.sumSq / n - mu * mu));
      const z = Math.abs(y - mu) / (sigma + 1e-10);
      if (sigma > 1e-9) scores[ZSCORE] = squash(z);
      if (sigma > 1e-9 && z > THRESHOLD) (firings ??= []).push({ method: 'zscore', value: y, expected: mu, score: (y - mu) / (sigma + 1e-10) });
      const med = values.median();
      median = med;
      const madSigma = 1.4826 * values.medianAbsDeviation(med);
      if (madSigma >= 1e-10) {
        const m = Math.abs(y - med) / madSigma;
        scores[MAD] = squash(m);
        if (m > THRESHOLD) (firings ??= []).push({ method: 'mad', value: y, expected: med, score: m });
      }
    }

    // seasonal: the Holt-Winters forecast made before this point's update
    if (this.base.seasonalUsableBefore) {
      const expected = this.base.seasonalForecastBefore;
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
        scores[SEASONAL] = squash(s);
        if (s > THRESHOLD) (firings ??= []).push({ method: 'seasonal', value: y, expected, score: s });
      }
    }

    // ca_ilr: metricR of the series (burst 20 here, stable 240 = the ensemble's line)
    this.burst.push(xSeconds, y);
    const stable = this.base.stableLine;
    const r = metricRatio(this.burst, stable, NOISE_GATE);
    if (r !== null) scores[CA_ILR] = squash(r);
    if (r !== null && r > THRESHOLD) {
      (firings ??= []).push({ method: 'ca_ilr', value: r, expected: stable.predict(xSeconds), score: r });
    }

    // novelty: the median only once the 300-value window is full, as the dispersion expert wants
    const novelty = this.novelty.observe(y, atSeconds, n >= VALUE_WINDOW ? median : NaN);
    scores[NOVELTY_AT] = novelty;
    if (novelty >= NOVELTY_FIRES_AT) (firings ??= []).push({ method: 'novelty', value: y, expected: median, score: novelty });
    return firings ?? NO_FIRINGS;
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

  /** the 20-point burst line (ca_ilr), pushed by observe */
  get burstLine(): SlidingRegression {
    return this.burst;
  }

  /** the novelty score's experts at the last point (evaluation) */
  noveltyExperts(): ReturnType<NoveltyScore['expertScores']> {
    return this.novelty.expertScores();
  }

  /** continues from a saved novelty state (a fresh, warming-up score when it is not one) */
  withNovelty(state: unknown): this {
    this.novelty = NoveltyScore.fromJSON(state);
    return this;
  }

  /** the novelty state (the §5.6 methods rebuild from the ensemble's points) */
  noveltyState(): unknown {
    return this.novelty.toJSON();
  }

  /** the last 300 points (those of the ensemble underneath) and the novelty state */
  toJSON(): { points: [number, number][]; novelty: unknown } {
    return { ...this.base.toJSON(), novelty: this.novelty.toJSON() };
  }

  /**
   * A standalone detector rebuilt by replaying the points of `toJSON`; the novelty score then
   * continues from its saved state (the replay does not feed it twice).
   */
  static fromJSON(state: unknown): SeriesDetectors {
    const d = new SeriesDetectors();
    for (const [x, y] of replayPoints(state)) d.observe(y, x);
    const saved = typeof state === 'object' && state !== null ? (state as { novelty?: unknown }).novelty : undefined;
    return d.withNovelty(saved);
  }
}
