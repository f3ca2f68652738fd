/**
 * Minimum counts for logR (docs/adr/0011-alert-decision-layer.md). logR = c / max(μ, 1) (the
 * contract's burst rate over baseline); a bucket's warn + error count c counts as a burst only when
 * it is at least `minCount` lines and above the baseline by `sigmas` Poisson deviations
 * (c ≥ μ + sigmas·√max(μ, 1)). Otherwise logR is held at most 1 (the baseline's own rate), so a
 * quiet service's one error line, or a chatty logger's ordinary minute, is not a rupture.
 */

export interface LogGate {
  minCount: number;
  sigmas: number;
}

export const DEFAULT_LOG_GATE: LogGate = { minCount: 5, sigmas: 3 };

export function gatedLogRatio(rawLogR: number, count: number, baselineMean: number, gate: LogGate): number {
  const mu = Number.isFinite(baselineMean) && baselineMean > 1 ? baselineMean : 1;
  const burst = count >= gate.minCount && count >= mu + gate.sigmas * Math.sqrt(mu);
  return burst ? rawLogR : Math.min(rawLogR, 1);
}
