/**
 * Formula breakdown (analytics.md §8.3) and pipeline attribution (§8.4) of an explain record.
 * Pure; the HTTP layer renders and rounds them. Non-finite numbers of the record are clamped to
 * finite ones on the way out (NaN → 0, ±∞ → ±Number.MAX_VALUE) so the objects always serialise.
 */
import type { ExplainRecord, Pipeline } from '../contract.js';
import { primaryPipeline } from './top-factor.js';
import type { WeightedSignal } from '../../model/signals.js';
import { WEIGHTED_SIGNALS } from '../../model/signals.js';

export interface FormulaBreakdown {
  ruptureId: string;
  primaryMetric: string | null;
  /** per second */
  alphaBurst: number;
  /** per second */
  alphaStable: number;
  metricR: number | null;
  logR: number | null;
  /** form B */
  traceR: number | null;
  /** form A (diagnostic) */
  traceRA: number | null;
  fusionWeights: { metric: number; log: number; trace: number };
  fusedRBeforeCap: number;
  fusedR: number;
  healthWeights: Record<WeightedSignal, number>;
  /** p_k, or the adaptive a_k once calibrated: what health_score used */
  penalties: Record<WeightedSignal, number>;
  /** w_k·p_k */
  weightedPenalties: Record<WeightedSignal, number>;
  ttfSeconds: number;
  confidence: number;
}

export interface PipelineAttribution {
  ruptureId: string;
  metricR: number | null;
  logR: number | null;
  traceR: number | null;
  fusedR: number;
  present: { metric: boolean; log: boolean; trace: boolean };
  /** w_i·R_i with the fusion weights actually used (absent = 0) */
  contributions: { metric: number; log: number; trace: number };
  primaryPipeline: Pipeline;
  timestampMs: number;
}

export function formulaBreakdown(record: ExplainRecord): FormulaBreakdown {
  const s = record.sources;
  const healthWeights = mapWeighted((k) => finite(record.healthWeights[k]));
  const penalties = mapWeighted((k) => finite(record.penalties[k]));
  return {
    ruptureId: record.ruptureId,
    primaryMetric: s.primaryMetric,
    alphaBurst: finite(s.alphaBurst),
    alphaStable: finite(s.alphaStable),
    metricR: finiteOrNull(s.metricR),
    logR: finiteOrNull(s.logR),
    traceR: finiteOrNull(s.traceR),
    traceRA: finiteOrNull(s.traceRA),
    fusionWeights: { metric: finite(record.fusionWeights.metric), log: finite(record.fusionWeights.log), trace: finite(record.fusionWeights.trace) },
    fusedRBeforeCap: finite(record.fusedRBeforeCap),
    fusedR: finite(record.fusedR),
    healthWeights,
    penalties,
    weightedPenalties: mapWeighted((k) => finite(healthWeights[k] * penalties[k])),
    ttfSeconds: finite(record.ttfSeconds),
    confidence: finite(record.confidence),
  };
}

export function pipelineAttribution(record: ExplainRecord): PipelineAttribution {
  const s = record.sources;
  const metricR = finiteOrNull(s.metricR);
  const logR = finiteOrNull(s.logR);
  const traceR = finiteOrNull(s.traceR);
  const w = record.fusionWeights;
  return {
    ruptureId: record.ruptureId,
    metricR,
    logR,
    traceR,
    fusedR: finite(record.fusedR),
    present: { metric: metricR !== null, log: logR !== null, trace: traceR !== null },
    contributions: {
      metric: finite(finite(w.metric) * (metricR ?? 0)),
      log: finite(finite(w.log) * (logR ?? 0)),
      trace: finite(finite(w.trace) * (traceR ?? 0)),
    },
    primaryPipeline: primaryPipeline(metricR, logR, traceR),
    timestampMs: finite(record.updatedAtMs),
  };
}

function mapWeighted(f: (k: WeightedSignal) => number): Record<WeightedSignal, number> {
  const out = {} as Record<WeightedSignal, number>;
  for (const k of WEIGHTED_SIGNALS) out[k] = f(k);
  return out;
}

function finite(x: number): number {
  if (Number.isNaN(x) || x === undefined) return 0;
  if (x === Infinity) return Number.MAX_VALUE;
  if (x === -Infinity) return -Number.MAX_VALUE;
  return x;
}

function finiteOrNull(x: number | null): number | null {
  return x === null ? null : finite(x);
}
