/**
 * FusedR → rupture state for the explain modules: a re-export of the one band table
 * (analysis/bands.ts, analytics.md §4.4). A non-finite FusedR is stable.
 */
import type { RuptureState } from '../contract.js';
import { stateOf } from '../bands.js';

export function ruptureStateOf(fusedR: number): RuptureState {
  return stateOf(fusedR);
}
