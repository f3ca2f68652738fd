import { expect } from 'chai';
import fc from 'fast-check';
import { cosineSimilarity, fingerprintVector } from '../../../api-server/src/analysis/fingerprint/fingerprint-vector.js';

describe('fingerprint vector and cosine (analytics.md §7.3)', () => {
  it('orders the 11 dimensions higher = worse', () => {
    const v = fingerprintVector({
      stress: 0.1, fatigue: 0.2, mood: 0.7, pressure: 0.4, humidity: 0.5, contagion: 0.6,
      resilience: 0.25, entropy: 0.8, velocity: 0.9, throughputDrop: 0.3, fusedR: 3.5,
    });
    expect(v).to.have.length(11);
    expect(v[0]).to.equal(0.1);
    expect(v[2]).to.be.closeTo(0.3, 1e-12);
    expect(v[6]).to.equal(0.75);
    expect(v[10]).to.equal(0.35);
    expect(fingerprintVector({ stress: 2, fatigue: -1, mood: Number.NaN, pressure: 0, humidity: 0, contagion: 0, resilience: 1, entropy: 0, velocity: 0, throughputDrop: 0, fusedR: 25 }))
      .to.deep.equal([1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1]);
  });

  it('gives the cosine of known vectors', () => {
    expect(cosineSimilarity([1, 0], [0, 1])).to.equal(0);
    expect(cosineSimilarity([1, 1], [1, 0])).to.be.closeTo(Math.SQRT1_2, 1e-12);
    expect(cosineSimilarity([1, 2, 3], [2, 4, 6])).to.be.closeTo(1, 1e-12);
    expect(cosineSimilarity([1, 2], [-1, -2])).to.be.closeTo(-1, 1e-12);
    expect(cosineSimilarity([0, 0], [1, 1])).to.equal(0);
    expect(cosineSimilarity([1e-7, 0], [1, 1])).to.equal(0);
  });

  it('stays finite and within [−1, 1] for any input', () => {
    fc.assert(
      fc.property(fc.array(fc.double(), { maxLength: 11, size: 'max' }), fc.array(fc.double(), { maxLength: 11, size: 'max' }), (a, b) => {
        const c = cosineSimilarity(a, b);
        expect(Number.isFinite(c)).to.equal(true);
        expect(c).to.be.within(-1, 1);
      }),
    );
  });
});
