/** Wire forms of snapshots, KPI answers, anomalies and forecasts (api.md §6.1-6.4). */
import type { AnomalyEvent, ForecastResult, WorkloadSnapshot } from '../../analysis/contract.js';
import type { WorkloadRef } from '../../model/workload-key.js';
import { legacyHostOf, parseWorkloadKey } from '../../model/workload-key.js';
import type { SignalName } from '../../model/signals.js';
import { SIGNAL_NAMES } from '../../model/signals.js';

const r3 = (x: number): number => Math.round(x * 1000) / 1000;
const r4 = (x: number): number => Math.round(x * 10000) / 10000;
const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * health_score on the wire. The contract types it as a number, so it stays one; while no bucket of
 * the workload was analysed (status `pending_telemetry`) it is 1, the additive-penalty model with
 * no penalty observed yet, never the provisional 0 that would read as "worst" on a 0..1 scale where
 * 1 is healthy. `status` says that nothing was analysed; the dashboard shows a dash then
 * (docs/decisions.md).
 */
export function healthScoreJson(s: WorkloadSnapshot): number {
  return s.status === 'pending_telemetry' ? 1 : r4(s.signals.health_score.value);
}

export function refOf(key: string): WorkloadRef {
  return parseWorkloadKey(key) ?? { namespace: 'default', kind: 'host', name: key };
}

export function snapshotJson(s: WorkloadSnapshot): Record<string, unknown> {
  const signals = Object.fromEntries(SIGNAL_NAMES.filter((n) => n !== 'health_score').map((n) => [n, { value: r4(s.signals[n].value), state: s.signals[n].state }]));
  return {
    workload: refOf(s.key),
    host: legacyHostOf(s.key),
    fused_rupture_index: r3(s.fusedR),
    health_score: healthScoreJson(s),
    state: s.state,
    status: s.status,
    phase: s.phase,
    ...signals,
    timestamp: iso(s.timeMs),
    calibration_progress: Math.round(s.calibrationProgress),
    calibration_eta_minutes: Math.round(s.calibrationEtaMinutes),
    health_forecast: {
      in_15min: r3(s.healthForecast.in15min),
      in_30min: r3(s.healthForecast.in30min),
      critical_eta_minutes: Math.round(s.healthForecast.criticalEtaMinutes),
      trend: s.healthForecast.trend,
      confidence_window: s.healthForecast.confidenceWindow,
    },
    business: {
      slo_burn_velocity: r4(s.business.sloBurnVelocity),
      blast_radius: s.business.blastRadius,
      recovery_debt: s.business.recoveryDebt,
    },
    pattern_match:
      s.patternMatch === null
        ? null
        : {
            similarity: r3(s.patternMatch.similarity),
            matched_rupture_id: s.patternMatch.matchedRuptureId,
            matched_at: iso(s.patternMatch.matchedAtMs),
            ...(s.patternMatch.resolutionNote === undefined ? {} : { resolution_note: s.patternMatch.resolutionNote }),
          },
    rupture_id: s.ruptureId,
    throughput_drop: r4(s.throughputDrop),
    confidence: r3(s.confidence),
  };
}

export function listItemJson(s: WorkloadSnapshot): Record<string, unknown> {
  return {
    workload: refOf(s.key),
    fused_rupture_index: r3(s.fusedR),
    state: s.state,
    health_score: healthScoreJson(s),
    status: s.status,
    phase: s.phase,
    calibration_progress: Math.round(s.calibrationProgress),
    calibration_eta_minutes: Math.round(s.calibrationEtaMinutes),
    timestamp: iso(s.timeMs),
    rupture_id: s.ruptureId,
  };
}

export function kpiJson(s: WorkloadSnapshot, signal: SignalName, legacy: boolean): Record<string, unknown> {
  const value = signal === 'health_score' ? healthScoreJson(s) : r4(s.signals[signal].value);
  const reading = { value, state: s.signals[signal].state, timestamp: iso(s.timeMs) };
  return legacy ? { signal, host: legacyHostOf(s.key), ...reading } : { signal, workload: refOf(s.key), ...reading };
}

export function anomalyJson(a: AnomalyEvent): Record<string, unknown> {
  return {
    id: a.id,
    host: legacyHostOf(a.workload),
    workload: refOf(a.workload),
    metric: a.metric,
    method: a.method,
    severity: a.severity,
    value: r4(a.value),
    expected: r4(a.expected),
    score: r3(a.score),
    consensus: a.consensus,
    timestamp: iso(a.timeMs),
  };
}

export function forecastJson(f: ForecastResult, note?: string): Record<string, unknown> {
  return {
    workload: f.workload,
    host: legacyHostOf(f.workload),
    metric: f.metric,
    horizon: f.horizonMinutes,
    current: r4(f.current),
    trend: f.trend,
    confidence: r3(f.confidence),
    warming_up: f.warmingUp,
    timestamp: iso(f.timeMs),
    models: f.models.map((m) => ({ name: m.name, weight: r4(m.weight), mean: r4(m.mean) })),
    points: f.points.map((p) => ({
      offset_minutes: p.offsetMinutes,
      mean: r4(p.mean),
      lower_80: r4(p.lower80),
      upper_80: r4(p.upper80),
      lower_95: r4(p.lower95),
      upper_95: r4(p.upper95),
    })),
    ...(note === undefined ? {} : { note }),
  };
}
