/** Wire forms of the explain routes (api.md §6.9) from an explain record (analytics.md §8). */
import type { ExplainRecord, Pipeline } from '../../analysis/contract.js';
import { targetLine, type Diagnosis } from '../../analysis/explain/diagnosis.js';
import { parseWorkloadKey } from '../../model/workload-key.js';

const r3 = (x: number): number => Math.round(x * 1000) / 1000;
const r4 = (x: number): number => Math.round(x * 10000) / 10000;
const iso = (ms: number): string => new Date(ms).toISOString();

function workloadRef(key: string): { namespace: string; kind: string; name: string } {
  return parseWorkloadKey(key) ?? { namespace: 'default', kind: 'host', name: key };
}

/**
 * What moved (explain/diagnosis.ts) and which model gave the ETA; null on records saved before
 * diagnoses existed.
 */
export function diagnosisJson(rec: ExplainRecord): Record<string, unknown> | null {
  const d = rec.diagnosis;
  if (d === undefined) return null;
  return {
    kind: d.kind,
    factor: d.factor,
    summary: d.summary,
    dependency: d.dependency,
    traffic_rising: d.trafficRising,
    after_deploy: d.afterDeploy,
    deploy: d.deploy === null ? null : { event: d.deploy.event, description: d.deploy.description, minutes_before: d.deploy.minutesBefore },
    projected_30min: d.projected30Min === null ? null : r3(d.projected30Min),
    eta_seconds: Math.floor(rec.ttfSeconds),
    eta_basis: rec.etaBasis ?? 'none',
    eta_target: etaTargetJson(d),
  };
}

/** what the input-trend ETA aims at (docs/diagnosis.md "Failure objectives"), null otherwise */
function etaTargetJson(d: Diagnosis): Record<string, unknown> | null {
  const t = d.etaTarget;
  if (t === undefined || t === null || d.etaSeconds === null) return null;
  return { input: t.input, value: r4(t.value), level: r4(t.level), source: t.objective ? 'objective' : 'edge', text: targetLine(t) };
}

export function explainTraceJson(rec: ExplainRecord): Record<string, unknown> {
  return {
    rupture_id: rec.ruptureId,
    workload: workloadRef(rec.workload),
    fused_rupture_index: r3(rec.fusedR),
    state: rec.state,
    model_contributions: Object.fromEntries(
      Object.entries(rec.modelContributions).map(([name, c]) => [name, { weight: r4(c.weight), prediction: r3(c.prediction) }]),
    ),
    top_factor: rec.topFactor,
    top_signal: rec.topSignal ?? rec.topFactor,
    diagnosis: diagnosisJson(rec),
    signal_values: Object.fromEntries(Object.entries(rec.signalValues).map(([s, v]) => [s, r4(v)])),
    primary_pipeline: rec.primaryPipeline,
    confidence: r3(rec.confidence),
    peak_fused_rupture_index: r3(rec.peakFusedR),
    started_at: iso(rec.openedAtMs),
    updated_at: iso(rec.updatedAtMs),
    ended_at: rec.closedAtMs === null ? null : iso(rec.closedAtMs),
    narrative: rec.narrative,
  };
}

function presentSources(rec: ExplainRecord): Pipeline[] {
  const list: Pipeline[] = [];
  if (rec.sources.metricR !== null) list.push('metric');
  if (rec.sources.logR !== null) list.push('log');
  if (rec.sources.traceR !== null) list.push('trace');
  return list;
}

function formulaText(rec: ExplainRecord): string {
  const w = rec.fusionWeights;
  const terms: string[] = [];
  if (w.metric > 0) terms.push(`${w.metric}*metricR`);
  if (w.log > 0) terms.push(`${w.log}*logR`);
  if (w.trace > 0) terms.push(`${w.trace}*traceR`);
  return terms.length === 0 ? 'FusedR = 0 (fewer than two sources: metricR plus logR or traceR)' : `FusedR = min(10, ${terms.join(' + ')})`;
}

export function explainFormulaJson(rec: ExplainRecord): Record<string, unknown> {
  const s = rec.sources;
  return {
    rupture_id: rec.ruptureId,
    workload: workloadRef(rec.workload),
    timestamp: iso(rec.updatedAtMs),
    formula: formulaText(rec),
    primary_metric: s.primaryMetric,
    alpha_burst: s.alphaBurst,
    alpha_stable: s.alphaStable,
    metric_r: s.metricR === null ? null : r3(s.metricR),
    log_r: s.logR === null ? null : r3(s.logR),
    trace_r: s.traceR === null ? null : r3(s.traceR),
    trace_r_a: s.traceRA === null ? null : r3(s.traceRA),
    fusion: {
      sources: presentSources(rec),
      weights: rec.fusionWeights,
      fused_r_raw: r3(rec.fusedRBeforeCap),
      fused_r: r3(rec.fusedR),
      capped: rec.fusedRBeforeCap > 10,
    },
    health: {
      weights: Object.fromEntries(Object.entries(rec.healthWeights).map(([k, v]) => [k, r4(v)])),
      penalties: Object.fromEntries(Object.entries(rec.penalties).map(([k, v]) => [k, r4(v)])),
      // rupture episodes open only on calibrated steps (analytics.md §6), so penalties are adaptive
      adaptive: true,
    },
    diagnosis: diagnosisJson(rec),
    top_factor: rec.topFactor,
    top_signal: rec.topSignal ?? rec.topFactor,
    ttf_seconds: rec.ttfSeconds,
    confidence: r3(rec.confidence),
  };
}

export function explainPipelineJson(rec: ExplainRecord): Record<string, unknown> {
  const s = rec.sources;
  const entry = (r: number | null, weight: number) => ({
    r: r === null ? 0 : r3(r),
    present: r !== null,
    weight,
    contribution: r === null ? 0 : r3(r * weight),
  });
  return {
    rupture_id: rec.ruptureId,
    workload: workloadRef(rec.workload),
    timestamp: iso(rec.updatedAtMs),
    primary_pipeline: rec.primaryPipeline,
    metric_r: s.metricR === null ? 0 : r3(s.metricR),
    log_r: s.logR === null ? 0 : r3(s.logR),
    trace_r: s.traceR === null ? 0 : r3(s.traceR),
    fused_r: r3(rec.fusedR),
    pipelines: {
      metric: entry(s.metricR, rec.fusionWeights.metric),
      log: entry(s.logR, rec.fusionWeights.log),
      trace: entry(s.traceR, rec.fusionWeights.trace),
    },
  };
}

export function explainNarrativeJson(rec: ExplainRecord): Record<string, unknown> {
  return {
    narrative: rec.narrative,
    severity: rec.state,
    primary_pipeline: rec.primaryPipeline,
    top_factor: rec.topFactor,
    ttf_seconds: Math.floor(rec.ttfSeconds),
    diagnosis: diagnosisJson(rec),
    // the rule-table recommendation of the step (null: nothing yet)
    recommendation: rec.recommendation === null ? null : { type: rec.recommendation.type, params: rec.recommendation.params, tier: rec.recommendation.tier, text: rec.recommendation.text },
  };
}
