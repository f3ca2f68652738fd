/**
 * Dashboard phase of a workload (interface "Workload lifecycle"): Calibrating until calibration
 * completes, then Active, or Rupture while the FusedR band is warning or worse. The server's
 * `phase` field wins when present; otherwise it is derived from `status` and the band.
 */
import type { Phase, RuptureListItem } from '../api/types.js';
import { bandOfFusedR, bandOfState } from './bands.js';

export interface PhaseView {
  phase: Phase;
  /** 0..100 while calibrating */
  progress: number;
  etaMinutes: number;
}

export function phaseOf(item: Pick<RuptureListItem, 'phase' | 'status' | 'state' | 'fused_rupture_index' | 'calibration_progress' | 'calibration_eta_minutes'>): PhaseView {
  const progress = Math.min(100, Math.max(0, item.calibration_progress ?? (item.status === 'active' ? 100 : 0)));
  const etaMinutes = Math.max(0, item.calibration_eta_minutes ?? 0);
  if (item.phase !== undefined) return { phase: item.phase, progress, etaMinutes };
  const rupture = bandOfState(item.state) !== 'normal' || bandOfFusedR(item.fused_rupture_index) !== 'normal';
  if (rupture) return { phase: 'Rupture', progress, etaMinutes };
  if (item.status === 'calibrating' || item.status === 'pending_telemetry') return { phase: 'Calibrating', progress, etaMinutes };
  return { phase: 'Active', progress, etaMinutes };
}
