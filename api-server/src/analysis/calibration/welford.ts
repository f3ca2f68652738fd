/**
 * Cumulative Welford mean/variance per signal (analytics.md §6), packed in one Float64Array of
 * (n, mean, M2) triples for compact per-pod state. Non-finite observations are skipped.
 */
export const BASELINE_SIGNALS = ['stress', 'fatigue', 'mood_penalty', 'pressure', 'humidity', 'contagion', 'throughput_drop', 'health_raw'] as const;
export type BaselineSignal = (typeof BASELINE_SIGNALS)[number];
export const BASELINE_INDEX: Record<BaselineSignal, number> = Object.fromEntries(BASELINE_SIGNALS.map((s, i) => [s, i])) as Record<
  BaselineSignal,
  number
>;

export class WelfordSet {
  readonly data: Float64Array;

  constructor(size: number, data?: ArrayLike<number>) {
    this.data = new Float64Array(size * 3);
    if (data !== undefined && data.length === size * 3) {
      for (let i = 0; i < data.length; i++) this.data[i] = Number.isFinite(data[i]!) ? data[i]! : 0;
    }
  }

  update(i: number, x: number): void {
    if (!Number.isFinite(x)) return;
    const o = i * 3;
    const n = this.data[o]! + 1;
    const delta = x - this.data[o + 1]!;
    const mean = this.data[o + 1]! + delta / n;
    this.data[o] = n;
    this.data[o + 1] = mean;
    this.data[o + 2] = this.data[o + 2]! + delta * (x - mean);
  }

  count(i: number): number {
    return this.data[i * 3]!;
  }

  mean(i: number): number {
    return this.data[i * 3 + 1]!;
  }

  /** sample standard deviation √(M2/(n−1)); 0 when n < 2 */
  std(i: number): number {
    const n = this.data[i * 3]!;
    return n < 2 ? 0 : Math.sqrt(Math.max(0, this.data[i * 3 + 2]!) / (n - 1));
  }

  /** adaptive score a = clamp(z/3), z = (x − mean)/σ, σ = 0.05 when σ < 1e-6 (§6) */
  adaptiveScore(i: number, x: number): number {
    let sigma = this.std(i);
    if (!(sigma >= 1e-6)) sigma = 0.05;
    const z = (x - this.mean(i)) / sigma;
    const a = z / 3;
    return Number.isFinite(a) ? (a < 0 ? 0 : a > 1 ? 1 : a) : 0;
  }
}
