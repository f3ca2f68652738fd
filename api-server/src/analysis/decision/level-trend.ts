/**
 * Level and trend of one metricR input against the workload's own baseline
 * (docs/adr/0011-alert-decision-layer.md, rule 7): what finds a slow failure whose 5-minute change
 * is never material (a leak, an error rate creeping, a latency burn, CPU climbing under load).
 *
 * Every 5 minutes the input's 5-minute mean is kept in a ring of the last `slots` (60 minutes).
 * - Baseline: a slow mean and spread of those 5-minute means (half-life `baselineHalfLife` slots),
 *   learnt only while the workload is normal (frozen during an episode) and the input is not
 *   climbing away from it (above its band with a line of t ≥ `tLearn`); a level that moved and
 *   stays (a deploy) is learnt once its line is flat again.
 * - Trend: the least-squares line through the ring, counted only when its t statistic against its
 *   own residuals is ≥ `tMin`. A level step (a deploy) or a pulse (a batch burst) fits a line
 *   badly: a noise-free step over 12 points has r² ≤ 0.75, so t ≤ 5.5; a ramp has t far above.
 * - Verdict: warning when the line rises significantly, the level has left the baseline by a
 *   material amount, and the line reaches the input's limit (memory/CPU: `saturation`; latency and
 *   error rate: a multiple of the baseline) within `warnWithinMin`; critical within `critWithinMin`
 *   or when the limit is already reached while still rising. By default both are 45 minutes: a
 *   climb announces critical directly (a warning first made warning → critical → emergency, three
 *   band changes in a leak's episode). A verdict stays while the level is away from the baseline
 *   (it does not fall back when the line is briefly not significant), and becomes critical when the
 *   level reaches the limit (pinned at saturation).
 */
import { z } from 'zod';

/** memory/CPU: towards `saturation`; latency: towards a multiple of its baseline; error rate: the same, at least `errorRise` above it */
export type LimitKind = 'saturation' | 'latency' | 'errors';

export interface TrendConfig {
  slotMs: number;
  slots: number;
  tMin: number;
  /** a level above the baseline's band stops the learning once its line has t ≥ tLearn */
  tLearn: number;
  baselineHalfLife: number;
  /** 5-minute means learnt before the baseline is used */
  minLearnt: number;
  saturation: number;
  /** latency/error-rate limit: `multiple` × baseline (error rate: at least baseline + `errorRise`) */
  multiple: number;
  errorRise: number;
  /** a departure must be ≥ max(spreads × spread, material) */
  spreads: number;
  warnWithinMin: number;
  critWithinMin: number;
}

export const DEFAULT_TREND: TrendConfig = {
  slotMs: 5 * 60_000,
  slots: 12,
  tMin: 8,
  tLearn: 3,
  baselineHalfLife: 24,
  minLearnt: 12,
  saturation: 0.95,
  multiple: 3,
  errorRise: 0.03,
  spreads: 3,
  warnWithinMin: 45,
  critWithinMin: 45,
};

export const levelTrendSchema = z.object({
  ring: z.array(z.number()),
  slot: z.number().int().nullable(),
  mean: z.number(),
  variance: z.number().min(0),
  learnt: z.number().int().min(0),
  /** the verdict: 0 none, 1 warning, 2 critical */
  rank: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  /** above the baseline's band with a line of t ≥ tLearn at the last slot */
  climbing: z.boolean(),
});
export type LevelTrendState = z.infer<typeof levelTrendSchema>;

/** 0 none, 1 warning, 2 critical */
export type TrendRank = 0 | 1 | 2;

export interface LineFit {
  /** per slot */
  slope: number;
  t: number;
  /** the line's value at the last slot */
  end: number;
}

/** least-squares line through y at x = 0..n-1, its slope's t against the residuals (n ≥ 3) */
export function fitLine(y: readonly number[]): LineFit {
  const n = y.length;
  const xm = (n - 1) / 2;
  let ym = 0;
  for (const v of y) ym += v;
  ym /= n;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (i - xm) ** 2;
    sxy += (i - xm) * (y[i]! - ym);
  }
  const slope = sxy / sxx;
  let sse = 0;
  for (let i = 0; i < n; i++) sse += (y[i]! - (ym + slope * (i - xm))) ** 2;
  const se = Math.sqrt(sse / (n - 2) / sxx);
  const t = se > 0 ? slope / se : slope > 0 ? Number.POSITIVE_INFINITY : slope < 0 ? Number.NEGATIVE_INFINITY : 0;
  return { slope, t, end: ym + slope * (n - 1 - xm) };
}

