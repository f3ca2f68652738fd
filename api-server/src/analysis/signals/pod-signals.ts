/**
 * What one pod's KPI step reads besides its own inputs (PodStepContext) and what it gives
 * (PodSignals: the ten signal values, the throughput drop and the penalties used in health),
 * with PodSignalsBuffer, a PodSignals the step overwrites in place (no allocation per step).
 */
import type { HealthWeights } from '../weights/health-weights.js';
import type { SignalName, WeightedSignal } from '../../model/signals.js';

export interface PodStepContext {
  tMs: number;
  dtSeconds: number;
  absenceMs: number;
  /** CPU cores of the workload (load ÷ cores), ≥ 1 */
  cores: number;
  /** 0.2·tanh(S_log/2) of the step (log module) */
  logMoodTerm: number;
  /** a classified log line within 60 s */
  recentLogs: boolean;
  /** (ERROR+FATAL)/classified lines of the step, 0 without logs */
  logErrorShare: number;
  /** max p_e over graph edges into the workload, 0 without trace data */
  graphContagion: number;
  weights: Readonly<HealthWeights>;
  calibrationSteps: number;
  fatigueThreshold: number;
  fatigueRecovery: number;
}

/** The signals of one pod at one step plus what explanations need. */
export interface PodSignals {
  values: Record<SignalName, number>;
  throughputDrop: number;
  /** penalties p_k actually used in h (adaptive a_k once calibrated; fatigue absolute) */
  penalties: Record<WeightedSignal, number>;
  healthRaw: number;
  calibrated: boolean;
}

/**
 * A PodSignals whose objects are overwritten by every {@link PodKpi.stepInto} it is passed to
 * (no allocation per step); read it before the next step that reuses it.
 */
export class PodSignalsBuffer implements PodSignals {
  readonly values: Record<SignalName, number> = {
    stress: Number.NaN,
    fatigue: Number.NaN,
    mood: Number.NaN,
    pressure: Number.NaN,
    humidity: Number.NaN,
    contagion: Number.NaN,
    resilience: Number.NaN,
    entropy: Number.NaN,
    velocity: Number.NaN,
    health_score: Number.NaN,
  };
  throughputDrop = Number.NaN;
  penalties: Record<WeightedSignal, number>;
  healthRaw = Number.NaN;
  calibrated = false;
  /** the absolute penalties (also `penalties` while calibrating) */
  readonly absolute: Record<WeightedSignal, number> = newPenalties();
  /** the adaptive penalties (`penalties` once calibrated) */
  readonly adaptive: Record<WeightedSignal, number> = newPenalties();

  constructor() {
    this.penalties = this.absolute;
  }
}

function newPenalties(): Record<WeightedSignal, number> {
  return { stress: Number.NaN, fatigue: Number.NaN, mood: Number.NaN, pressure: Number.NaN, humidity: Number.NaN, contagion: Number.NaN };
}
