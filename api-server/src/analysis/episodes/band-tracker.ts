/**
 * Band events of analytics.md §4.4: whenever the band of the step differs from the last
 * announced band, an event is emitted — entering warning/critical/emergency gives that type and
 * severity, falling below 1.5 from ≥ 1.5 gives `recovered` (severity info). The last announced
 * band starts as normal, so a first observation below 1.5 emits nothing.
 *
 * Quiet steps (calibrating, or inside a context-event quiet period, §6 and §8.7) emit nothing
 * and leave the announced band unchanged: a band still held when the quiet period ends is
 * announced then.
 */
import type { BandEvent, RuptureState } from '../contract.js';
import { bandOfState, type Band } from '../bands.js';

export class BandTracker {
  lastBand: Band = 'normal';
  lastState: RuptureState = 'stable';

  update(input: { workload: string; state: RuptureState; fusedR: number; timeMs: number; quiet: boolean; ruptureId: string | null }): BandEvent | null {
    const band = bandOfState(input.state);
    if (input.quiet || band === this.lastBand) return null;
    const previousState = this.lastState;
    this.lastBand = band;
    this.lastState = input.state;
    const type = band === 'normal' ? 'recovered' : band;
    return {
      type,
      severity: type === 'recovered' ? 'info' : type,
      workload: input.workload,
      fusedR: input.fusedR,
      previousState,
      state: input.state,
      ruptureId: input.ruptureId,
      timeMs: input.timeMs,
    };
  }

  toJSON(): { lastBand: Band; lastState: RuptureState } {
    return { lastBand: this.lastBand, lastState: this.lastState };
  }

  static fromJSON(s: { lastBand: Band; lastState: RuptureState }): BandTracker {
    const t = new BandTracker();
    t.lastBand = s.lastBand;
    t.lastState = s.lastState;
    return t;
  }
}
