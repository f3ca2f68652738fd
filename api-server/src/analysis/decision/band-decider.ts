/**
 * The announced band of a workload: hysteresis, dwell and one event per episode
 * (docs/adr/0011-alert-decision-layer.md; the contract leaves hysteresis and dwell open).
 *
 * - Escalation: the FusedR band must stay above the announced band for `dwellUpSteps`
 *   consecutive steps; the band announced is the lowest band held over those steps.
 * - Corroboration: above warning only when a second source agrees (`corroborated`: a log burst
 *   that passes the minimum counts, or traceR ≥ 1); metric evidence alone is at most a warning,
 *   unless FusedR has stayed in the emergency band (≥ 4.0) for `soloDwellSteps` consecutive steps:
 *   a rupture that strong and that long is told as it is, even from one source. An episode already
 *   announced critical becomes emergency on the same condition (corroborated or not): one band
 *   change fewer when a failure told as critical peaks briefly. A critical level-and-trend verdict
 *   counts as the second source (another method agrees): FusedR is then told as it is, and so is
 *   the highest band FusedR reached since the episode opened (`peak`): an episode opened as a
 *   warning by an uncorroborated FusedR in the emergency band, then confirmed by a trend verdict, is
 *   told as emergency at once (warning → emergency), not critical and emergency again a few minutes
 *   later (three band changes for one failure).
 * - Within an episode the band only rises: no event for a fall from critical to warning.
 * - Recovery: FusedR below `recoverBelow` (under the 1.5 edge: hysteresis) for `dwellRecoverSteps`
 *   consecutive steps, and no input held away from its level before the episode (`held`), then one
 *   `recovered` event.
 * - Level and trend (`floor`): a significant climb towards a limit (decision/level-trend.ts) asks
 *   for warning or critical by itself, through the same dwell.
 * - Quiet steps (calibrating, a context event's quiet period) change nothing and reset the counts.
 */
import { z } from 'zod';
import type { BandEvent, RuptureState } from '../contract.js';
import { bandOf, bandRank, stateOf, type Band } from '../bands.js';

export interface DeciderConfig {
  dwellUpSteps: number;
  /** consecutive steps in the emergency band after which metric evidence alone may go above warning */
  soloDwellSteps: number;
  recoverBelow: number;
  dwellRecoverSteps: number;
}

export const DEFAULT_DECIDER: DeciderConfig = { dwellUpSteps: 2, soloDwellSteps: 24, recoverBelow: 1.0, dwellRecoverSteps: 60 };

const BANDS: readonly Band[] = ['normal', 'warning', 'critical', 'emergency'];

export const bandDeciderSchema = z.object({
  band: z.enum(['normal', 'warning', 'critical', 'emergency']),
  state: z.enum(['stable', 'elevated', 'warning', 'critical', 'emergency']),
  upSteps: z.number().int().min(0),
  upMin: z.number().int().min(0).max(3),
  downSteps: z.number().int().min(0),
  criticalSinceMs: z.number().nullable(),
  /** consecutive steps with FusedR in the emergency band (states saved before it existed: 0) */
  soloSteps: z.number().int().min(0).default(0),
  /** the highest FusedR band rank since the episode opened (0 in normal; states saved before it existed: 0) */
  peak: z.number().int().min(0).max(3).default(0),
});
export type BandDeciderState = z.infer<typeof bandDeciderSchema>;

export interface DecisionInput {
  workload: string;
  fusedR: number;
  timeMs: number;
  quiet: boolean;
  /** an input is still away from its level before the episode (or pinned at saturation) */
  held: boolean;
  /** a second source agrees (absent: yes) */
  corroborated?: boolean;
  /** overrides the config's soloDwellSteps (the analysis config's singleSourceEmergencySteps) */
  soloDwellSteps?: number;
  /** the band rank a sustained level-and-trend verdict asks for on its own (0-2; absent: 0) */
  floor?: number;
}

