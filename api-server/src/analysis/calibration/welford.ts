/**
 * Cumulative Welford mean/variance per signal (analytics.md §6), packed in one Float64Array of
 * (n, mean, M2) triples for compact per-pod state (the set's own array, or a range of its
 * owner's array). Non-finite observations are skipped.
 */
export const BASELINE_SIGNALS = ['stress', 'fatigue', 'mood_penalty', 'pressure', 'humidity', 'contagion', 'throughput_drop', 'health_raw'] as const;
export type BaselineSignal = (typeof BASELINE_SIGNALS)[number];
export const BASELINE_INDEX: Record<BaselineSignal, number> = Object.fromEntries(BASELINE_SIGNALS.map((s, i) => [s, i])) as Record<
  BaselineSignal,
  number
>;

export class WelfordSet {
  /** the triples are data[at, at + 3·size) */
  readonly data: Float64Array;
  readonly at: number;

  /**
   * `shared` and `at`: keep the triples in shared[at, at + 3·size) (zeros, part of the owner's
   * array) instead of an array of their own
   */
  constructor(
    readonly size: number,
    data?: ArrayLike<number>,
    shared?: Float64Array,
    at = 0,
  ) {
    const own = shared === undefined || at < 0 || at + size * 3 > shared.length;
    this.data = own ? new Float64Array(size * 3) : shared;
    this.at = own ? 0 : at;
    if (data !== undefined) this.load(data);
  }

  /** the triples as a plain array (state export) */
  toArray(): number[] {
    return Array.from(this.data.subarray(this.at, this.at + this.size * 3));
  }

  /** sets the triples from `data` (3·size values; non-finite ones read as 0); ignored at another length */
  load(data: ArrayLike<number>): void {
    if (data.length !== this.size * 3) return;
    for (let i = 0; i < data.length; i++) this.data[this.at + i] = Number.isFinite(data[i]!) ? data[i]! : 0;
  }

  update(i: number, x: number): void {
    if (!Number.isFinite(x)) return;
    const o = this.at + i * 3;
    const n = this.data[o]! + 1;
    const delta = x - this.data[o + 1]!;
    const mean = this.data[o + 1]! + delta / n;
    this.data[o] = n;
    this.data[o + 1] = mean;
    this.data[o + 2] = this.data[o + 2]! + delta * (x - mean);
  }

  count(i: number): number {
    return this.data[this.at + i * 3]!;
  }

  mean(i: number): number {
    return this.data[this.at + i * 3 + 1]!;
  }

  /** sample standard deviation √(M2/(n−1)); 0 when n < 2 */
  std(i: number): number {
    const o = this.at + i * 3;
    const n = this.data[o]!;
    return n < 2 ? 0 : Math.sqrt(Math.max(0, this.data[o + 2]!) / (n - 1));
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
