/**
 * The one FusedR band table (analytics.md §4.4, interface "FusedR bands"). Every consumer
 * (snapshot state, band events, episodes, phase, narrative severity) classifies through here.
 *
 * | FusedR          | state      | band     |
 * | R < 1.0         | stable     | normal   |
 * | 1.0 ≤ R < 1.5   | elevated   | normal   |  ← `elevated` is the contract's extra state name:
 * | 1.5 ≤ R < 2.5   | warning    | warning  |    inside the interface's green "normal" band,
 * | 2.5 ≤ R ≤ 4.0   | critical   | critical |    shown but never an event, episode or action
 * | R > 4.0         | emergency  | emergency|
 *
 * A non-finite R is treated as 0 (stable).
 */
import type { RuptureState } from './contract.js';

export type Band = 'normal' | 'warning' | 'critical' | 'emergency';

export const ELEVATED_EDGE = 1.0;
export const WARNING_EDGE = 1.5;
export const CRITICAL_EDGE = 2.5;
export const EMERGENCY_EDGE = 4.0;

export function stateOf(fusedR: number): RuptureState {
  if (!Number.isFinite(fusedR) || fusedR < ELEVATED_EDGE) return 'stable';
  if (fusedR < WARNING_EDGE) return 'elevated';
  if (fusedR < CRITICAL_EDGE) return 'warning';
  if (fusedR <= EMERGENCY_EDGE) return 'critical';
  return 'emergency';
}

export function bandOfState(state: RuptureState): Band {
  return state === 'stable' || state === 'elevated' ? 'normal' : state;
}

export function bandOf(fusedR: number): Band {
  return bandOfState(stateOf(fusedR));
}

/** warning or worse (FusedR ≥ 1.5): opens a rupture episode, sets phase Rupture */
export function isRupture(state: RuptureState): boolean {
  return bandOfState(state) !== 'normal';
}

const BAND_RANK: Record<Band, number> = { normal: 0, warning: 1, critical: 2, emergency: 3 };

export function bandRank(band: Band): number {
  return BAND_RANK[band];
}

/**
 * Highest health_score a band allows (warning 0.6 `fair`, critical 0.4 `poor`, emergency 0.2
 * `critical`): the health a step reports never reads "good" inside a rupture.
 */
export function healthCeiling(state: RuptureState): number {
  const band = bandOfState(state);
  return band === 'emergency' ? 0.2 : band === 'critical' ? 0.4 : band === 'warning' ? 0.6 : 1;
}