export interface Decision {
  band: Band;
  state: RuptureState;
  /** the band event of the step, its ruptureId to be set by the caller */
  event: BandEvent | null;
  /** how long the announced band has been critical or worse (0 below) */
  criticalForMs: number;
}

export class BandDecider {
  private s: BandDeciderState = { band: 'normal', state: 'stable', upSteps: 0, upMin: 3, downSteps: 0, criticalSinceMs: null, soloSteps: 0, peak: 0 };

  constructor(private readonly config: DeciderConfig = DEFAULT_DECIDER) {}

  get band(): Band {
    return this.s.band;
  }

  get announcedState(): RuptureState {
    return this.s.state;
  }

  step(input: DecisionInput): Decision {
    const s = this.s;
    const fused = bandRank(bandOf(input.fusedR));
    s.soloSteps = fused === 3 && !input.quiet ? s.soloSteps + 1 : 0;
    const solo = input.soloDwellSteps ?? this.config.soloDwellSteps;
    // a critical level-and-trend verdict (the floor) is a second method that agrees with FusedR
    const alone = input.corroborated === false && (input.floor ?? 0) < 2 && s.soloSteps < solo;
    const announced = bandRank(s.band);
    // confirmed by a critical verdict, the episode is told at the highest band FusedR reached in it
    const told = (input.floor ?? 0) >= 2 ? Math.max(fused, s.peak) : fused;
    let raw = Math.max(Math.min(told, alone ? 1 : 3), input.floor ?? 0);
    // an episode told as critical becomes emergency only once FusedR has held that band for the solo dwell
    if (raw === 3 && announced === 2 && s.soloSteps < solo) raw = 2;
    let event: BandEvent | null = null;
    if (input.quiet) {
      s.upSteps = 0;
      s.upMin = 3;
      s.downSteps = 0;
    } else if (raw > announced) {
      s.downSteps = 0;
      s.upSteps += 1;
      s.upMin = Math.min(s.upMin, raw);
      if (s.upSteps >= this.config.dwellUpSteps) event = this.announce(BANDS[s.upMin]!, input);
    } else {
      s.upSteps = 0;
      s.upMin = 3;
      if (announced > 0 && input.fusedR < this.config.recoverBelow && !input.held) {
        s.downSteps += 1;
        if (s.downSteps >= this.config.dwellRecoverSteps) event = this.announce('normal', input);
      } else s.downSteps = 0;
    }
    if (!input.quiet) s.peak = s.band === 'normal' ? 0 : Math.max(s.peak, fused);
    return { band: s.band, state: this.stateOf(input.fusedR), event, criticalForMs: s.criticalSinceMs === null ? 0 : input.timeMs - s.criticalSinceMs };
  }

  private announce(band: Band, input: DecisionInput): BandEvent {
    const s = this.s;
    const previousState = s.state;
    s.band = band;
    s.state = band === 'normal' ? stateOf(Math.min(input.fusedR, 1.49)) : band;
    s.upSteps = 0;
    s.upMin = 3;
    s.downSteps = 0;
    if (bandRank(band) >= 2) s.criticalSinceMs ??= input.timeMs;
    else s.criticalSinceMs = null;
    const type = band === 'normal' ? 'recovered' : band;
    return { type, severity: type === 'recovered' ? 'info' : type, workload: input.workload, fusedR: input.fusedR, previousState, state: s.state, ruptureId: null, timeMs: input.timeMs };
  }

  /** the snapshot's state: the announced band's, or within normal the FusedR's (at most elevated) */
  private stateOf(fusedR: number): RuptureState {
    if (this.s.band !== 'normal') return this.s.band;
    const raw = stateOf(fusedR);
    return raw === 'stable' ? 'stable' : 'elevated';
  }

  toJSON(): BandDeciderState {
    return { ...this.s };
  }

  static fromJSON(state: BandDeciderState, config: DeciderConfig = DEFAULT_DECIDER): BandDecider {
    const d = new BandDecider(config);
    d.s = { ...state };
    return d;
  }
}
