import { expect } from 'chai';
import { explainFormulaJson, explainNarrativeJson, explainPipelineJson, explainTraceJson } from '../../../../api-server/src/http/render/explain-json.js';
import { explainOf, snapshotOf } from '../../../support/analysis-fixtures.js';

const snapshot = snapshotOf('shop/Deployment/cart', {
  timeMs: Date.UTC(2026, 10, 27),
  fusedR: 4.56789,
  sources: { metricR: 5.12345, logR: 2.5, traceR: null, traceRA: null, primaryMetric: 'cpu', alphaBurst: 0.01, alphaStable: 0.001 },
});

describe('http/render/explain-json: the explain routes', () => {
  it('writes the formula of the present sources only, and the no-fusion text without two sources', () => {
    expect(explainFormulaJson(explainOf(snapshot)).formula).to.equal('FusedR = min(10, 0.75*metricR + 0.25*logR)');
    expect(explainFormulaJson(explainOf(snapshot, { fusionWeights: { metric: 0.5, log: 0.25, trace: 0.25 } })).formula).to.equal(
      'FusedR = min(10, 0.5*metricR + 0.25*logR + 0.25*traceR)',
    );
    expect(explainFormulaJson(explainOf(snapshot, { fusionWeights: { metric: 0, log: 0, trace: 0 } })).formula).to.equal(
      'FusedR = 0 (fewer than two sources: metricR plus logR or traceR)',
    );
  });

  it('lists the present sources, rounds ratios to 3 places and marks a capped FusedR', () => {
    const json = explainFormulaJson(explainOf(snapshot, { fusedR: 10, fusedRBeforeCap: 12.34567 }));
    expect(json).to.deep.include({ metric_r: 5.123, log_r: 2.5, trace_r: null, trace_r_a: null, primary_metric: 'cpu', timestamp: '2026-11-27T00:00:00.000Z' });
    expect(json.fusion).to.deep.equal({ sources: ['metric', 'log'], weights: { metric: 0.75, log: 0.25, trace: 0 }, fused_r_raw: 12.346, fused_r: 10, capped: true });
    expect((explainFormulaJson(explainOf(snapshot, { fusedRBeforeCap: 10 })).fusion as { capped: boolean }).capped).to.equal(false);
  });

  it('gives each pipeline its ratio, presence, weight and contribution = ratio × weight; an absent one 0', () => {
    const json = explainPipelineJson(explainOf(snapshot));
    expect(json.pipelines).to.deep.equal({
      metric: { r: 5.123, present: true, weight: 0.75, contribution: 3.843 }, // 5.12345 × 0.75 = 3.8425875
      log: { r: 2.5, present: true, weight: 0.25, contribution: 0.625 },
      trace: { r: 0, present: false, weight: 0, contribution: 0 },
    });
    expect(json).to.deep.include({ metric_r: 5.123, log_r: 2.5, trace_r: 0, fused_r: 4.568 });
  });

  it('renders the trace with the parsed workload, ISO times and a null end while open', () => {
    const open = explainTraceJson(explainOf(snapshot));
    expect(open).to.deep.include({ workload: { namespace: 'shop', kind: 'Deployment', name: 'cart' }, fused_rupture_index: 4.568, ended_at: null, started_at: '2026-11-27T00:00:00.000Z' });
    const closed = explainTraceJson(explainOf(snapshot, { closedAtMs: Date.UTC(2026, 10, 27, 0, 5) }));
    expect(closed.ended_at).to.equal('2026-11-27T00:05:00.000Z');
    expect(explainTraceJson(explainOf(snapshotOf('legacy-host'))).workload).to.deep.equal({ namespace: 'default', kind: 'host', name: 'legacy-host' });
  });

  it('floors the narrative\'s time to failure to whole seconds', () => {
    expect(explainNarrativeJson(explainOf(snapshot, { ttfSeconds: 599.9 }))).to.deep.include({ ttf_seconds: 599, severity: 'critical', primary_pipeline: 'metric', top_factor: 'stress' });
  });

  it('says what the ETA aims at: the objective or the fixed edge, null when the ETA is not the input\'s', () => {
    const diagnosis = {
      kind: 'error-creep' as const,
      factor: 'error_rate',
      summary: 'error rate 1 % → 9 % in 30 min, +16 %/h',
      dependency: null,
      trafficRising: false,
      afterDeploy: false,
      deploy: null,
      etaSeconds: 1350,
      projected30Min: 0.17,
      etaTarget: { input: 'error_rate' as const, value: 0.09, level: 0.15, objective: true },
    };
    const rec = explainOf(snapshot, { ttfSeconds: 1350, diagnosis, etaBasis: 'input-trend' });
    const expected = { input: 'error_rate', value: 0.09, level: 0.15, source: 'objective', text: 'error rate 9 % → objective 15 %' };
    expect((explainNarrativeJson(rec)['diagnosis'] as Record<string, unknown>)['eta_target']).to.deep.equal(expected);
    expect((explainFormulaJson(rec)['diagnosis'] as Record<string, unknown>)['eta_target']).to.deep.equal(expected);
    const edge = explainTraceJson(explainOf(snapshot, { diagnosis: { ...diagnosis, etaTarget: { ...diagnosis.etaTarget, level: 0.25, objective: false } } }));
    expect((edge['diagnosis'] as Record<string, unknown>)['eta_target']).to.deep.include({ source: 'edge', text: 'error rate 9 % → edge 25 %' });
    const none = explainTraceJson(explainOf(snapshot, { diagnosis: { ...diagnosis, etaSeconds: null } }));
    expect((none['diagnosis'] as Record<string, unknown>)['eta_target']).to.equal(null);
  });
});
