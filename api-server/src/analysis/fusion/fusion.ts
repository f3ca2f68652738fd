/**
 * FusedR from the present sources (analytics.md §4.3):
 *
 * | present               | before cap                  |
 * | metric + log + trace  | 0.6·mR + 0.2·lR + 0.2·tR    |
 * | metric + log          | 0.75·mR + 0.25·lR           |
 * | metric + trace        | 0.75·mR + 0.25·tR           |
 * | no metric, or metric alone | 0                      |
 *
 * A source is passed as null when absent. A present but non-finite ratio is read as 0 and a
 * negative one as 0; FusedR = min(10, value), so the result is always in [0, 10].
 */
export const FUSED_R_CAP = 10;

export interface FusionResult {
  fusedR: number;
  beforeCap: number;
  weights: { metric: number; log: number; trace: number };
}

const clean = (r: number): number => (Number.isFinite(r) && r > 0 ? r : 0);

export function fuse(metricR: number | null, logR: number | null, traceR: number | null): FusionResult {
  let weights = { metric: 0, log: 0, trace: 0 };
  if (metricR !== null && logR !== null && traceR !== null) weights = { metric: 0.6, log: 0.2, trace: 0.2 };
  else if (metricR !== null && logR !== null) weights = { metric: 0.75, log: 0.25, trace: 0 };
  else if (metricR !== null && traceR !== null) weights = { metric: 0.75, log: 0, trace: 0.25 };
  const safe = weighted(weights.metric, weights.log, weights.trace, metricR, logR, traceR);
  return { fusedR: Math.min(FUSED_R_CAP, safe), beforeCap: safe, weights };
}

/** fuse(metricR, logR, traceR).fusedR without building the result (the per-step path) */
export function fusedROf(metricR: number | null, logR: number | null, traceR: number | null): number {
  let safe = 0;
  if (metricR !== null && logR !== null && traceR !== null) safe = weighted(0.6, 0.2, 0.2, metricR, logR, traceR);
  else if (metricR !== null && logR !== null) safe = weighted(0.75, 0.25, 0, metricR, logR, traceR);
  else if (metricR !== null && traceR !== null) safe = weighted(0.75, 0, 0.25, metricR, logR, traceR);
  else safe = weighted(0, 0, 0, metricR, logR, traceR);
  return Math.min(FUSED_R_CAP, safe);
}

/** the weighted sum before the cap; a non-finite sum reads as the cap */
function weighted(wm: number, wl: number, wt: number, metricR: number | null, logR: number | null, traceR: number | null): number {
  const beforeCap = wm * clean(metricR ?? 0) + wl * clean(logR ?? 0) + wt * clean(traceR ?? 0);
  return Number.isFinite(beforeCap) ? beforeCap : FUSED_R_CAP;
}
