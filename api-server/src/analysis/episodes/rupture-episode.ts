/**
 * Rupture episodes (analytics.md §8.1), one tracker per workload: an episode opens at the first
 * calibrated step with state warning or worse (FusedR ≥ 1.5, bands.ts, or the decision layer's
 * announced band when the caller gives it) and closes at the first step back in normal. Ids come from the injected factory (`r_` + 12 hex). Peak FusedR and its time
 * are tracked. State: one open episode.
 */
import { z } from 'zod';
import { isRupture, stateOf } from '../bands.js';

export interface EpisodeStep {
  /** the episode of this step (null outside; the closing step carries the closed id) */
  ruptureId: string | null;
  opened: boolean;
  closed: boolean;
  openedAtMs: number | null;
  peakFusedR: number;
  peakAtMs: number | null;
}

interface OpenEpisode {
  ruptureId: string;
  openedAtMs: number;
  peakFusedR: number;
  peakAtMs: number;
}

/** the step outside an episode (shared: callers only read it) */
const NO_EPISODE: EpisodeStep = Object.freeze({ ruptureId: null, opened: false, closed: false, openedAtMs: null, peakFusedR: 0, peakAtMs: null });

const stateSchema = z.object({
  open: z.object({ ruptureId: z.string(), openedAtMs: z.number(), peakFusedR: z.number(), peakAtMs: z.number() }).nullable(),
});
export type RuptureEpisodeState = z.infer<typeof stateSchema>;

export class RuptureEpisodeTracker {
  private open: OpenEpisode | null = null;

  /** `rupture` (the decision layer's announced band is not normal) overrides the FusedR band when given */
  step(input: { fusedR: number; rupture?: boolean; calibrated: boolean; tStepMs: number }, newId: () => string): EpisodeStep {
    const rupture = input.rupture ?? isRupture(stateOf(input.fusedR));
    const o = this.open;
    if (o === null) {
      if (!input.calibrated || !rupture) return NO_EPISODE;
      this.open = { ruptureId: newId(), openedAtMs: input.tStepMs, peakFusedR: input.fusedR, peakAtMs: input.tStepMs };
      return { ...this.open, opened: true, closed: false };
    }
    if (!rupture) {
      this.open = null;
      return { ...o, opened: false, closed: true };
    }
    if (input.fusedR > o.peakFusedR) {
      o.peakFusedR = input.fusedR;
      o.peakAtMs = input.tStepMs;
    }
    return { ...o, opened: false, closed: false };
  }

  currentRuptureId(): string | null {
    return this.open?.ruptureId ?? null;
  }

  currentOpenedAtMs(): number | null {
    return this.open?.openedAtMs ?? null;
  }

  exportState(): RuptureEpisodeState {
    return { open: this.open === null ? null : { ...this.open } };
  }

  static fromState(state: unknown): RuptureEpisodeTracker {
    const s = stateSchema.parse(state);
    const t = new RuptureEpisodeTracker();
    t.open = s.open === null ? null : { ...s.open };
    return t;
  }
}
