/**
 * Builders of analysis outputs for tests of the layers above the analysis (actions, rendering):
 * every field filled with plausible values, overridable per test.
 */
import type { ExplainRecord, RuptureState, WorkloadSnapshot } from '../../api-server/src/analysis/contract.js';
import type { SignalName } from '../../api-server/src/model/signals.js';
import { SIGNAL_NAMES } from '../../api-server/src/model/signals.js';

export function snapshotOf(key: string, overrides: Partial<WorkloadSnapshot> = {}): WorkloadSnapshot {
  const signals = Object.fromEntries(SIGNAL_NAMES.map((s) => [s, { value: 0.5, state: 'nervous' }])) as WorkloadSnapshot['signals'];
  return {
    key,
    timeMs: 1_700_000_000_000,
    fusedR: 3,
    state: 'critical',
    status: 'active',
    phase: 'Rupture',
    signals,
    throughputDrop: 0,
    calibrationProgress: 100,
    calibrationEtaMinutes: 0,
    healthForecast: { in15min: 0.5, in30min: 0.5, criticalEtaMinutes: 0, trend: 'stable', confidenceWindow: 60 },
    business: { sloBurnVelocity: 0, blastRadius: 0, recoveryDebt: 0 },
    patternMatch: null,
    ruptureId: `r_${key.length.toString(16).padStart(12, '0')}`,
    sources: { metricR: 4, logR: 1, traceR: null, traceRA: null, primaryMetric: 'cpu', alphaBurst: 0.01, alphaStable: 0.001 },
    confidence: 0.9,
    criticalForMs: 600_000,
    ...overrides,
  };
}

export function explainOf(snapshot: WorkloadSnapshot, overrides: Partial<ExplainRecord> = {}): ExplainRecord {
  const values = Object.fromEntries(SIGNAL_NAMES.map((s) => [s, 0.5])) as Record<SignalName, number>;
  const weights = { stress: 0.25, fatigue: 0.2, mood: 0.2, pressure: 0.15, humidity: 0.1, contagion: 0.1 };
  const state: RuptureState = snapshot.state;
  return {
    ruptureId: snapshot.ruptureId ?? 'r_000000000000',
    workload: snapshot.key,
    openedAtMs: snapshot.timeMs,
    closedAtMs: null,
    updatedAtMs: snapshot.timeMs,
    fusedR: snapshot.fusedR,
    peakFusedR: snapshot.fusedR,
    peakAtMs: snapshot.timeMs,
    state,
    modelContributions: {},
    topFactor: 'stress',
    signalValues: values,
    primaryPipeline: 'metric',
    sources: snapshot.sources,
    fusionWeights: { metric: 0.75, log: 0.25, trace: 0 },
    fusedRBeforeCap: snapshot.fusedR,
    healthWeights: weights,
    penalties: weights,
    ttfSeconds: 600,
    confidence: snapshot.confidence,
    narrative: `${snapshot.key} is in ${state} state.`,
    recommendation:
      state === 'emergency'
        ? { type: 'scale', params: { delta: 2 }, tier: 1, text: 'scale +2 replicas' }
        : { type: 'scale', params: { delta: 1 }, tier: 2, text: 'scale +1 replica' },
    ...overrides,
  };
}
