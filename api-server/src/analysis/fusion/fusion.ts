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
  const beforeCap =
    weights.metric * clean(metricR ?? 0) + weights.log * clean(logR ?? 0) + weights.trace * clean(traceR ?? 0);
  const safe = Number.isFinite(beforeCap) ? beforeCap : FUSED_R_CAP;
  return { fusedR: Math.min(FUSED_R_CAP, safe), beforeCap: safe, weights };
}
