/**
 * Stage 10 of the tick, the snapshot (analytics.md §3.4, §6): the workload snapshot of the step
 * built from the stages' results, kept compact between steps (SnapshotMemory) and rebuilt on
 * read, and the provisional snapshot of a workload known but not yet stepped. Pure.
 */
import type { BusinessSignals, HealthForecast, PatternMatch, SignalReading, SourceRatios, WorkloadSnapshot } from '../contract.js';
import { isRupture } from '../bands.js';
import { calibrationEtaMinutes, calibrationProgress, statusOf } from '../calibration/progress.js';
import { fallbackForecast } from '../health-forecast/health-forecast.js';
import type { PodSignals } from '../signals/pod-signals.js';
import { signalReadings, PENDING_STATE } from '../signals/states.js';
import type { BandStepResult } from './fusion-stage.js';
import type { HealthHistory } from './forecast-stage.js';
import { emptySources } from './input-stage.js';
import type { SignalName } from '../../model/signals.js';
import { SIGNAL_NAMES } from '../../model/signals.js';

/** positions in SnapshotMemory.numbers */
const LAST_TIME = 0;
const LAST_FUSED_R = 1;
const LAST_SIGNALS = 2;
const LAST_THROUGHPUT_DROP = LAST_SIGNALS + SIGNAL_NAMES.length;
const LAST_BUSINESS = LAST_THROUGHPUT_DROP + 1;
const LAST_SOURCES = LAST_BUSINESS + 3;
const LAST_CONFIDENCE = LAST_SOURCES + 6;
const LAST_CRITICAL_FOR = LAST_CONFIDENCE + 1;
const LAST_LENGTH = LAST_CRITICAL_FOR + 1;

/** the results of the step's stages the snapshot is made of */
export interface SnapshotParts {
  key: string;
  tStep: number;
  steps: number;
  calibrationSteps: number;
  bucketMs: number;
  bands: Readonly<BandStepResult>;
  pod: PodSignals;
  healthForecast: HealthForecast;
  business: BusinessSignals;
  patternMatch: PatternMatch | null;
  sources: SourceRatios;
  confidence: number;
}

/** the snapshot of the step (§3.4): the stages' results, in the contract's field order */
export function snapshotOf(p: SnapshotParts): WorkloadSnapshot {
  const episode = p.bands.episode;
  return {
    key: p.key,
    timeMs: p.tStep,
    fusedR: p.bands.fusedR,
    state: p.bands.state,
    status: statusOf(p.steps, p.calibrationSteps),
    phase: p.bands.phase,
    signals: signalReadings(p.pod.values),
    throughputDrop: p.pod.throughputDrop,
    calibrationProgress: calibrationProgress(p.steps, p.calibrationSteps),
    calibrationEtaMinutes: calibrationEtaMinutes(p.steps, p.calibrationSteps, p.bucketMs),
    healthForecast: p.healthForecast,
    business: p.business,
    patternMatch: p.patternMatch,
    ruptureId: episode.closed ? null : episode.ruptureId,
    sources: p.sources,
    confidence: p.confidence,
    criticalForMs: p.bands.criticalForMs,
  };
}

/** snapshot of a workload known but not yet stepped (§3.4, §6) */
export function provisionalSnapshot(key: string, calibrationSteps: number, bucketMs: number, nowMs: number): WorkloadSnapshot {
  const signals = {} as Record<SignalName, SignalReading>;
  for (const s of SIGNAL_NAMES) signals[s] = { value: 0, state: PENDING_STATE };
  return {
    key,
    timeMs: nowMs,
    fusedR: 0,
    state: 'stable',
    status: 'pending_telemetry',
    phase: 'Calibrating',
    signals,
    throughputDrop: 0,
    calibrationProgress: calibrationProgress(0, calibrationSteps),
    calibrationEtaMinutes: calibrationEtaMinutes(0, calibrationSteps, bucketMs),
    healthForecast: fallbackForecast(0, 0),
    business: { sloBurnVelocity: 0, blastRadius: 0, recoveryDebt: 0 },
    patternMatch: null,
    ruptureId: null,
    sources: emptySources(),
    confidence: 0,
  };
}

/**
 * The last step's snapshot, kept compact (the snapshot object is the caller's): its numbers
 * (LAST_* positions), which of the sources are null, and its other fields; the rest is derived
 * from state no step changed since (steps, the health history).
 */
export class SnapshotMemory {
  private numbers: number[] | null = null;
  private nulls = 0;
  private primaryMetric: string | null = null;
  private state: WorkloadSnapshot['state'] = 'stable';
  private ruptureId: string | null = null;
  private patternMatch: PatternMatch | null = null;
  private calibrationSteps = 0;
  /** the open rupture's ETA in minutes that replaced the health forecast's, null outside one */
  criticalEta: number | null = null;
  /** a snapshot restored from saved state, until the next step */
  restored: WorkloadSnapshot | null = null;

