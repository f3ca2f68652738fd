import { expect } from 'chai';
import { diagnose, targetLine, type DiagnosisInput, type InputTrend } from '../../../api-server/src/analysis/explain/diagnosis.js';
import { DEFAULT_FAILURE_EDGES, earliestInputEta, failureEtaSeconds } from '../../../api-server/src/analysis/explain/failure-eta.js';
import { buildNarrative } from '../../../api-server/src/analysis/explain/narrative.js';
import { edgesOf, ObjectiveTable } from '../../../api-server/src/analysis/objectives/objective-edges.js';
import type { SignalReading } from '../../../api-server/src/analysis/contract.js';
import { SIGNAL_NAMES, type SignalName } from '../../../api-server/src/model/signals.js';
import { diagnosisInput, flat, trend } from '../../support/diagnosis-fixtures.js';

function input(trends: InputTrend[], edges?: DiagnosisInput['edges']): DiagnosisInput {
  return diagnosisInput({ trends, ...(edges === undefined ? {} : { edges }) });
}

describe('failure objectives: the level the ETA aims at', () => {
  it('edges of one objective: the given inputs, latency normalised as its samples (clamp(ms/600)), the rest the fixed edges', () => {
    const e = edgesOf({ selector: '*', error_rate: 0.15, latency_ms: 450 });
    // 450 / 600 = 0.75
    expect(e.level).to.deep.equal({ memory: 1, cpu: 1, latency: 0.75, error_rate: 0.15 });
    expect(e.objective).to.deep.equal({ memory: false, cpu: false, latency: true, error_rate: true });
    // 900 ms is above the normalisation's ceiling (600 ms): the ceiling
    expect(edgesOf({ selector: '*', latency_ms: 900, memory: 0.9 }).level).to.deep.equal({ memory: 0.9, cpu: 1, latency: 1, error_rate: 0.25 });
    expect(edgesOf(undefined)).to.equal(DEFAULT_FAILURE_EDGES);
  });

  it('selector rules of the weight overrides: first match wins, no match keeps the fixed edges', () => {
    const table = new ObjectiveTable([
      { selector: 'shop/Deployment/cart', error_rate: 0.1 },
      { selector: 'shop/*', error_rate: 0.2 },
      { selector: '*', memory: 0.9 },
    ]);
    expect(table.edgesFor('shop/Deployment/cart').level.error_rate).to.equal(0.1);
    expect(table.edgesFor('shop/Deployment/basket').level.error_rate).to.equal(0.2);
    expect(table.edgesFor('pay/Deployment/api').level).to.deep.equal({ memory: 0.9, cpu: 1, latency: 1, error_rate: 0.25 });
    // `shop/*` is a namespace prefix, not a name prefix
    expect(table.edgesFor('shopping/Deployment/x').level.error_rate).to.equal(0.25);
    expect(new ObjectiveTable().edgesFor('shop/Deployment/cart')).to.equal(DEFAULT_FAILURE_EDGES);
  });

  it('ETA with and without an objective: error rate 9 % rising 16 %/h reaches 15 % in 1350 s, 25 % in 3600 s', () => {
    // slope 0.08 / 1800 s = 4.444e-5 /s; (0.15 − 0.09) / 4.444e-5 = 1350; (0.25 − 0.09) / 4.444e-5 = 3600
    const slope = 0.08 / 1800;
    const edges = edgesOf({ selector: '*', error_rate: 0.15 });
    expect(failureEtaSeconds('error_rate', 0.09, slope, edges)).to.be.within(1349, 1350);
    expect(failureEtaSeconds('error_rate', 0.09, slope)).to.be.within(3599, 3600);
    // at or past the objective: now
    expect(failureEtaSeconds('error_rate', 0.16, slope, edges)).to.equal(0);
    // cpu 50 % rising 2e-4 /s: to an 80 % objective (0.3 / 2e-4 =) 1500 s, to 100 % 2500 s
    expect(earliestInputEta([{ input: 'cpu', last: 0.5, stableSlope: 2e-4 }], undefined, edgesOf({ selector: '*', cpu: 0.8 }))).to.equal(1500);
    expect(earliestInputEta([{ input: 'cpu', last: 0.5, stableSlope: 2e-4 }])).to.equal(2500);
  });

  it('the diagnosis ETA and its target: error creep to an objective, latency burn to an objective in ms', () => {
    const creep = [flat('memory', 0.4), flat('cpu', 0.3), flat('latency', 0.1), trend('error_rate', 0.01, 0.09, 1800)];
    const withObjective = diagnose(input(creep, edgesOf({ selector: '*', error_rate: 0.15 })));
    expect(withObjective.kind).to.equal('error-creep');
    expect(withObjective.etaSeconds).to.be.within(1349, 1350);
    expect(withObjective.etaTarget).to.deep.include({ input: 'error_rate', level: 0.15, objective: true });
    expect(targetLine(withObjective.etaTarget!)).to.equal('error rate 9 % → objective 15 %');
    const fixed = diagnose(input(creep));
    expect(fixed.etaSeconds).to.be.within(3599, 3600);
    expect(targetLine(fixed.etaTarget!)).to.equal('error rate 9 % → edge 25 %');
    // latency 120 ms → 300 ms in 30 min (0.2 → 0.5): slope 0.3 / 1800 = 1.667e-4 /s;
    // to 450 ms (0.75): 0.25 / 1.667e-4 = 1500 s; to the 600 ms edge: 0.5 / 1.667e-4 = 3000 s
    const burn = [flat('memory', 0.4), flat('cpu', 0.3), trend('latency', 0.2, 0.5, 1800), flat('error_rate', 0.01)];
    const l = diagnose(input(burn, edgesOf({ selector: '*', latency_ms: 450 })));
    expect(l.kind).to.equal('latency-burn');
    expect(l.etaSeconds).to.be.within(1499, 1500);
    expect(targetLine(l.etaTarget!)).to.equal('latency 300 ms → objective 450 ms');
    expect(diagnose(input(burn)).etaSeconds).to.be.within(2999, 3000);
  });

  it('an input standing at its objective for the whole window is named (it has failed by the team’s own measure)', () => {
    // latency flat at 480 ms (0.8): no rise, under the 600 ms edge; with a 450 ms objective it has failed
    const pinned = [flat('memory', 0.4), flat('cpu', 0.3), flat('latency', 0.8), flat('error_rate', 0.01)];
    expect(diagnose(input(pinned)).kind).to.equal('undetermined');
    const d = diagnose(input(pinned, edgesOf({ selector: '*', latency_ms: 450 })));
    expect(d).to.include({ kind: 'latency-burn', factor: 'latency', etaSeconds: 0 });
  });

  it('the narrative says what the ETA aims at', () => {
    const creep = [flat('memory', 0.4), flat('cpu', 0.3), flat('latency', 0.1), trend('error_rate', 0.01, 0.09, 1800)];
    const d = diagnose(input(creep, edgesOf({ selector: '*', error_rate: 0.15 })));
    const signals = {} as Record<SignalName, SignalReading>;
    for (const s of SIGNAL_NAMES) signals[s] = { value: 0, state: 'calm' };
    const text = buildNarrative({
      name: 'cart',
      fusedR: 3,
      confidence: null,
      signals,
      contagionSources: [],
      metricR: 3,
      logR: null,
      traceR: null,
      primaryPipeline: 'metric',
      alphaBurst: 0,
      alphaStable: 0,
      recommendation: null,
      ttfSeconds: 1350,
      diagnosis: d,
    });
    // 1350 s = 22.5 min, floored
    expect(text).to.contain('Estimated time to failure: 22 minutes. Target: error rate 9 % → objective 15 %.');
  });
});
