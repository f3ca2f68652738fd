import { expect } from 'chai';
import { signalState, throughputState } from '../../../api-server/src/analysis/signals/states.js';

describe('analysis signal states (analytics.md §3.4)', () => {
  it('lower bounds are inclusive for the ascending tables', () => {
    expect(signalState('stress', 0.2999)).to.equal('calm');
    expect(signalState('stress', 0.3)).to.equal('nervous');
    expect(signalState('stress', 0.6)).to.equal('stressed');
    expect(signalState('stress', 0.8)).to.equal('panic');
    expect(signalState('fatigue', 0.8)).to.equal('burnout_imminent');
    expect(signalState('fatigue', 0.6)).to.equal('exhausted');
    expect(signalState('fatigue', 0.3)).to.equal('tired');
    expect(signalState('humidity', 0.1)).to.equal('humid');
    expect(signalState('humidity', 0.5)).to.equal('storm');
    expect(signalState('contagion', 0.3)).to.equal('spreading');
    expect(signalState('contagion', 0.8)).to.equal('pandemic');
    expect(signalState('entropy', 0.0999)).to.equal('ordered');
    expect(signalState('entropy', 0.6)).to.equal('turbulent');
    expect(signalState('velocity', 0.3)).to.equal('accelerating');
  });

  it('">" edges are exclusive', () => {
    expect(signalState('mood', 0.75)).to.equal('content');
    expect(signalState('mood', 0.7501)).to.equal('happy');
    expect(signalState('mood', 0.5)).to.equal('neutral');
    expect(signalState('mood', 0.25)).to.equal('sad');
    expect(signalState('mood', 0.1)).to.equal('depressed');
    expect(signalState('pressure', 0.7)).to.equal('rising');
    expect(signalState('pressure', 0.7001)).to.equal('storm_approaching');
    expect(signalState('pressure', 0.55)).to.equal('stable');
    expect(signalState('pressure', 0.45)).to.equal('stable');
    expect(signalState('pressure', 0.4499)).to.equal('improving');
    expect(signalState('resilience', 0.7)).to.equal('stable');
    expect(signalState('resilience', 0.2)).to.equal('critical');
    expect(signalState('health_score', 0.8)).to.equal('good');
    expect(signalState('health_score', 0.8001)).to.equal('excellent');
    expect(signalState('health_score', 0.2)).to.equal('critical');
    expect(signalState('health_score', NaN)).to.equal('critical');
  });

  it('throughput states', () => {
    expect(throughputState(0.51)).to.equal('collapsing');
    expect(throughputState(0.5)).to.equal('declining');
    expect(throughputState(0.2)).to.equal('stable');
  });
});
