/**
 * State names of the ten signals (analytics.md §3.4). Lower bound inclusive unless the table
 * writes ">". A non-finite value is read as 0.
 */
import type { SignalReading } from '../contract.js';
import type { SignalName } from '../../model/signals.js';

type Classifier = (v: number) => string;

// One function per signal (lower bounds inclusive unless the table writes ">"): signalReadings calls
// them directly every step, so they are plain comparisons, not a loop over an edge list.
const stressState = (v: number): string => (v >= 0.8 ? 'panic' : v >= 0.6 ? 'stressed' : v >= 0.3 ? 'nervous' : 'calm');
const fatigueState = (v: number): string => (v >= 0.8 ? 'burnout_imminent' : v >= 0.6 ? 'exhausted' : v >= 0.3 ? 'tired' : 'rested');
const moodState = (v: number): string => (v > 0.75 ? 'happy' : v > 0.5 ? 'content' : v > 0.25 ? 'neutral' : v > 0.1 ? 'sad' : 'depressed');
const pressureState = (v: number): string => (v > 0.7 ? 'storm_approaching' : v > 0.55 ? 'rising' : v < 0.45 ? 'improving' : 'stable');
const humidityState = (v: number): string => (v >= 0.5 ? 'storm' : v >= 0.3 ? 'very_humid' : v >= 0.1 ? 'humid' : 'dry');
const contagionState = (v: number): string => (v >= 0.8 ? 'pandemic' : v >= 0.6 ? 'epidemic' : v >= 0.3 ? 'spreading' : 'isolated');
const resilienceState = (v: number): string => (v > 0.7 ? 'robust' : v > 0.4 ? 'stable' : v > 0.2 ? 'fragile' : 'critical');
const entropyState = (v: number): string => (v >= 0.6 ? 'turbulent' : v >= 0.3 ? 'chaotic' : v >= 0.1 ? 'fluctuating' : 'ordered');
const velocityState = (v: number): string => (v >= 0.6 ? 'volatile' : v >= 0.3 ? 'accelerating' : v >= 0.1 ? 'shifting' : 'steady');
const healthState = (v: number): string => (v > 0.8 ? 'excellent' : v > 0.6 ? 'good' : v > 0.4 ? 'fair' : v > 0.2 ? 'poor' : 'critical');

const STATE_OF: Record<SignalName, Classifier> = {
  stress: stressState,
  fatigue: fatigueState,
  mood: moodState,
  pressure: pressureState,
  humidity: humidityState,
  contagion: contagionState,
  resilience: resilienceState,
  entropy: entropyState,
  velocity: velocityState,
  health_score: healthState,
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
    stress: { value: v.stress, state: stressState(fin(v.stress)) },
    fatigue: { value: v.fatigue, state: fatigueState(fin(v.fatigue)) },
    mood: { value: v.mood, state: moodState(fin(v.mood)) },
    pressure: { value: v.pressure, state: pressureState(fin(v.pressure)) },
    humidity: { value: v.humidity, state: humidityState(fin(v.humidity)) },
    contagion: { value: v.contagion, state: contagionState(fin(v.contagion)) },
    resilience: { value: v.resilience, state: resilienceState(fin(v.resilience)) },
    entropy: { value: v.entropy, state: entropyState(fin(v.entropy)) },
    velocity: { value: v.velocity, state: velocityState(fin(v.velocity)) },
    health_score: { value: v.health_score, state: healthState(fin(v.health_score)) },
  };
}

/** state of a workload known but without data (§3.4 last line) */
export const PENDING_STATE = 'pending';

/** throughput drop states (§3.2): collapsing > 0.5, declining > 0.2, else stable */
export function throughputState(drop: number): 'collapsing' | 'declining' | 'stable' {
  return drop > 0.5 ? 'collapsing' : drop > 0.2 ? 'declining' : 'stable';
}
