/**
 * The KPI formulas of analytics.md §3.2-§3.3 as pure functions of finite inputs. Every function
 * returns a finite value in [0,1]; a non-finite argument is treated as 0 (stated per function
 * where it differs), so nothing non-finite can leave.
 */
import { clamp01 } from '../normalise/unit-rules.js';
import type { WeightedSignal } from '../../model/signals.js';

const fin = (x: number): number => (Number.isFinite(x) ? x : 0);

/** S = clamp(0.30·C + 0.20·M + 0.20·L* + 0.20·E + 0.10·T) */
export function stressOf(c: number, m: number, lStar: number, e: number, t: number): number {
  return clamp01(0.3 * fin(c) + 0.2 * fin(m) + 0.2 * fin(lStar) + 0.2 * fin(e) + 0.1 * fin(t));
}

/** Memory above this fraction of its limit feeds fatigue (interface: memory affects fatigue). */
export const MEMORY_FATIGUE_EDGE = 0.8;

/**
 * Memory's fatigue input M_F = clamp((M − 0.8)/0.2): 0 up to 80 % of the limit, 1 at the limit.
 * It joins the dissipative drive D_t = max(S, G, M_F), so memory held above ≈ 87 % builds fatigue
 * (D > R_threshold + λ) and anything below dissipates it.
 */
export function memoryFatigueInput(m: number): number {
  return clamp01((fin(m) - MEMORY_FATIGUE_EDGE) / (1 - MEMORY_FATIGUE_EDGE));
}

/** F_t = clamp(F_{t−1} + (max(S, G) − R_threshold) − λ·dt/15), dt in s already capped to ≤ 30 */
export function nextFatigue(previous: number, stress: number, gcPause: number, dtSeconds: number, threshold: number, recovery: number): number {
  const d = Math.max(fin(stress), fin(gcPause));
  return clamp01(fin(previous) + (d - fin(threshold)) - (fin(recovery) * fin(dtSeconds)) / 15);
}

/** base = e^{−3E}·e^{−3T}·(1 − min(r/3, 1)), r = restarts in the last hour */
export function moodBase(e: number, t: number, restartsLastHour: number): number {
  return clamp01(Math.exp(-3 * clamp01(fin(e))) * Math.exp(-3 * clamp01(fin(t))) * (1 - Math.min(Math.max(fin(restartsLastHour), 0) / 3, 1)));
}

/**
 * mood = clamp(base + moodTerm) when a classified line arrived in the last 60 s, else base;
 * moodTerm = 0.2·tanh(S_log/2) from the log module (§3.3)
 */
export function moodOf(base: number, logMoodTerm: number, recentLogs: boolean): number {
  return recentLogs ? clamp01(fin(base) + fin(logMoodTerm)) : clamp01(fin(base));
}

/** EWMA mean and variance of §3.2 pressure (μ, σ² start at 0) */
export interface Ewma {
  mean: number;
  variance: number;
}

/** updates in place; returns z = (x − μ)/σ with the updated μ, σ = 1 if σ < 1e-6 */
export function ewmaZ(state: Ewma, x: number): number {
  const v = fin(x);
  state.mean = 0.9 * state.mean + 0.1 * v;
  const dev = v - state.mean;
  state.variance = 0.9 * state.variance + 0.1 * dev * dev;
  let sigma = Math.sqrt(state.variance);
  if (!(sigma >= 1e-6)) sigma = 1;
  return (v - state.mean) / sigma;
}

/** ewmaZ of the state kept in a[o] (μ) and a[o + 1] (σ²) */
export function ewmaZAt(a: Float64Array, o: number, x: number): number {
  const v = fin(x);
  a[o] = 0.9 * a[o]! + 0.1 * v;
  const dev = v - a[o]!;
  a[o + 1] = 0.9 * a[o + 1]! + 0.1 * dev * dev;
  let sigma = Math.sqrt(a[o + 1]!);
  if (!(sigma >= 1e-6)) sigma = 1;
  return (v - a[o]!) / sigma;
}

/** P = clamp((0.5·z_x + 0.5·z_E + 3)/6) */
export function pressureOf(zx: number, ze: number): number {
  return clamp01((0.5 * fin(zx) + 0.5 * fin(ze) + 3) / 6);
}

