/**
 * Per-sample unit rules of analytics.md §1.1. Input must be finite (the facade rejects
 * non-finite samples before they get here); outputs are finite, and in [0,1] except for `raw`.
 */
import type { UnitRule } from './metric-names.js';

export function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

/** FP: v ≤ 1 is a fraction, v > 1 a percentage; then clamp. */
export function fractionOrPercent(v: number): number {
  return clamp01(v > 1 ? v / 100 : v);
}

/** DR for OTel duration names: v ≤ 10 → seconds (×1000), else already milliseconds. */
export function otelDurationToMs(v: number): number {
  return v <= 10 ? v * 1000 : v;
}

/** L = min(ms/200, 3)/3 = clamp(ms/600) */
export function latencyFromMs(ms: number): number {
  return clamp01(ms / 600);
}

/** G = clamp(ms/100) */
export function gcPauseFromMs(ms: number): number {
  return clamp01(ms / 100);
}

/** raw values are floored at 0 and capped here so bucket sums can never overflow to Infinity */
export const RAW_MAX = 1e12;

/** The per-sample bucket value of a finite sample under its unit rule. */
export function sampleValue(unit: UnitRule, v: number, scale: number): number {
  switch (unit) {
    case 'fp':
      return fractionOrPercent(v);
    case 'latency_ms':
      return latencyFromMs(v);
    case 'latency_otel':
      return latencyFromMs(otelDurationToMs(v));
    case 'gc_ms':
      return gcPauseFromMs(v);
    case 'gc_otel':
      return gcPauseFromMs(otelDurationToMs(v));
    case 'div':
      return clamp01(v / scale);
    case 'raw':
      return v < 0 ? 0 : v > RAW_MAX ? RAW_MAX : v;
  }
}

/** load: clamp(v / cores), cores ≥ 1 (default 1). */
export function loadPerCore(load: number, cores: number): number {
  return clamp01(load / (cores >= 1 ? cores : 1));
}

/** Q_n = clamp(Q/100) */
export function requestRateNormalised(q: number): number {
  return clamp01(q / 100);
}
