/**
 * health_forecast (analytics.md §7.1): OLS over the last ≤ 60 final health values, x = 0..n−1.
 * Calibrated and n ≥ 10, else the fallback (in_15min = in_30min = current, eta 0, stable).
 * Non-finite history values are skipped; outputs are finite.
 */
import type { HealthForecast } from '../contract.js';
import { clamp01 } from '../normalise/unit-rules.js';

export const CRITICAL_HEALTH_EDGE = 0.4;
/**
 * Longest critical ETA the health line gives: 60 min, four times the 15 min of history it is
 * fitted on; further out the extrapolation is noise (a healthy workload read "critical in 477 min").
 */
export const MAX_HEALTH_ETA_MINUTES = 60;

export function fallbackForecast(current: number, n: number): HealthForecast {
  const c = clamp01(Number.isFinite(current) ? current : 0);
  return { in15min: c, in30min: c, criticalEtaMinutes: 0, trend: 'stable', confidenceWindow: n };
}

/**
 * @param history health values oldest first
 * @param calibrated whether the workload finished calibration
 */
export function forecastHealth(history: readonly number[], calibrated: boolean, stepMs = 15_000): HealthForecast {
  return forecastHealthOf(history, 0, history.length, calibrated, stepMs);
}

/**
 * forecastHealth of a history kept in a ring: the values ring[(start + k) % ring.length],
 * k = 0..count−1, oldest first (no copy).
 */
export function forecastHealthOf(ring: ArrayLike<number>, start: number, count: number, calibrated: boolean, stepMs = 15_000): HealthForecast {
  // oldest first: ring[start, ...) then wrapping to ring[0, ...) (a compare per value, no modulo)
  const size = ring.length;
  let n = 0;
  let last = 0;
  for (let j = 0, k = start; j < count; j++, k = k + 1 === size ? 0 : k + 1) {
    const v = ring[k]!;
    if (Number.isFinite(v)) {
      n++;
      last = v;
    }
  }
  if (!calibrated || n < 10) return fallbackForecast(last, n);
  let sx = 0;
  let sy = 0;
  let sxy = 0;
  let sxx = 0;
  // i counts the finite values (a skipped one leaves no gap on the x axis)
  let i = 0;
  for (let j = 0, k = start; j < count; j++, k = k + 1 === size ? 0 : k + 1) {
    const v = ring[k]!;
    if (!Number.isFinite(v)) continue;
    sx += i;
    sy += v;
    sxy += i * v;
    sxx += i * i;
    i++;
  }
  const denominator = n * sxx - sx * sx;
  if (Math.abs(denominator) < 1e-12) return fallbackForecast(last, n);
  const m = (n * sxy - sx * sy) / denominator;
  const b = (sy - m * sx) / n;
  const stepsPer15 = (15 * 60_000) / stepMs;
  const in15min = clamp01(m * (n - 1 + stepsPer15) + b);
  const in30min = clamp01(m * (n - 1 + 2 * stepsPer15) + b);
  const trend = m > 0.001 ? 'improving' : m < -0.001 ? 'degrading' : 'stable';
  let criticalEtaMinutes = 0;
  if (m < -1e-6) {
    const k = (CRITICAL_HEALTH_EDGE - b - m * (n - 1)) / m;
    criticalEtaMinutes = k > 0 ? Math.floor((k * stepMs) / 60_000) : 0;
    if (criticalEtaMinutes > MAX_HEALTH_ETA_MINUTES) criticalEtaMinutes = 0;
  }
  return { in15min, in30min, criticalEtaMinutes: Number.isFinite(criticalEtaMinutes) ? criticalEtaMinutes : 0, trend, confidenceWindow: n };
}
