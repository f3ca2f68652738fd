/**
 * Aggregation of per-pod signals into the workload snapshot (interface "Aggregation across pods",
 * analytics.md §1.3): max for stress, fatigue, pressure, contagion; min for mood, resilience,
 * health_score; mean for humidity, entropy, velocity. Throughput drop (not in the table) takes the
 * max (the worst pod). Penalties (explanations) are taken from the pod with the lowest health.
 */
import type { PodSignals } from './pod-signals.js';
import type { SignalName } from '../../model/signals.js';
import { SIGNAL_NAMES } from '../../model/signals.js';

export type Aggregation = 'max' | 'min' | 'mean';

export const AGGREGATION: Record<SignalName, Aggregation> = {
  stress: 'max',
  fatigue: 'max',
  mood: 'min',
  pressure: 'max',
  humidity: 'mean',
  contagion: 'max',
  resilience: 'min',
  entropy: 'mean',
  velocity: 'mean',
  health_score: 'min',
};

export function aggregatePods(pods: readonly PodSignals[]): PodSignals {
  if (pods.length === 1) return pods[0]!;
  const out: PodSignals = { values: {} as Record<SignalName, number>, throughputDrop: 0, penalties: pods[0]!.penalties, healthRaw: 0, calibrated: true };
  return aggregatePodsInto(pods, pods.length, out);
}

/**
 * aggregatePods of pods[0..n) written into `out` (its values object is overwritten, its
 * penalties become the worst pod's); with n = 1 returns pods[0] and leaves `out` alone.
 */
export function aggregatePodsInto(pods: readonly PodSignals[], n: number, out: PodSignals): PodSignals {
  if (n === 1) return pods[0]!;
  const values = out.values;
  for (const s of SIGNAL_NAMES) {
    const how = AGGREGATION[s];
    let acc = how === 'max' ? Number.NEGATIVE_INFINITY : how === 'min' ? Number.POSITIVE_INFINITY : 0;
    for (let i = 0; i < n; i++) {
      const v = pods[i]!.values[s];
      if (how === 'max') acc = v > acc ? v : acc;
      else if (how === 'min') acc = v < acc ? v : acc;
      else acc += v;
    }
    values[s] = how === 'mean' ? acc / n : acc;
  }
  let worst = pods[0]!;
  let throughputDrop = 0;
  let allCalibrated = true;
  for (let i = 0; i < n; i++) {
    const p = pods[i]!;
    if (p.values.health_score < worst.values.health_score) worst = p;
    if (p.throughputDrop > throughputDrop) throughputDrop = p.throughputDrop;
    if (!p.calibrated) allCalibrated = false;
  }
  out.throughputDrop = throughputDrop;
  out.penalties = worst.penalties;
  out.healthRaw = worst.healthRaw;
  out.calibrated = allCalibrated;
  return out;
}
