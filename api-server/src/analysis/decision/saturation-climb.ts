/**
 * A fast climb of a resource towards its ceiling (docs/adr/0011-alert-decision-layer.md, rule 9):
 * what the level-trend rule (rule 7) finds too late when the climb is short. Rule 7 counts a line
 * only through an hour of 5-minute means; CPU driven to saturation by growing load in half an hour
 * reaches its ceiling before that hour is there.
 *
 * Every step the input's 5-minute mean is kept with its time. The rule reads four of them, `lagMs`
 * apart (now, 5, 10 and 15 minutes ago: four disjoint 5-minute windows covering 20 minutes), and
 * gives a critical verdict when all of these hold:
 * - each of the three is above the one before by at least max(`minRise`, the baseline's spread):
 *   a steady climb, not a step. A step (a batch burst, a deploy) moves a 5-minute mean for only
 *   5 minutes, so at most two of the three rises can be material; noise rises three times in a row
 *   by a spread each only rarely;
 * - the level is above the learnt baseline (rule 7's slow mean and spread of the 5-minute means) by
 *   at least max(`spreads` × spread, `material`): outside everything the workload did before;
 * - the least-squares line through the four reaches `ceiling` within `withinMin` minutes.
 * Nothing is judged before a baseline is learnt or while one of the four means is missing (a gap).
 */
import { z } from 'zod';
import type { Baseline } from './level-departure.js';
import { fitLine } from './level-trend.js';

export interface ClimbConfig {
  /** the time between the four 5-minute means read */
  lagMs: number;
  /** a mean is taken for a time when it was kept within this of it */
  toleranceMs: number;
  minRise: number;
  spreads: number;
  material: number;
  ceiling: number;
  withinMin: number;
}

export const DEFAULT_CLIMB: ClimbConfig = {
  lagMs: 5 * 60_000,
  toleranceMs: 7_500,
  minRise: 0.02,
  spreads: 3,
  material: 0.05,
  ceiling: 0.95,
  withinMin: 30,
};

export const saturationClimbSchema = z.object({ points: z.array(z.tuple([z.number(), z.number()])) });
export type SaturationClimbState = z.infer<typeof saturationClimbSchema>;

export class SaturationClimb {
  /** [timeMs, 5-minute mean], oldest first, the last 3 × lagMs (+ tolerance) */
  private points: [number, number][] = [];
  private last = false;

  constructor(private readonly config: ClimbConfig = DEFAULT_CLIMB) {}

  /** the last verdict (critical) */
  get verdict(): boolean {
    return this.last;
  }

  /** the input's 5-minute mean at `timeMs` against the learnt baseline (null: not learnt yet); returns the verdict */
  observe(level: number, timeMs: number, baseline: Baseline | null): boolean {
    const c = this.config;
    this.points.push([timeMs, level]);
    const oldest = timeMs - 3 * c.lagMs - c.toleranceMs;
    while (this.points.length > 0 && this.points[0]![0] < oldest) this.points.shift();
    this.last = baseline !== null && this.judge(timeMs, baseline);
    return this.last;
  }

  /** ends the climb (the input has no level this step) */
  reset(): void {
    this.last = false;
  }

  private judge(timeMs: number, b: Baseline): boolean {
    const c = this.config;
    const means: number[] = [];
    for (let k = 3; k >= 0; k--) {
      const m = this.meanAt(timeMs - k * c.lagMs);
      if (m === null) return false;
      means.push(m);
    }
    const rise = Math.max(c.minRise, b.spread);
    for (let i = 1; i < means.length; i++) if (means[i]! - means[i - 1]! < rise) return false;
    const level = means[3]!;
    if (level - b.mean < Math.max(c.spreads * b.spread, c.material)) return false;
    const line = fitLine(means);
    const now = Math.max(level, line.end);
    const minutes = now >= c.ceiling ? 0 : ((c.ceiling - now) / line.slope) * (c.lagMs / 60_000);
    return minutes <= c.withinMin;
  }

  private meanAt(t: number): number | null {
    for (const [time, level] of this.points) if (Math.abs(time - t) <= this.config.toleranceMs) return level;
    return null;
  }

  toJSON(): SaturationClimbState {
    return { points: this.points.map(([t, l]): [number, number] => [t, l]) };
  }

  static fromJSON(state: SaturationClimbState, config: ClimbConfig = DEFAULT_CLIMB): SaturationClimb {
    const s = new SaturationClimb(config);
    s.points = state.points.map(([t, l]): [number, number] => [t, l]);
    return s;
  }
}
