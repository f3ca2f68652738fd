import { expect } from 'chai';
import { anomalySeverity, judgedAsLevel } from '../../../api-server/src/analysis/decision/anomaly-gate.js';

describe('decision: anomaly emission rules', () => {
  it('uptime (monotonic) is not judged as a level; other series are', () => {
    expect(judgedAsLevel('uptime')).to.equal(false);
    expect(judgedAsLevel('memory')).to.equal(true);
    expect(judgedAsLevel('fused_rupture_index')).to.equal(true);
  });

  it('critical needs consensus, no quiet period and an announced band of critical or worse', () => {
    expect(anomalySeverity(true, false, 'critical')).to.equal('critical');
    expect(anomalySeverity(true, false, 'emergency')).to.equal('critical');
    expect(anomalySeverity(true, false, 'warning')).to.equal('warning');
    expect(anomalySeverity(true, false, 'normal')).to.equal('warning');
    expect(anomalySeverity(true, true, 'emergency')).to.equal('warning');
    expect(anomalySeverity(false, false, 'emergency')).to.equal('warning');
  });
});
