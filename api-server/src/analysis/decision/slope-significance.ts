/**
 * The significance gate of metricR (docs/adr/0011-alert-decision-layer.md). The contract fixes
 * metricR = |burst slope| / max(|stable slope|, 1e-6); which burst slopes count is the noise
 * gate's choice. A burst slope counts only when it is both
 *
 * - statistically significant against the series' own residual noise: |α_b| ≥ t·SE(α_b), where
 *   SE is the slope's standard error from the burst window's residuals, and
 * - material: the change it makes over the window, |α_b|·span, is at least `material` (a fraction
 *   of full scale).
 *
 * Otherwise it is read as zero (metricR 0), as the design's own noise gate does for small changes.
 */

export interface SlopeGate {
  /** t-statistic a burst slope must reach */
  tMin: number;
  /** change over the burst window (fraction of full scale) a slope must make */
  material: number;
}

/** chosen on the evaluation's seeds 1-3 (docs/alert-quality.md) */
export const DEFAULT_SLOPE_GATE: SlopeGate = { tMin: 5, material: 0.05 };

/**
 * whether a burst slope is material: finite, over a span, and |α_b|·span ≥ `material`. The first
 * half of the gate, which needs no standard error: a caller may compute that only when this holds.
 */
export function slopeIsMaterial(slope: number, span: number, material: number): boolean {
  const a = Math.abs(slope);
  return Number.isFinite(a) && span > 0 && a * span >= material;
}

/** whether a burst slope passes the gate */
export function slopeIsSignificant(slope: number, stdError: number, span: number, gate: SlopeGate): boolean {
  if (!slopeIsMaterial(slope, span, gate.material)) return false;
  // an exact line (no residuals) is significant whenever it is material
  return stdError === 0 || Math.abs(slope) >= gate.tMin * stdError;
}

/** metricR of one input: the contract's ratio when the burst slope passes the gate, else 0 (capped at 10) */
export function gatedSlopeRatio(burstSlope: number, stdError: number, span: number, stableSlope: number, gate: SlopeGate): number {
  if (!slopeIsSignificant(burstSlope, stdError, span, gate)) return 0;
  const r = Math.abs(burstSlope) / Math.max(Math.abs(stableSlope), 1e-6);
  return Number.isFinite(r) ? Math.min(10, r) : 10;
}