/** H = clamp(E·T′ / (Q_n + 1e-10)); callers pass T′ (T if seen else E) and Q_n (1 if unseen) */
export function humidityOf(e: number, tPrime: number, qN: number): number {
  return clamp01((clamp01(fin(e)) * clamp01(fin(tPrime))) / (clamp01(fin(qN)) + 1e-10));
}

/** K = graph contagion if > 0, else E_eff·C with E_eff = max(E, log error share) */
export function contagionOf(graphContagion: number, e: number, logErrorShare: number, c: number): number {
  const g = clamp01(fin(graphContagion));
  if (g > 0) return g;
  return clamp01(Math.max(clamp01(fin(e)), clamp01(fin(logErrorShare))) * clamp01(fin(c)));
}

/** Θ = clamp((Q_prev − Q)/Q_prev) if Q_prev > 0.01 and Q < Q_prev, else 0 (raw req/s) */
export function throughputDropOf(qPrev: number | undefined, q: number): number {
  if (qPrev === undefined || !(qPrev > 0.01) || !(fin(q) < qPrev)) return 0;
  return clamp01((qPrev - fin(q)) / qPrev);
}

/** resilience = clamp(mood·(1 − F)·(1 − K)) */
export function resilienceOf(mood: number, fatigue: number, contagion: number): number {
  return clamp01(clamp01(fin(mood)) * (1 - clamp01(fin(fatigue))) * (1 - clamp01(fin(contagion))));
}

/**
 * h = clamp(1 − Σ_k w_k·p_k) over the six weighted signals (§3.5). Penalties: stress, fatigue,
 * 1 − mood, pressure, humidity, contagion (absolute, or adaptive a_k once calibrated).
 */
export function healthScoreOf(weights: Readonly<Record<WeightedSignal, number>>, penalties: Readonly<Record<WeightedSignal, number>>): number {
  // the sum in WEIGHTED_SIGNALS order, written out (named loads: no keyed lookups per step)
  let sum = 0;
  sum += fin(weights.stress) * fin(penalties.stress);
  sum += fin(weights.fatigue) * fin(penalties.fatigue);
  sum += fin(weights.mood) * fin(penalties.mood);
  sum += fin(weights.pressure) * fin(penalties.pressure);
  sum += fin(weights.humidity) * fin(penalties.humidity);
  sum += fin(weights.contagion) * fin(penalties.contagion);
  return clamp01(1 - sum);
}

/** mean absolute deviation from the mean of values[at..at + n) */
export function meanAbsoluteDeviation(values: ArrayLike<number>, n: number, at = 0): number {
  if (n <= 0) return 0;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[at + i]!;
  const mean = sum / n;
  let dev = 0;
  for (let i = 0; i < n; i++) dev += Math.abs(values[at + i]! - mean);
  return dev / n;
}

/**
 * entropy from the health history (≥ 2 values, history[at..at + n)): clamp(MAD/0.5); fd part:
 * clamp(MAD/max(mean,1))
 */
export function healthEntropyOf(history: ArrayLike<number>, n: number, at = 0): number {
  if (n < 2) return 0;
  return clamp01(fin(meanAbsoluteDeviation(history, n, at)) / 0.5);
}

export function fdEntropyOf(fds: ArrayLike<number>, n: number): number {
  if (n < 1) return 0;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += fds[i]!;
  return clamp01(fin(meanAbsoluteDeviation(fds, n)) / Math.max(sum / n, 1));
}

/** velocity = clamp(|h_t − h_{t−1}| / (0.1·dt)); 0 on the first step */
export function velocityOf(previous: number | undefined, current: number, dtSeconds: number): number {
  if (previous === undefined) return 0;
  return clamp01(Math.abs(fin(current) - fin(previous)) / (0.1 * Math.max(fin(dtSeconds), 0.001)));
}

/** dt = t_step − t_prev in s; 1 if < 0.001, capped at 30 (§3.1) */
export function stepDtSeconds(previousMs: number | undefined, nowMs: number): number {
  if (previousMs === undefined) return 1;
  const dt = (nowMs - previousMs) / 1000;
  if (!(dt >= 0.001)) return 1;
  return Math.min(dt, 30);
}
