/**
 * Fingerprint vector and cosine similarity of analytics.md §7.3. Pure.
 */
import type { KpiSignalName } from '../../model/signals.js';

export const FINGERPRINT_DIMENSIONS = 11;

/** The step values a fingerprint is made of (signals in [0, 1], FusedR in [0, 10]). */
export interface FingerprintInputs extends Record<KpiSignalName, number> {
  throughputDrop: number;
  fusedR: number;
}

/**
 * v = [stress, fatigue, 1 − mood, pressure, humidity, contagion, 1 − resilience, entropy,
 * velocity, throughput_drop, min(FusedR/10, 1)], every dimension "higher = worse".
 * Each input is clamped to [0, 1] (FusedR/10 likewise); NaN reads as 0 (so 1 − NaN mood reads as 1 − 0).
 */
export function fingerprintVector(x: FingerprintInputs): number[] {
  return [
    unit(x.stress),
    unit(x.fatigue),
    1 - unit(x.mood),
    unit(x.pressure),
    unit(x.humidity),
    unit(x.contagion),
    1 - unit(x.resilience),
    unit(x.entropy),
    unit(x.velocity),
    unit(x.throughputDrop),
    unit(x.fusedR / 10),
  ];
}

/**
 * cosine(a, b) = a·b / (|a||b|) over the common length; 0 when either squared norm < 1e-12 or any
 * component is non-finite. Result clamped to [−1, 1].
 */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < n; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  if (!Number.isFinite(dot) || !Number.isFinite(na) || !Number.isFinite(nb)) return 0;
  if (na < 1e-12 || nb < 1e-12) return 0;
  const c = dot / (Math.sqrt(na) * Math.sqrt(nb));
  return Number.isFinite(c) ? Math.min(1, Math.max(-1, c)) : 0;
}

function unit(v: number): number {
  if (Number.isNaN(v)) return 0;
  return Math.min(1, Math.max(0, v));
}