export class LevelTrend {
  // LevelTrendState's fields on the trend itself (not an object of their own: one read less a step)
  private ring: number[] = [];
  private slot: number | null = null;
  private mean = 0;
  private variance = 0;
  private learnt = 0;
  private rank: TrendRank = 0;
  private climbing = false;

  constructor(
    private readonly limit: LimitKind,
    private readonly config: TrendConfig = DEFAULT_TREND,
  ) {}

  /** the last verdict */
  get verdict(): TrendRank {
    return this.rank;
  }

  /** an episode must not recover while this holds: a verdict, or a climb away from the baseline */
  get holding(): boolean {
    return this.rank > 0 || this.climbing;
  }

  /** the learnt baseline of the 5-minute means (null until `minLearnt` of them were learnt) */
  get baseline(): { mean: number; spread: number } | null {
    if (this.learnt < this.config.minLearnt) return null;
    return { mean: this.mean, spread: Math.sqrt(this.variance) };
  }

  /** the baseline getter's values written into `out` (no object per read); false, `out` untouched, while it is null */
  baselineInto(out: { mean: number; spread: number }): boolean {
    if (this.learnt < this.config.minLearnt) return false;
    out.mean = this.mean;
    out.spread = Math.sqrt(this.variance);
    return true;
  }

  /**
   * the input's 5-minute mean at `timeMs`; judged once per slot. `learn`: the workload is normal
   * (the baseline learns only then, and only while the input is not climbing away from it)
   */
  observe(level: number, timeMs: number, learn: boolean): TrendRank {
    const c = this.config;
    const slot = Math.floor(timeMs / c.slotMs);
    if (this.slot === slot) return this.rank;
    // a gap of more than one slot: the line starts again
    if (this.slot !== null && slot - this.slot > 1) this.ring = [];
    this.slot = slot;
    this.ring.push(level);
    if (this.ring.length > c.slots) this.ring.shift();
    this.climbing = this.climbingAt(level);
    this.rank = this.judge(level);
    if (learn && this.rank === 0 && !this.climbing) this.learn(level);
    return this.rank;
  }

  /** above the baseline's band and rising (t ≥ `tLearn`): a climb the baseline must not follow */
  private climbingAt(level: number): boolean {
    if (this.learnt < this.config.minLearnt || this.ring.length < 3) return false;
    return level - this.mean > this.config.spreads * Math.sqrt(this.variance) && fitLine(this.ring).t >= this.config.tLearn;
  }

  private learn(level: number): void {
    const a = 1 - 0.5 ** (1 / this.config.baselineHalfLife);
    if (this.learnt === 0) this.mean = level;
    const d = level - this.mean;
    this.mean += a * d;
    this.variance = (1 - a) * (this.variance + a * d * d);
    this.learnt += 1;
  }

  private judge(level: number): TrendRank {
    const c = this.config;
    if (this.learnt < c.minLearnt) return 0;
    const { material, target } = this.limits(this.mean);
    if (level - this.mean < Math.max(c.spreads * Math.sqrt(this.variance), material)) return 0;
    // away from the baseline: a verdict stays, and is critical once the level is at the limit
    const kept: TrendRank = this.rank > 0 && level >= target ? 2 : this.rank;
    if (this.ring.length < c.slots) return kept;
    const line = fitLine(this.ring);
    if (!(line.t >= c.tMin) || line.slope <= 0) return kept;
    const now = Math.max(level, line.end);
    const minutes = now >= target ? 0 : ((target - now) / line.slope) * (c.slotMs / 60_000);
    const rank: TrendRank = minutes <= c.critWithinMin ? 2 : minutes <= c.warnWithinMin ? 1 : 0;
    return rank > kept ? rank : kept;
  }

  /** the departure that counts and the limit the line is projected to, from the baseline */
  private limits(base: number): { material: number; target: number } {
    const c = this.config;
    if (this.limit === 'saturation') return { material: 0.05, target: c.saturation };
    if (this.limit === 'latency') return { material: 0.5 * Math.abs(base), target: c.multiple * base };
    return { material: Math.max(0.5 * base, c.errorRise / 3), target: Math.max(c.multiple * base, base + c.errorRise) };
  }

  toJSON(): LevelTrendState {
    return { ring: [...this.ring], slot: this.slot, mean: this.mean, variance: this.variance, learnt: this.learnt, rank: this.rank, climbing: this.climbing };
  }

  static fromJSON(state: LevelTrendState, limit: LimitKind, config: TrendConfig = DEFAULT_TREND): LevelTrend {
    const t = new LevelTrend(limit, config);
    t.ring = state.ring.slice(-config.slots);
    t.slot = state.slot;
    t.mean = state.mean;
    t.variance = state.variance;
    t.learnt = state.learnt;
    t.rank = state.rank;
    t.climbing = state.climbing;
    return t;
  }
}
