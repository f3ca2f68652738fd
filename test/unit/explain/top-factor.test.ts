import { expect } from 'chai';
import fc from 'fast-check';
import { primaryPipeline, topFactor } from '../../../api-server/src/analysis/explain/top-factor.js';
import { WEIGHTED_SIGNALS } from '../../../api-server/src/model/signals.js';

const W = { stress: 0.25, fatigue: 0.2, mood: 0.2, pressure: 0.15, humidity: 0.1, contagion: 0.1 };

describe('top_factor and primary_pipeline (analytics.md §8.2)', () => {
  it('picks the largest weighted penalty', () => {
    expect(topFactor(W, { stress: 0.5, fatigue: 0.5, mood: 0.5, pressure: 0.5, humidity: 0.5, contagion: 0.5 })).to.equal('stress');
    // contagion 0.1·1 = 0.1 against stress 0.25·0.3 = 0.075
    expect(topFactor(W, { stress: 0.3, fatigue: 0.1, mood: 0.1, pressure: 0.1, humidity: 0.1, contagion: 1 })).to.equal('contagion');
  });

  it('breaks ties in weight-table order', () => {
    // fatigue 0.2·0.5 = mood 0.2·0.5 = 0.1 > the rest
    expect(topFactor(W, { stress: 0.2, fatigue: 0.5, mood: 0.5, pressure: 0, humidity: 0, contagion: 0 })).to.equal('fatigue');
    const equal = { stress: 1, fatigue: 1, mood: 1, pressure: 1, humidity: 1, contagion: 1 };
    expect(topFactor(equal, equal)).to.equal('stress');
    const nan = { stress: Number.NaN, fatigue: 0, mood: 0, pressure: 0, humidity: 0, contagion: 0.01 };
    expect(topFactor(W, nan)).to.equal('contagion');
  });

  it('picks the largest source ratio, absent = 0, ties metric, log, trace', () => {
    expect(primaryPipeline(1, 1, 1)).to.equal('metric');
    expect(primaryPipeline(null, 2, 2)).to.equal('log');
    expect(primaryPipeline(0, 0, 3)).to.equal('trace');
    expect(primaryPipeline(null, null, null)).to.equal('metric');
    expect(primaryPipeline(Number.NaN, 0.5, null)).to.equal('log');
  });

  it('always answers a weighted signal and a pipeline', () => {
    const rec = fc.record(Object.fromEntries(WEIGHTED_SIGNALS.map((k) => [k, fc.double()])) as Record<(typeof WEIGHTED_SIGNALS)[number], fc.Arbitrary<number>>);
    fc.assert(
      fc.property(rec, rec, fc.option(fc.double()), fc.option(fc.double()), fc.option(fc.double()), (w, p, m, l, t) => {
        expect(WEIGHTED_SIGNALS).to.include(topFactor(w, p));
        expect(['metric', 'log', 'trace']).to.include(primaryPipeline(m, l, t));
      }),
    );
  });
});
