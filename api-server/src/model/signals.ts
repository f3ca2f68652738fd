/**
 * The analysis's vocabulary of signals and sources, in one place (analytics.md §3, §4.3): the ten
 * KPI signal names, the six that carry health_score weights, and the FusedR weights of the
 * sources present. Every api-server module that names a signal or a fusion weight reads it here
 * (the dashboard keeps a copy, checked against this one by test/unit/model/signals.test.ts).
 */

/** the ten KPI signals of a workload snapshot, in snapshot order */
export const SIGNAL_NAMES = ['stress', 'fatigue', 'mood', 'pressure', 'humidity', 'contagion', 'resilience', 'entropy', 'velocity', 'health_score'] as const;
export type SignalName = (typeof SIGNAL_NAMES)[number];

/** the six signals that carry health_score weights, in weight-table order */
export const WEIGHTED_SIGNALS = ['stress', 'fatigue', 'mood', 'pressure', 'humidity', 'contagion'] as const satisfies readonly SignalName[];
export type WeightedSignal = (typeof WEIGHTED_SIGNALS)[number];

/** the signals a KPI history point holds beside FusedR and health (every one but health_score) */
export type KpiSignalName = Exclude<SignalName, 'health_score'>;
export const KPI_HISTORY_SIGNALS: readonly KpiSignalName[] = SIGNAL_NAMES.filter((s): s is KpiSignalName => s !== 'health_score');

/** the weight of each source in FusedR */
export interface FusionWeights {
  metric: number;
  log: number;
  trace: number;
}

/**
 * FusedR = min(10, weighted sum of the present ratios) with these weights (§4.3); metric absent,
 * or metric alone, weighs nothing (FusedR 0)
 */
export const FUSED_R_WEIGHTS = {
  metricLogTrace: { metric: 0.6, log: 0.2, trace: 0.2 },
  metricLog: { metric: 0.75, log: 0.25, trace: 0 },
  metricTrace: { metric: 0.75, log: 0, trace: 0.25 },
  none: { metric: 0, log: 0, trace: 0 },
} as const satisfies Record<string, Readonly<FusionWeights>>;

/** the FusedR weights for the sources present (a source is null when absent) */
export function fusionWeightsFor(metricR: number | null, logR: number | null, traceR: number | null): Readonly<FusionWeights> {
  if (metricR !== null && logR !== null && traceR !== null) return FUSED_R_WEIGHTS.metricLogTrace;
  if (metricR !== null && logR !== null) return FUSED_R_WEIGHTS.metricLog;
  if (metricR !== null && traceR !== null) return FUSED_R_WEIGHTS.metricTrace;
  return FUSED_R_WEIGHTS.none;
}
