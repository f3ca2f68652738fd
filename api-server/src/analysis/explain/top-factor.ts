/**
 * top_factor and primary_pipeline of analytics.md §8.2. Pure.
 */
import type { Pipeline } from '../contract.js';
import type { WeightedSignal } from '../../model/signals.js';
import { WEIGHTED_SIGNALS } from '../../model/signals.js';

/**
 * The weighted signal with the largest w_k·p_k (p after adaptive scoring when calibrated); ties
 * go to the earlier signal of the weight table (stress, fatigue, mood, pressure, humidity,
 * contagion). A NaN product is skipped; if every product is NaN the answer is `stress`.
 */
export function topFactor(weights: Readonly<Record<WeightedSignal, number>>, penalties: Readonly<Record<WeightedSignal, number>>): WeightedSignal {
  let best: WeightedSignal = WEIGHTED_SIGNALS[0];
  let bestValue = -Infinity;
  for (const k of WEIGHTED_SIGNALS) {
    const v = weights[k] * penalties[k];
    if (Number.isNaN(v)) continue;
    if (v > bestValue) {
      best = k;
      bestValue = v;
    }
  }
  return best;
}

/**
 * The largest of metricR, logR, traceR (absent = 0, NaN = 0), ties in the order metric, log, trace.
 */
export function primaryPipeline(metricR: number | null, logR: number | null, traceR: number | null): Pipeline {
  const m = orZero(metricR);
  const l = orZero(logR);
  const t = orZero(traceR);
  if (m >= l && m >= t) return 'metric';
  if (l >= t) return 'log';
  return 'trace';
}

function orZero(x: number | null): number {
  return x === null || Number.isNaN(x) ? 0 : x;
}
