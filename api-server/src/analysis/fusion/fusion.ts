/**
 * FusedR from the present sources (analytics.md §4.3), with the weights of model/signals.ts:
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
import { fusionWeightsFor, type FusionWeights } from '../../model/signals.js';

export const FUSED_R_CAP = 10;

export interface FusionResult {
  fusedR: number;
  beforeCap: number;
  weights: FusionWeights;
}

const clean = (r: number): number => (Number.isFinite(r) && r > 0 ? r : 0);

export function fuse(metricR: number | null, logR: number | null, traceR: number | null): FusionResult {
  const weights = { ...fusionWeightsFor(metricR, logR, traceR) };
  const safe = weighted(weights, metricR, logR, traceR);
  return { fusedR: Math.min(FUSED_R_CAP, safe), beforeCap: safe, weights };
}

/** fuse(metricR, logR, traceR).fusedR without building the result (the per-step path) */
export function fusedROf(metricR: number | null, logR: number | null, traceR: number | null): number {
  return Math.min(FUSED_R_CAP, weighted(fusionWeightsFor(metricR, logR, traceR), metricR, logR, traceR));
}

/** the weighted sum before the cap; a non-finite sum reads as the cap */
function weighted(w: Readonly<FusionWeights>, metricR: number | null, logR: number | null, traceR: number | null): number {
  const beforeCap = w.metric * clean(metricR ?? 0) + w.log * clean(logR ?? 0) + w.trace * clean(traceR ?? 0);
  return Number.isFinite(beforeCap) ? beforeCap : FUSED_R_CAP;
}
