import { expect } from 'chai';
import { AnalysisCoreImpl } from '../../../api-server/src/analysis/analysis-core.js';
import type { StepOutput } from '../../../api-server/src/analysis/contract.js';
import { bucketTelemetry, type GeneratorOptions } from './workload-generator.js';

const ORIGIN = 1_700_000_000_000 - (1_700_000_000_000 % 15_000);
const hexIds = (): (() => string) => {
  let n = 0;
  return () => (n++).toString(16).padStart(12, '0');
};

function run(core: AnalysisCoreImpl, o: GeneratorOptions, buckets: number): StepOutput[] {
  const outs: StepOutput[] = [];
  for (let b = 0; b < buckets; b++) {
    const t = bucketTelemetry(o, b, ORIGIN);
    t.metrics.forEach((m) => core.observeMetric(m));
    t.logs.forEach((l) => core.observeLog(l));
    t.spans.forEach((s) => core.observeSpan(s));
    outs.push(core.step(ORIGIN + (b + 2) * 15_000));
  }
  return outs;
}

describe('analysis context events, suppressions and weight overrides', function () {
  this.timeout(120_000);
  const o: GeneratorOptions = { key: 'shop/Deployment/rupture', withLogs: true, withTraces: true, ruptureFromBucket: 120 };
  const ruptureMs = ORIGIN + 120 * 15_000;

  it('a context event opens a quiet period: no band event, anomalies without consensus, FusedR as usual', () => {
    const plain = run(new AnalysisCoreImpl({ newHexId: hexIds() }), o, 150);
    const core = new AnalysisCoreImpl({ newHexId: hexIds() });
    core.setContextEvents([{ id: 'c1', workload: o.key, event: 'deploy', description: 'v2', timeMs: ruptureMs }]);
    const quiet = run(core, o, 150);
    const inQuiet = (t: number): boolean => t >= ruptureMs - 60_000 && t <= ruptureMs + 300_000;
    const plainEvents = plain.flatMap((x) => x.bandEvents).filter((e) => inQuiet(e.timeMs));
    expect(plainEvents.length).to.be.greaterThan(0);
    expect(quiet.flatMap((x) => x.bandEvents).filter((e) => inQuiet(e.timeMs))).to.have.length(0);
    const quietAnomalies = quiet.flatMap((x) => x.anomalies).filter((a) => inQuiet(a.timeMs));
    expect(quietAnomalies.every((a) => !a.consensus && a.severity === 'warning')).to.equal(true);
    expect(quiet.map((x) => x.snapshots[0]!.fusedR)).to.deep.equal(plain.map((x) => x.snapshots[0]!.fusedR));
    const record = core.explain(o.key);
    expect(record?.narrative ?? '').to.contain('Context: deploy (v2)');
  });

  it('a suppression naming a series drops its anomalies only inside the window', () => {
    const plain = run(new AnalysisCoreImpl({ newHexId: hexIds() }), o, 150).flatMap((x) => x.anomalies);
    const series = [...new Set(plain.map((a) => a.metric))];
    expect(series.length).to.be.greaterThan(0);
    const core = new AnalysisCoreImpl({ newHexId: hexIds() });
    core.setSuppressions([{ id: 's1', workload: o.key, startMs: ORIGIN, endMs: ORIGIN + 1e9, signals: series }]);
    expect(run(core, o, 150).flatMap((x) => x.anomalies)).to.have.length(0);
  });

  it('weight overrides change health_score from the next step', () => {
    const core = new AnalysisCoreImpl({ newHexId: hexIds() });
    const before = run(core, { ...o, ruptureFromBucket: undefined }, 10).at(-1)!.snapshots[0]!;
    core.setWeights([{ selector: 'shop/*', weights: { stress: 0, fatigue: 1, mood: 0, pressure: 0, humidity: 0, contagion: 0 } }]);
    const t = bucketTelemetry(o, 10, ORIGIN);
    t.metrics.forEach((m) => core.observeMetric(m));
    const after = core.step(ORIGIN + 12 * 15_000).snapshots[0]!;
    expect(before.signals.health_score.value).to.be.below(0.99);
    // fatigue is 0 for this calm workload, so the fatigue-only weights give health 1
    expect(after.signals.fatigue.value).to.equal(0);
    expect(after.signals.health_score.value).to.equal(1);
  });
});
