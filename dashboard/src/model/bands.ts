/**
 * FusedR bands and their dashboard colours (interface "FusedR bands"): < 1.5 normal/green,
 * 1.5 to 2.5 warning/yellow, 2.5 to 4.0 critical/orange, > 4.0 emergency/red. The edges mirror
 * api-server/src/analysis/bands.ts (a unit test checks they agree). Colour is never the only
 * cue: every badge also prints the state name.
 */
import type { RuptureState } from '../api/types.js';

export type Band = 'normal' | 'warning' | 'critical' | 'emergency';

export const WARNING_EDGE = 1.5;
export const CRITICAL_EDGE = 2.5;
export const EMERGENCY_EDGE = 4.0;

export function bandOfFusedR(fusedR: number): Band {
  if (!Number.isFinite(fusedR) || fusedR < WARNING_EDGE) return 'normal';
  if (fusedR < CRITICAL_EDGE) return 'warning';
  if (fusedR <= EMERGENCY_EDGE) return 'critical';
  return 'emergency';
}

export function bandOfState(state: RuptureState | string): Band {
  if (state === 'warning' || state === 'critical' || state === 'emergency') return state;
  return 'normal';
}

export interface BandStyle {
  /** the colour name of the interface table */
  colour: 'green' | 'yellow' | 'orange' | 'red';
  /** badge and tile accent background */
  background: string;
  /** text on that background, at least 4.5:1 contrast (WCAG AA) */
  foreground: string;
  label: string;
}

export const BAND_STYLES: Record<Band, BandStyle> = {
  normal: { colour: 'green', background: '#2e7d32', foreground: '#ffffff', label: 'normal' },
  warning: { colour: 'yellow', background: '#f5c518', foreground: '#111111', label: 'warning' },
  critical: { colour: 'orange', background: '#ef6c00', foreground: '#111111', label: 'critical' },
  emergency: { colour: 'red', background: '#c62828', foreground: '#ffffff', label: 'emergency' },
};

const RANK: Record<Band, number> = { normal: 0, warning: 1, critical: 2, emergency: 3 };

export function bandRank(band: Band): number {
  return RANK[band];
}
