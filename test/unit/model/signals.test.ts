import { expect } from 'chai';
import fc from 'fast-check';
import { FUSED_R_WEIGHTS, fusionWeightsFor, KPI_HISTORY_SIGNALS, SIGNAL_NAMES, WEIGHTED_SIGNALS } from '../../../api-server/src/model/signals.js';
import { fuse, fusedROf } from '../../../api-server/src/analysis/fusion/fusion.js';
import { SIGNAL_NAMES as DASHBOARD_SIGNALS, WEIGHT_SIGNALS as DASHBOARD_WEIGHT_SIGNALS } from '../../../dashboard/src/api/types.js';

describe('model/signals: the one signal list and FusedR weights table', () => {
  it('the dashboard copy of the signal lists agrees with the service (names and order)', () => {
    expect([...DASHBOARD_SIGNALS]).to.deep.equal([...SIGNAL_NAMES]);
    expect([...DASHBOARD_WEIGHT_SIGNALS]).to.deep.equal([...WEIGHTED_SIGNALS]);
  });

  it('KPI history signals are the nine signals other than health_score, in snapshot order', () => {
    expect(KPI_HISTORY_SIGNALS).to.deep.equal(['stress', 'fatigue', 'mood', 'pressure', 'humidity', 'contagion', 'resilience', 'entropy', 'velocity']);
  });

  it('picks the weights of the sources present; each present set sums to 1', () => {
    expect(fusionWeightsFor(2, 1, 3)).to.deep.equal({ metric: 0.6, log: 0.2, trace: 0.2 });
    expect(fusionWeightsFor(2, 1, null)).to.deep.equal({ metric: 0.75, log: 0.25, trace: 0 });
    expect(fusionWeightsFor(2, null, 3)).to.deep.equal({ metric: 0.75, log: 0, trace: 0.25 });
    expect(fusionWeightsFor(2, null, null)).to.deep.equal({ metric: 0, log: 0, trace: 0 });
    expect(fusionWeightsFor(null, 1, 3)).to.deep.equal({ metric: 0, log: 0, trace: 0 });
    for (const w of [FUSED_R_WEIGHTS.metricLogTrace, FUSED_R_WEIGHTS.metricLog, FUSED_R_WEIGHTS.metricTrace]) expect(w.metric + w.log + w.trace).to.be.closeTo(1, 1e-12);
  });

  it('fuse and fusedROf read the same table: 0.6·2 + 0.2·1 + 0.2·3 = 2.0; 0.75·2 + 0.25·3 = 2.25', () => {
    expect(fusedROf(2, 1, 3)).to.be.closeTo(2.0, 1e-12);
    expect(fusedROf(2, null, 3)).to.be.closeTo(2.25, 1e-12);
    const r = fuse(2, 1, 3);
    expect(r.weights).to.deep.equal({ metric: 0.6, log: 0.2, trace: 0.2 });
    r.weights.metric = 9; // the result's weights are its own: the table stays as it is
    expect(FUSED_R_WEIGHTS.metricLogTrace.metric).to.equal(0.6);
    const ratio = fc.option(fc.double({ min: -1, max: 50, noNaN: true }), { nil: null });
    fc.assert(fc.property(ratio, ratio, ratio, (m, l, t) => Object.is(fuse(m, l, t).fusedR, fusedROf(m, l, t))));
  });
});
