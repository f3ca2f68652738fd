/**
 * slo_burn_velocity, blast_radius and the business signal object of analytics.md §7.2. Pure.
 */
import type { BusinessSignals } from '../contract.js';

/** SLO contract of one workload (analytics.md §12). */
export interface SloConfig {
  /** e.g. 99.9 */
  targetPercent: number;
  windowDays: number;
  errorBudgetMinutes: number;
}

/**
 * slo_burn_velocity = E_last / (1 − target_percent/100) when an SLO is given and the denominator
 * is > 1e-9; else 0. E_last is the last error rate (fraction); non-finite or negative E reads as 0,
 * a non-finite target gives 0. Always finite and ≥ 0.
 */
export function sloBurnVelocity(errorRateLast: number, slo: SloConfig | undefined | null): number {
  if (slo === undefined || slo === null || !Number.isFinite(slo.targetPercent)) return 0;
  const denominator = 1 - slo.targetPercent / 100;
  if (!(denominator > 1e-9)) return 0;
  const e = Number.isFinite(errorRateLast) && errorRateLast > 0 ? errorRateLast : 0;
  const v = e / denominator;
  return Number.isFinite(v) ? v : 0;
}

/** blast_radius = number of distinct callers (§7.2); duplicates and empty names are not counted. */
export function blastRadius(callers: readonly string[]): number {
  const seen = new Set<string>();
  for (const c of callers) if (c !== '') seen.add(c);
  return seen.size;
}

/** Assembles the business signal object of a snapshot. */
export function businessSignals(input: { errorRateLast: number; slo?: SloConfig | null; callers: readonly string[]; recoveryDebt: number }): BusinessSignals {
  return businessSignalsOf(input.errorRateLast, input.slo, blastRadius(input.callers), input.recoveryDebt);
}

/** businessSignals with the blast radius already counted (ServiceGraph.callerCount) */
export function businessSignalsOf(errorRateLast: number, slo: SloConfig | undefined | null, blastRadius: number, recoveryDebt: number): BusinessSignals {
  return {
    sloBurnVelocity: sloBurnVelocity(errorRateLast, slo),
    blastRadius,
    recoveryDebt: Number.isFinite(recoveryDebt) && recoveryDebt > 0 ? Math.floor(recoveryDebt) : 0,
  };
}
