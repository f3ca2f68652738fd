import { expect } from 'chai';
import { formulaBreakdown, pipelineAttribution } from '../../../api-server/src/analysis/explain/formula-breakdown.js';
import { explainOf, snapshotOf } from '../../support/analysis-fixtures.js';

describe('formula breakdown and pipeline attribution (analytics.md §8.3, §8.4)', () => {
  const record = explainOf(snapshotOf('shop/Deployment/cart'), {
    sources: { metricR: 4, logR: 1, traceR: null, traceRA: null, primaryMetric: 'cpu', alphaBurst: 0.01, alphaStable: 0.001 },
    fusionWeights: { metric: 0.75, log: 0.25, trace: 0 },
    fusedR: 3.25,
    fusedRBeforeCap: 3.25,
    updatedAtMs: 1_700_000_900_000,
  });

  it('lists every quantity of the formula with weighted penalties', () => {
    const f = formulaBreakdown(record);
    expect(f).to.deep.include({ primaryMetric: 'cpu', alphaBurst: 0.01, alphaStable: 0.001, metricR: 4, logR: 1, traceR: null, traceRA: null, fusedR: 3.25, fusedRBeforeCap: 3.25 });
    expect(f.fusionWeights).to.deep.equal({ metric: 0.75, log: 0.25, trace: 0 });
    expect(f.weightedPenalties.stress).to.be.closeTo(record.healthWeights.stress * record.penalties.stress, 1e-12);
    expect(JSON.parse(JSON.stringify(f))).to.deep.equal(f);
  });

  it('attributes FusedR to the present pipelines: 0.75·4 = 3, 0.25·1 = 0.25', () => {
    const p = pipelineAttribution(record);
    expect(p.present).to.deep.equal({ metric: true, log: true, trace: false });
    expect(p.contributions).to.deep.equal({ metric: 3, log: 0.25, trace: 0 });
    expect(p.primaryPipeline).to.equal('metric');
    expect(p.timestampMs).to.equal(1_700_000_900_000);
  });

  it('clamps non-finite values so the objects always serialise', () => {
    const bad = { ...record, fusedR: Number.NaN, sources: { ...record.sources, logR: Number.POSITIVE_INFINITY } };
    const p = pipelineAttribution(bad);
    expect(p.fusedR).to.equal(0);
    expect(p.logR).to.equal(Number.MAX_VALUE);
    expect(p.primaryPipeline).to.equal('log');
    expect(Number.isFinite(p.contributions.log)).to.equal(true);
  });
});
