/**
 * A fast climb of a resource towards its ceiling (docs/adr/0011-alert-decision-layer.md, rule 9):
 * what the level-trend rule (rule 7) finds too late when the climb is short. Rule 7 counts a line
 * only through an hour of 5-minute means; CPU driven to saturation by growing load in half an hour
 * reaches its ceiling before that hour is there.
 *
 * Every step the input's 5-minute mean is kept with its time. The rule reads five of them, `lagMs`
 * apart (now, 5, 10, 15 and 20 minutes ago: five disjoint 5-minute windows covering 25 minutes),
 * and gives a critical verdict when all of these hold:
 * - each of the four is above the one before by at least max(`minRise`, the baseline's spread), and
 *   the largest rise is at most `evenness` times the smallest: a steady climb, not a step. A step
 *   (a batch burst, a deploy) moves a 5-minute mean for only 5 minutes, so at most two of the four
 *   rises carry it and the others are noise, far smaller;
 * - the level is above the learnt baseline (rule 7's slow mean and spread of the 5-minute means) by
 *   at least max(`spreads` × spread, `material`): outside everything the workload did before;
 * - the least-squares line through the five reaches `ceiling` within `withinMin` minutes.
 * Nothing is judged before a baseline is learnt or while one of the five means is missing (a gap).
 * Judged for CPU only: a garbage-collected memory climbs in a line between collections by nature
 * (memory leaks are rule 7's).
 */
import { z } from 'zod';
import type { Baseline } from './level-departure.js';
import { fitLine } from './level-trend.js';
import { TimedLevels } from './timed-levels.js';

export interface ClimbConfig {
  /** how many 5-minute means are read */
  means: number;
  /** the time between the 5-minute means read */
  lagMs: number;
  /** a mean is taken for a time when it was kept within this of it */
  toleranceMs: number;
  minRise: number;
  /** the largest rise is at most this many times the smallest: a line, not a step plus noise */
  evenness: number;
  spreads: number;
  material: number;
  ceiling: number;
  withinMin: number;
}

export const DEFAULT_CLIMB: ClimbConfig = {
  means: 5,
  lagMs: 5 * 60_000,
  toleranceMs: 7_500,
  minRise: 0.02,
  evenness: 3,
  spreads: 3,
  material: 0.05,
  ceiling: 0.95,
  withinMin: 30,
};

export const saturationClimbSchema = z.object({ points: z.array(z.tuple([z.number(), z.number()])) });
export type SaturationClimbState = z.infer<typeof saturationClimbSchema>;

/**
 * The pairs a climb holds at steps of `stepMs`: those within (means − 1) × lagMs + tolerance of the
 * newest, and the one just pushed before the oldest is dropped (82 at the default 15-s step). A
 * queue grown from 16 by doubling would take 128 (2 KB; 1.3 KB at this size, docs/memory.md).
 */
export function climbPairsAt(config: ClimbConfig, stepMs: number): number {
  return Math.floor(((config.means - 1) * config.lagMs + config.toleranceMs) / stepMs) + 2;
}

/** the analysis' step (AnalysisConfig.bucketMs's default): a faster one grows the queue as needed */
const CLIMB_STEP_MS = 15_000;

/** judge's five means, oldest first (synchronous, so one array serves every climb) */
const MEANS: number[] = [];

export class SaturationClimb {
  /** (timeMs, 5-minute mean) pairs, oldest first, the last (means − 1) × lagMs (+ tolerance) */
  private readonly points: TimedLevels;
  private last = false;

  constructor(private readonly config: ClimbConfig = DEFAULT_CLIMB) {
    this.points = new TimedLevels(climbPairsAt(config, CLIMB_STEP_MS));
  }

  /** the last verdict (critical) */
  get verdict(): boolean {
    return this.last;
  }

  /** the input's 5-minute mean at `timeMs` against the learnt baseline (null: not learnt yet); returns the verdict */
  observe(level: number, timeMs: number, baseline: Baseline | null): boolean {
    const c = this.config;
    this.points.push(timeMs, level);
    this.points.dropBefore(timeMs - (c.means - 1) * c.lagMs - c.toleranceMs);
    this.last = baseline !== null && this.judge(timeMs, baseline);
    return this.last;
  }

  /** ends the climb (the input has no level this step) */
  reset(): void {
    this.last = false;
  }

  private judge(timeMs: number, b: Baseline): boolean {
    const c = this.config;
    const points = this.points;
    // the level now first: the verdict needs every check, and this one (read with one search) fails
    // for any level within the baseline's band, so most steps read no other mean
    const now = points.firstWithin(timeMs, c.toleranceMs);
    if (now < 0) return false;
    const level = points.levelAt(now);
    if (level - b.mean < Math.max(c.spreads * b.spread, c.material)) return false;
    const means = MEANS;
    means.length = 0;
    for (let k = c.means - 1; k > 0; k--) {
      const at = points.firstWithin(timeMs - k * c.lagMs, c.toleranceMs);
      if (at < 0) return false;
      means.push(points.levelAt(at));
    }
    means.push(level);
    // the smallest and largest rise, as Math.min and Math.max over all of them (NaN and signed zeros alike)
    let minRise = Number.POSITIVE_INFINITY;
    let maxRise = Number.NEGATIVE_INFINITY;
    for (let i = 1; i < means.length; i++) {
      const rise = means[i]! - means[i - 1]!;
      minRise = Math.min(minRise, rise);
      maxRise = Math.max(maxRise, rise);
    }
    if (minRise < Math.max(c.minRise, b.spread)) return false;
    if (maxRise > c.evenness * minRise) return false;
    const line = fitLine(means);
    const reached = Math.max(level, line.end);
    const minutes = reached >= c.ceiling ? 0 : ((c.ceiling - reached) / line.slope) * (c.lagMs / 60_000);
    return minutes <= c.withinMin;
  }

  toJSON(): SaturationClimbState {
    return { points: this.points.toPairs() };
  }

  static fromJSON(state: SaturationClimbState, config: ClimbConfig = DEFAULT_CLIMB): SaturationClimb {
    const s = new SaturationClimb(config);
    for (const [t, l] of state.points) s.points.push(t, l);
    return s;
  }
}
