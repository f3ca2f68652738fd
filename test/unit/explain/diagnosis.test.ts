import { expect } from 'chai';
import fc from 'fast-check';
import { diagnose, trendLine, type InputTrend } from '../../../api-server/src/analysis/explain/diagnosis.js';
import { diagnosisInput, flat, trend } from '../../support/diagnosis-fixtures.js';

const input = diagnosisInput;

describe('diagnosis: the input that moved', () => {
  it('memory leak: memory 62 % → 91 % in 40 min at +43 %/h, failing in 753 s', () => {
    // slope 0.43/h = 1.19444e-4 /s; from = 0.91 − slope·2400 = 0.62333; ETA (1 − 0.91)/1.19444e-4 = 753.5 s
    const slope = 0.43 / 3600;
    const memory: InputTrend = { input: 'memory', from: 0.91 - slope * 2400, to: 0.91, spanSeconds: 2400, slopePerSecond: slope, burstSlopePerSecond: slope, robustSlopePerSecond: Number.NaN };
    const d = diagnose(input({ trends: [memory, flat('cpu', 0.3), flat('latency', 0.1), flat('error_rate', 0.01)] }));
    expect(d.kind).to.equal('memory-leak');
    expect(d.factor).to.equal('memory');
    expect(d.summary).to.equal('memory 62 % → 91 % in 40 min, +43 %/h');
    expect(d.etaSeconds).to.equal(753);
    // 0.91 + 1.19444e-4·1800 = 1.125
    expect(d.projected30Min).to.be.closeTo(1.125, 1e-9);
  });

  it('memory leak that also raises errors (the sim pattern) is still the leak: causes before symptoms', () => {
    // memory 0.1 → 1.0: score 0.9/0.2 = 4.5; errors 0 → 0.2: score 0.2/0.05 = 4 ≥ 4.5/2 but memory comes first
    const d = diagnose(input({ trends: [trend('memory', 0.1, 1, 225), flat('cpu', 0.25), trend('latency', 0.05, 0.27, 225), trend('error_rate', 0, 0.2, 225)] }));
    expect(d.kind).to.equal('memory-leak');
    expect(d.etaSeconds).to.equal(0);
  });

  it('a leak at its failure point is still the leak when its out-of-memory errors rose faster (saturation first)', () => {
    // memory 0.85 → 0.99 in 8 min: score 0.14/0.2 = 0.7; errors 0 → 0.17: score 3.4. Without the
    // saturation rule the cause would be error_rate (memory's 0.7 < 3.4/2); memory at 0.99 ≥ 0.9 rose: the leak
    const d = diagnose(input({ trends: [trend('memory', 0.85, 0.99, 480), flat('cpu', 0.3), flat('latency', 0.1), trend('error_rate', 0, 0.17, 480)] }));
    expect(d).to.include({ kind: 'memory-leak', factor: 'memory' });
    // a flat memory at 0.95 (no rise) is not named: the errors are
    const e = diagnose(input({ trends: [flat('memory', 0.95), flat('cpu', 0.3), flat('latency', 0.1), trend('error_rate', 0, 0.17, 480)] }));
    expect(e).to.include({ kind: 'error-creep', factor: 'error_rate' });
  });

  it('error creep: error rate 1 % → 9 % in 30 min, +16 %/h, 3600 s to the 25 % edge', () => {
    // slope 0.08/1800 = 4.444e-5 /s = 0.16/h; ETA (0.25 − 0.09)/4.444e-5 = 3600 s
    const d = diagnose(input({ trends: [flat('memory', 0.4), flat('cpu', 0.3), flat('latency', 0.1), trend('error_rate', 0.01, 0.09, 1800)] }));
    expect(d).to.include({ kind: 'error-creep', factor: 'error_rate', summary: 'error rate 1 % → 9 % in 30 min, +16 %/h', etaSeconds: 3600 });
  });

  it('latency burn: latency 120 ms → 360 ms in 40 min, +360 ms/h, 2400 s to 600 ms', () => {
    // normalised 0.2 → 0.6 (× 600 ms); slope 0.4/2400 /s = 0.6/h = 360 ms/h; ETA (1 − 0.6)/(0.4/2400) = 2400 s
    const d = diagnose(input({ trends: [flat('memory', 0.4), flat('cpu', 0.3), trend('latency', 0.2, 0.6, 2400), trend('error_rate', 0, 0.03, 2400)] }));
    expect(d).to.include({ kind: 'latency-burn', factor: 'latency', summary: 'latency 120 ms → 360 ms in 40 min, +360 ms/h', etaSeconds: 2400 });
  });

  it('CPU saturation under rising traffic: cpu 40 % → 85 % in 30 min with request rate +80 %', () => {
    // cpu score 0.45/0.2 = 2.25; memory 0.3 → 0.45 scores 0.75 < 1.125; slope 2.5e-4 /s = 90 %/h; ETA 0.15/2.5e-4 = 600 s
    const d = diagnose(input({ trends: [trend('memory', 0.3, 0.45, 1800), trend('cpu', 0.4, 0.85, 1800), flat('latency', 0.1), flat('error_rate', 0.01)], requestRate: trend('request_rate', 100, 180, 1800) }));
    expect(d).to.include({ kind: 'cpu-saturation', factor: 'cpu', summary: 'cpu 40 % → 85 % in 30 min, +90 %/h', etaSeconds: 600, trafficRising: true });
    // 0.85 + 2.5e-4·1800 = 1.3 (demand beyond the limit)
    expect(d.projected30Min).to.be.closeTo(1.3, 1e-9);
    // the sim's traffic surge: memory 0.3 → 0.7 scores 2, cpu 0.2 → 0.8 scores 3; memory grows with the load
    const surge = diagnose(input({ trends: [trend('memory', 0.3, 0.7, 120), trend('cpu', 0.2, 0.8, 120), flat('latency', 0.1)], requestRate: trend('request_rate', 50, 150, 120) }));
    expect(surge.kind).to.equal('cpu-saturation');
    const quiet = diagnose(input({ trends: [trend('cpu', 0.4, 0.85, 1800)], requestRate: trend('request_rate', 100, 110, 1800) }));
    expect(quiet.trafficRising).to.equal(false);
  });

  it('crash loop: the restart counter rose by 3 in 20 min', () => {
    const d = diagnose(input({ restarts: { input: 'restarts', from: 2, to: 5, spanSeconds: 1200, slopePerSecond: 0.0025, burstSlopePerSecond: 0, robustSlopePerSecond: Number.NaN } }));
    expect(d).to.include({ kind: 'crash-loop', factor: 'restarts', summary: '3 restarts in 20 min', etaSeconds: 0 });
    // no restart counter: the uptime series dropped once
    expect(diagnose(input({ uptimeResets: 1, trends: [trend('error_rate', 0.001, 0.5, 60)] }))).to.include({ kind: 'crash-loop', summary: '1 restart in the last hour' });
  });

  it('failing dependency: the edge whose error share rose most above its own baseline is named', () => {
    const edge = (service: string, errorRate: number, calls: number, baselineErrorRate: number | null, baselineCalls: number) => ({ service, errorRate, calls, baselineErrorRate, baselineCalls });
    const downstream = [
      // 5 % → 9 %: rise 0.04 < 0.05
      edge('ledger', 0.09, 900, 0.05, 5000),
      // 0.2 % → 35 % over 200 calls: rise 0.348, z = 0.348 / √(0.01·0.99/200) = 49.5
      edge('payments', 0.35, 200, 0.002, 3000),
      // 0.2 % → 30 %: rise 0.298, smaller
      edge('fraud', 0.3, 500, 0.002, 3000),
    ];
    const d = diagnose(input({ downstream, trends: [flat('memory', 0.4), trend('error_rate', 0.01, 0.2, 1200)] }));
    expect(d).to.include({ kind: 'failing-dependency', factor: 'dependency:payments', dependency: 'payments', summary: 'calls to payments fail at 35 % (200 calls in 5 min; 0.2 % before)' });
    // an edge that always failed 30 % of its calls did not start failing: the workload's own errors are named
    expect(diagnose(input({ downstream: [edge('legacy', 0.32, 400, 0.3, 4000)], trends: [trend('error_rate', 0.01, 0.2, 1200)] })).kind).to.equal('error-creep');
    // 1 % → 8 % over 40 calls: rise 0.07 ≥ 0.05 but z = 0.07 / √(0.01·0.99/40) = 4.45 ≥ 3: failing; over 10 calls too few
    expect(diagnose(input({ downstream: [edge('cache', 0.08, 40, 0.01, 4000)] })).kind).to.equal('failing-dependency');
    expect(diagnose(input({ downstream: [edge('cache', 0.3, 10, 0.01, 4000)] })).kind).to.equal('undetermined');
    // 20 % → 26 % over 60 calls: rise 0.06, z = 0.06 / √(0.2·0.8/60) = 1.16 < 3: noise, not a failure
    expect(diagnose(input({ downstream: [edge('search', 0.26, 60, 0.2, 4000)] })).kind).to.equal('undetermined');
    // a new edge without a baseline (< 50 calls of history): ≥ 10 % fails it, 9 % does not
    expect(diagnose(input({ downstream: [edge('new', 0.1, 30, null, 0)] })).kind).to.equal('failing-dependency');
    expect(diagnose(input({ downstream: [edge('new', 0.09, 900, 0.5, 40)] })).kind).to.equal('undetermined');
  });

  it('a failing dependency is preferred over the errors and latency it causes, not over a resource it does not explain', () => {
    const payments = { service: 'payments', errorRate: 0.4, calls: 300, baselineErrorRate: 0.001, baselineCalls: 3000 };
    // the workload's latency and errors rose (rule 3 alone would name latency): the dependency
    const symptoms = diagnose(input({ downstream: [payments], trends: [flat('memory', 0.4), trend('latency', 0.1, 0.5, 1200), trend('error_rate', 0.01, 0.3, 1200)] }));
    expect(symptoms.kind).to.equal('failing-dependency');
    // memory rose to 95 %: the leak is named, the edge's rise (0.399) is more than half the errors' rise (0.3 / 2) though: it explains the errors
    expect(diagnose(input({ downstream: [payments], trends: [trend('memory', 0.5, 0.95, 1200), trend('error_rate', 0.01, 0.3, 1200)] })).kind).to.equal('failing-dependency');
    // the errors rose 0.9 (the edge's 0.399 is less than half of it): the leak, not the dependency
    expect(diagnose(input({ downstream: [payments], trends: [trend('memory', 0.5, 0.95, 1200), trend('error_rate', 0.01, 0.91, 1200)] })).kind).to.equal('memory-leak');
    // the leak with flat errors: the leak
    expect(diagnose(input({ downstream: [payments], trends: [trend('memory', 0.5, 0.95, 1200), flat('error_rate', 0.01)] })).kind).to.equal('memory-leak');
  });

  it('undetermined when nothing moved a whole swing; falling inputs never count', () => {
    expect(diagnose(input({ trends: [trend('memory', 0.4, 0.55, 3600), trend('error_rate', 0.01, 0.05, 3600)] }))).to.include({ kind: 'undetermined', factor: null, etaSeconds: null });
    // memory fell 0.9 → 0.3 (a restart): not a leak
    expect(diagnose(input({ trends: [trend('memory', 0.9, 0.3, 600)] })).kind).to.equal('undetermined');
  });

  it('before any input moved a whole swing, metricR\'s primary input names the cause if it rose', () => {
    // memory 0.10 → 0.16: score 0.3, but its slope is the one that broke away
    const early = input({ trends: [trend('memory', 0.1, 0.16, 15), flat('cpu', 0.25)], primaryMetric: 'memory' });
    expect(diagnose(early)).to.include({ kind: 'memory-leak', factor: 'memory', summary: 'memory 10 % → 16 % in 15 s, +1440 %/h' });
    expect(diagnose({ ...early, primaryMetric: 'cpu' }).kind).to.equal('undetermined');
    // another input rose more (cpu 0.2 → 0.29 scores 0.45 against memory's 0.3): not named early
    expect(diagnose({ ...early, trends: [trend('memory', 0.1, 0.16, 15), trend('cpu', 0.2, 0.29, 15)] }).kind).to.equal('undetermined');
  });

  it('a noisy input whose latest sample fell back still counts the rise of its robust line', () => {
    // error rate trough 1 %, latest sample 4 % (rise 0.03: score 0.6), but its Theil-Sen line rises 14 %/h over a 30-min climb: 0.07, score 1.4
    const noisy: InputTrend = { input: 'error_rate', from: 0.01, to: 0.04, spanSeconds: 2400, slopePerSecond: 0.03 / 2400, burstSlopePerSecond: -1e-5, robustSlopePerSecond: 0.14 / 3600 };
    const d = diagnose(input({ trends: [flat('memory', 0.4), flat('cpu', 0.3), flat('latency', 0.1), noisy] }));
    expect(d).to.include({ kind: 'error-creep', factor: 'error_rate' });
    // the ETA takes the robust slope: (0.25 − 0.04) / (0.14/3600) = 5400 s (floored: 5399.99… in floating point)
    expect(d.etaSeconds).to.be.within(5399, 5400);
    expect(diagnose(input({ trends: [{ ...noisy, robustSlopePerSecond: Number.NaN }] })).kind).to.equal('undetermined');
  });

  it('an input pinned at its failure edge for the whole window is named when nothing rose', () => {
    // latency at its 600 ms ceiling for the hour: the trough is the latest value, no rise, ETA now
    const d = diagnose(input({ trends: [flat('memory', 0.4), flat('cpu', 0.3), flat('latency', 1), flat('error_rate', 0.01)] }));
    expect(d).to.include({ kind: 'latency-burn', factor: 'latency', etaSeconds: 0 });
    // below the edge it is not
    expect(diagnose(input({ trends: [flat('latency', 0.99)] })).kind).to.equal('undetermined');
  });

  it('notes a deploy and rising traffic as context', () => {
    const deploy = { event: 'deploy', description: 'v2.3.1', minutesBefore: 4 };
    const d = diagnose(input({ deploy, trends: [trend('error_rate', 0.01, 0.09, 1800)] }));
    expect(d).to.include({ kind: 'error-creep', afterDeploy: true });
    expect(d.deploy).to.deep.equal(deploy);
  });

  it('trend lines are finite text for any input (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom('memory', 'cpu', 'latency', 'error_rate'), fc.double(), fc.double(), fc.double(), (name, from, to, span) => {
        const line = trendLine({ input: name, from, to, spanSeconds: span, slopePerSecond: (to - from) / span, burstSlopePerSecond: 0, robustSlopePerSecond: Number.NaN });
        expect(line).to.not.match(/NaN|Infinity/);
      }),
    );
  });
});
