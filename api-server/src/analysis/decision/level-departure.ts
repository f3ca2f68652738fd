/**
 * A sustained departure of one input's level from the workload's own baseline
 * (docs/adr/0011-alert-decision-layer.md, rule 8): what a person pages for even when nothing else
 * agrees and the level does not climb in a line: the error rate of a service whose dependency
 * fails jumps to several percent; a CPU or memory moves to its ceiling, where it never was, and
 * stays there longer than a batch burst.
 *
 * Every step, the input's 5-minute mean is compared with the level-trend baseline (rule 7: a slow
 * mean and spread of the 5-minute means, learnt while the workload is normal). It departs when it
 * is at least max(`spreads` × spread, `material`) above the baseline (or below it, for an input
 * judged in both directions), and, for an input with `atLeast`, at or above that level. The baseline is taken when a departure starts and kept until it ends
 * (the level-trend baseline may learn the new level meanwhile; the departure is judged against
 * what came before it). A departure held for `sustainSteps` consecutive steps is a critical
 * verdict, kept while the departure lasts; a step back inside (or without a level) starts again.
 */
import { z } from 'zod';

export interface DepartureConfig {
  spreads: number;
  /** the smallest departure that counts, in the input's unit */
  material: number;
  /** consecutive steps (15 s) a departure must hold */
  sustainSteps: number;
  /** judged upwards only, or in both directions */
  both: boolean;
  /** the level must also be at least this (a resource at its ceiling); absent: any level */
  atLeast?: number;
}

/**
 * The inputs judged: the error rate, 5 % more requests failing for 2 minutes; CPU and memory pinned
 * at their ceiling (a 5-minute mean ≥ 0.9, 0.1 and 3 spreads above a baseline below it) for 25
 * minutes, longer than a healthy batch burst (at most 20 minutes). CPU 0.1 above its baseline at any
 * level (for 20 minutes) was measured and is not judged: the level-trend baseline stops learning
 * while a level climbs, so a daily rhythm's rise reads as a departure (docs/alert-quality.md).
 */
export const DEPARTURES: Readonly<Record<string, DepartureConfig>> = {
  error_rate: { spreads: 6, material: 0.05, sustainSteps: 8, both: false },
  cpu: { spreads: 3, material: 0.1, sustainSteps: 100, both: false, atLeast: 0.9 },
  memory: { spreads: 3, material: 0.1, sustainSteps: 100, both: false, atLeast: 0.9 },
};

export interface Baseline {
  mean: number;
  spread: number;
}

export const levelDepartureSchema = z.object({ steps: z.number().int().min(0), from: z.object({ mean: z.number(), spread: z.number().min(0) }).nullable() });
export type LevelDepartureState = z.infer<typeof levelDepartureSchema>;

export class LevelDeparture {
  private steps = 0;
  /** the baseline the departure under way is judged against */
  private from: Baseline | null = null;

  constructor(private readonly config: DepartureConfig) {}

  /** a critical verdict: the departure has held for `sustainSteps` steps */
  get verdict(): boolean {
    return this.steps >= this.config.sustainSteps;
  }

  /**
   * whether the level departs from the baseline (null: not learnt yet); returns the verdict. A
   * departure that starts keeps a copy of `baseline` (the caller may reuse its object).
   */
  observe(level: number, baseline: Baseline | null): boolean {
    const b = this.from ?? baseline;
    if (b !== null && this.departs(level, b)) {
      this.from ??= { mean: b.mean, spread: b.spread };
      this.steps += 1;
    } else {
      this.from = null;
      this.steps = 0;
    }
    return this.verdict;
  }

  /** ends a departure (the input has no level this step) */
  reset(): void {
    this.from = null;
    this.steps = 0;
  }

  private departs(level: number, b: Baseline): boolean {
    const c = this.config;
    const edge = Math.max(c.spreads * b.spread, c.material);
    const d = level - b.mean;
    if (c.atLeast !== undefined && level < c.atLeast) return false;
    return d >= edge || (c.both && -d >= edge);
  }

  toJSON(): LevelDepartureState {
    return { steps: this.steps, from: this.from === null ? null : { ...this.from } };
  }

  static fromJSON(state: LevelDepartureState, config: DepartureConfig): LevelDeparture {
    const d = new LevelDeparture(config);
    d.steps = state.steps;
    d.from = state.from === null ? null : { ...state.from };
    return d;
  }
}
