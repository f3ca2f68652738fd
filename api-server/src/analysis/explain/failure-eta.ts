/**
 * The one time-to-failure model (docs/diagnosis.md "Forecast"). Pure.
 *
 * While a rupture is open, the diagnosed input's failure ETA is the time its trend needs to reach
 * the input's failure edge: (edge − now) / slope, the slope being the mean of the input's 5-min
 * regression slope and its rise rate since the window's trough, of those that are positive (a
 * rising input; none → no estimate). Without a
 * diagnosed input the ETA is the health forecast's: the time the health line reaches the critical
 * edge 0.4. The narrative's "Estimated time to failure", the explain record's `ttf_seconds` and
 * the snapshot's `health_forecast.critical_eta_minutes` are all this one number. Outside a rupture
 * `critical_eta_minutes` is the soonest input ETA on the inputs' 60-min slopes (earliestInputEta),
 * else the health line's.
 */

export const TREND_INPUTS = ['memory', 'cpu', 'latency', 'error_rate'] as const;
export type TrendInput = (typeof TREND_INPUTS)[number];

/**
 * Failure edges of the normalised inputs: memory and cpu at 100 % (OOM kill, throttled to a
 * stand-still), latency at 1.0 (600 ms, the normalisation's ceiling), error rate at 25 %.
 */
export const FAILURE_EDGES = { memory: 1, cpu: 1, latency: 1, error_rate: 0.25, latencyMs: 600 } as const;

/** Longest ETA reported (6 h); `ttf_seconds` is this value when there is no estimate. */
export const ETA_CAP_SECONDS = 6 * 3600;

/** seconds until `value` rising at `slopePerSecond` reaches the input's edge; null when not rising; 0 at or past the edge; ≤ cap */
export function failureEtaSeconds(input: TrendInput, value: number, slopePerSecond: number): number | null {
  if (!Number.isFinite(value)) return null;
  const edge = FAILURE_EDGES[input];
  if (value >= edge) return 0;
  if (!(slopePerSecond > 0) || !Number.isFinite(slopePerSecond)) return null;
  return Math.floor(Math.min(ETA_CAP_SECONDS, (edge - value) / slopePerSecond));
}

/** the slope the ETA uses: mean of the positive ones of the 5-min slope and the rise rate; 0 when neither rises */
export function trendSlope(burstSlope: number, riseRate: number): number {
  const rising = [burstSlope, riseRate].filter((s) => Number.isFinite(s) && s > 0);
  return rising.length === 0 ? 0 : rising.reduce((a, b) => a + b, 0) / rising.length;
}

export interface FailureEta {
  /** integer seconds, ETA_CAP_SECONDS when there is no estimate */
  ttfSeconds: number;
  /** whole minutes, 0 when there is no estimate (the contract's "none") */
  criticalEtaMinutes: number;
  /** which model gave it */
  basis: 'input-trend' | 'health-trend' | 'none';
}

/**
 * The ETA from the diagnosis' (null: none) or else the health forecast's critical ETA in minutes
 * (0: none).
 */
export function failureEta(diagnosisEtaSeconds: number | null, healthCriticalEtaMinutes: number): FailureEta {
  if (diagnosisEtaSeconds !== null && Number.isFinite(diagnosisEtaSeconds)) {
    const s = Math.floor(Math.min(ETA_CAP_SECONDS, Math.max(0, diagnosisEtaSeconds)));
    return { ttfSeconds: s, criticalEtaMinutes: Math.floor(s / 60), basis: 'input-trend' };
  }
  if (healthCriticalEtaMinutes > 0 && Number.isFinite(healthCriticalEtaMinutes)) {
    const m = Math.min(ETA_CAP_SECONDS / 60, Math.floor(healthCriticalEtaMinutes));
    return { ttfSeconds: m * 60, criticalEtaMinutes: m, basis: 'health-trend' };
  }
  return { ttfSeconds: ETA_CAP_SECONDS, criticalEtaMinutes: 0, basis: 'none' };
}

/**
 * The early warning outside a rupture: the soonest time any input reaches its edge, in seconds;
 * null when none gets there within the cap. An input counts only when its 60-min slope (robust
 * to the 5-min window's noise) gets it there within the cap; its ETA then uses the trend slope
 * (`refine`: the 5-min slope and the rise rate since the trough, as inside a rupture), which does
 * not lag a ramp younger than the hour.
 */
export function earliestInputEta(
  inputs: readonly { input: TrendInput; last: number; stableSlope: number }[],
  refine: (input: TrendInput) => number = () => Number.NaN,
): number | null {
  let best: number | null = null;
  for (const i of inputs) {
    const rough = failureEtaSeconds(i.input, i.last, i.stableSlope);
    if (rough === null || rough >= ETA_CAP_SECONDS) continue;
    const slope = refine(i.input);
    const eta = Number.isFinite(slope) && slope > 0 ? (failureEtaSeconds(i.input, i.last, slope) ?? rough) : rough;
    if (best === null || eta < best) best = eta;
  }
  return best;
}
