/**
 * What keeps an episode open while FusedR is low (docs/adr/0011-alert-decision-layer.md): a
 * slope ratio falls back once a change is over, but a service whose errors jumped and stayed, or
 * whose memory is pinned at its limit, has not recovered. At the episode's start the level of each
 * metricR input (its 60-minute mean) is kept; the episode is held while an input's 5-minute mean is
 * more than `away` from that level, or at or above `saturated`.
 */
import { z } from 'zod';

export interface HoldConfig {
  away: number;
  saturated: number;
}

export const DEFAULT_HOLD: HoldConfig = { away: 0.1, saturated: 0.9 };

export const levelHoldSchema = z.record(z.string(), z.number());
export type LevelHoldState = z.infer<typeof levelHoldSchema>;

/** the metricR inputs' levels of one step, each input once, in the order they were given */
export interface StepLevels {
  readonly inputs: readonly string[];
  /** the 5-minute means */
  readonly now: readonly number[];
  /** the 60-minute means */
  readonly before: readonly number[];
  readonly count: number;
}

export class LevelHold {
  private before = new Map<string, number>();

  constructor(private readonly config: HoldConfig = DEFAULT_HOLD) {}

  /** keeps the inputs' levels before the episode (called when the episode opens: their 60-minute means), in their order */
  open(levels: StepLevels): void {
    const before = this.before;
    before.clear();
    for (let k = 0; k < levels.count; k++) before.set(levels.inputs[k]!, levels.before[k]!);
  }

  close(): void {
    if (this.before.size > 0) this.before.clear();
  }

  /** whether an input's 5-minute mean is away from its level before the episode, or saturated */
  held(levels: StepLevels): boolean {
    for (let k = 0; k < levels.count; k++) {
      const level = levels.now[k]!;
      if (level >= this.config.saturated) return true;
      const before = this.before.get(levels.inputs[k]!);
      if (before !== undefined && Math.abs(level - before) > this.config.away) return true;
    }
    return false;
  }

  toJSON(): LevelHoldState {
    return Object.fromEntries(this.before);
  }

  static fromJSON(state: LevelHoldState, config: HoldConfig = DEFAULT_HOLD): LevelHold {
    const h = new LevelHold(config);
    h.before = new Map(Object.entries(state));
    return h;
  }
}