  /** keeps what snapshot() needs to rebuild `s` (the snapshot of the step just run) */
  remember(s: WorkloadSnapshot, calibrationSteps: number): void {
    let v = this.numbers;
    if (v === null) {
      v = [];
      for (let i = 0; i < LAST_LENGTH; i++) v.push(Number.NaN);
      v = v.slice();
      this.numbers = v;
    }
    const g = s.signals;
    v[LAST_TIME] = s.timeMs;
    v[LAST_FUSED_R] = s.fusedR;
    v[LAST_SIGNALS] = g.stress.value;
    v[LAST_SIGNALS + 1] = g.fatigue.value;
    v[LAST_SIGNALS + 2] = g.mood.value;
    v[LAST_SIGNALS + 3] = g.pressure.value;
    v[LAST_SIGNALS + 4] = g.humidity.value;
    v[LAST_SIGNALS + 5] = g.contagion.value;
    v[LAST_SIGNALS + 6] = g.resilience.value;
    v[LAST_SIGNALS + 7] = g.entropy.value;
    v[LAST_SIGNALS + 8] = g.velocity.value;
    v[LAST_SIGNALS + 9] = g.health_score.value;
    v[LAST_THROUGHPUT_DROP] = s.throughputDrop;
    v[LAST_BUSINESS] = s.business.sloBurnVelocity;
    v[LAST_BUSINESS + 1] = s.business.blastRadius;
    v[LAST_BUSINESS + 2] = s.business.recoveryDebt;
    const src = s.sources;
    v[LAST_SOURCES] = src.metricR ?? 0;
    v[LAST_SOURCES + 1] = src.logR ?? 0;
    v[LAST_SOURCES + 2] = src.traceR ?? 0;
    v[LAST_SOURCES + 3] = src.traceRA ?? 0;
    v[LAST_SOURCES + 4] = src.alphaBurst;
    v[LAST_SOURCES + 5] = src.alphaStable;
    v[LAST_CONFIDENCE] = s.confidence;
    v[LAST_CRITICAL_FOR] = s.criticalForMs ?? 0;
    this.state = s.state;
    this.nulls = (src.metricR === null ? 1 : 0) | (src.logR === null ? 2 : 0) | (src.traceR === null ? 4 : 0) | (src.traceRA === null ? 8 : 0);
    this.primaryMetric = src.primaryMetric;
    this.ruptureId = s.ruptureId;
    this.patternMatch = s.patternMatch;
    this.calibrationSteps = calibrationSteps;
    this.restored = null;
  }

  /** the last step's snapshot as the step built it (a new object), the restored one before any step, else null */
  snapshot(key: string, steps: number, health: HealthHistory, bucketMs: number): WorkloadSnapshot | null {
    const v = this.numbers;
    if (v === null) return this.restored;
    const calibrationSteps = this.calibrationSteps;
    const fusedR = v[LAST_FUSED_R]!;
    const state = this.state;
    const calibrated = steps >= calibrationSteps;
    const nulls = this.nulls;
    const pm = this.patternMatch;
    return {
      key,
      timeMs: v[LAST_TIME]!,
      fusedR,
      state,
      status: statusOf(steps, calibrationSteps),
      phase: !calibrated ? 'Calibrating' : isRupture(state) ? 'Rupture' : 'Active',
      signals: signalReadings({
        stress: v[LAST_SIGNALS]!,
        fatigue: v[LAST_SIGNALS + 1]!,
        mood: v[LAST_SIGNALS + 2]!,
        pressure: v[LAST_SIGNALS + 3]!,
        humidity: v[LAST_SIGNALS + 4]!,
        contagion: v[LAST_SIGNALS + 5]!,
        resilience: v[LAST_SIGNALS + 6]!,
        entropy: v[LAST_SIGNALS + 7]!,
        velocity: v[LAST_SIGNALS + 8]!,
        health_score: v[LAST_SIGNALS + 9]!,
      }),
      throughputDrop: v[LAST_THROUGHPUT_DROP]!,
      calibrationProgress: calibrationProgress(steps, calibrationSteps),
      calibrationEtaMinutes: calibrationEtaMinutes(steps, calibrationSteps, bucketMs),
      healthForecast: this.withRuptureEta(health.forecast(calibrated, bucketMs)),
      business: { sloBurnVelocity: v[LAST_BUSINESS]!, blastRadius: v[LAST_BUSINESS + 1]!, recoveryDebt: v[LAST_BUSINESS + 2]! },
      patternMatch: pm === null ? null : { ...pm },
      ruptureId: this.ruptureId,
      sources: {
        metricR: (nulls & 1) !== 0 ? null : v[LAST_SOURCES]!,
        logR: (nulls & 2) !== 0 ? null : v[LAST_SOURCES + 1]!,
        traceR: (nulls & 4) !== 0 ? null : v[LAST_SOURCES + 2]!,
        traceRA: (nulls & 8) !== 0 ? null : v[LAST_SOURCES + 3]!,
        primaryMetric: this.primaryMetric,
        alphaBurst: v[LAST_SOURCES + 4]!,
        alphaStable: v[LAST_SOURCES + 5]!,
      },
      confidence: v[LAST_CONFIDENCE]!,
      criticalForMs: v[LAST_CRITICAL_FOR]!,
    };
  }

  private withRuptureEta(f: HealthForecast): HealthForecast {
    if (this.criticalEta !== null) f.criticalEtaMinutes = this.criticalEta;
    return f;
  }
}
