/**
 * State names of the ten signals (analytics.md §3.4). Lower bound inclusive unless the table
 * writes ">". A non-finite value is read as 0.
 */
import type { SignalName, SignalReading } from '../contract.js';

type Classifier = (v: number) => string;

const ascending =
  (edges: number[], names: string[]): Classifier =>
  (v) => {
    let i = 0;
    while (i < edges.length && v >= edges[i]!) i++;
    return names[i]!;
  };

const STATE_OF: Record<SignalName, Classifier> = {
  stress: ascending([0.3, 0.6, 0.8], ['calm', 'nervous', 'stressed', 'panic']),
  fatigue: ascending([0.3, 0.6, 0.8], ['rested', 'tired', 'exhausted', 'burnout_imminent']),
  mood: (v) => (v > 0.75 ? 'happy' : v > 0.5 ? 'content' : v > 0.25 ? 'neutral' : v > 0.1 ? 'sad' : 'depressed'),
  pressure: (v) => (v > 0.7 ? 'storm_approaching' : v > 0.55 ? 'rising' : v < 0.45 ? 'improving' : 'stable'),
  humidity: ascending([0.1, 0.3, 0.5], ['dry', 'humid', 'very_humid', 'storm']),
  contagion: ascending([0.3, 0.6, 0.8], ['isolated', 'spreading', 'epidemic', 'pandemic']),
  resilience: (v) => (v > 0.7 ? 'robust' : v > 0.4 ? 'stable' : v > 0.2 ? 'fragile' : 'critical'),
  entropy: ascending([0.1, 0.3, 0.6], ['ordered', 'fluctuating', 'chaotic', 'turbulent']),
  velocity: ascending([0.1, 0.3, 0.6], ['steady', 'shifting', 'accelerating', 'volatile']),
  health_score: (v) => (v > 0.8 ? 'excellent' : v > 0.6 ? 'good' : v > 0.4 ? 'fair' : v > 0.2 ? 'poor' : 'critical'),
};

/** the state name of a signal value */
export function signalState(signal: SignalName, value: number): string {
  return STATE_OF[signal](Number.isFinite(value) ? value : 0);
}

const fin = (v: number): number => (Number.isFinite(v) ? v : 0);

/**
 * The readings { value, state } of the ten signal values, keyed in SIGNAL_NAMES order (as a
 * snapshot lists them); built as one literal per step.
 */
export function signalReadings(v: Readonly<Record<SignalName, number>>): Record<SignalName, SignalReading> {
  return {
    stress: { value: v.stress, state: STATE_OF.stress(fin(v.stress)) },
    fatigue: { value: v.fatigue, state: STATE_OF.fatigue(fin(v.fatigue)) },
    mood: { value: v.mood, state: STATE_OF.mood(fin(v.mood)) },
    pressure: { value: v.pressure, state: STATE_OF.pressure(fin(v.pressure)) },
    humidity: { value: v.humidity, state: STATE_OF.humidity(fin(v.humidity)) },
    contagion: { value: v.contagion, state: STATE_OF.contagion(fin(v.contagion)) },
    resilience: { value: v.resilience, state: STATE_OF.resilience(fin(v.resilience)) },
    entropy: { value: v.entropy, state: STATE_OF.entropy(fin(v.entropy)) },
    velocity: { value: v.velocity, state: STATE_OF.velocity(fin(v.velocity)) },
    health_score: { value: v.health_score, state: STATE_OF.health_score(fin(v.health_score)) },
  };
}

/** state of a workload known but without data (§3.4 last line) */
export const PENDING_STATE = 'pending';

/** throughput drop states (§3.2): collapsing > 0.5, declining > 0.2, else stable */
export function throughputState(drop: number): 'collapsing' | 'declining' | 'stable' {
  return drop > 0.5 ? 'collapsing' : drop > 0.2 ? 'declining' : 'stable';
}
