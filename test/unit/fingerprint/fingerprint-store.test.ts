import { expect } from 'chai';
import fc from 'fast-check';
import { FingerprintStore } from '../../../api-server/src/analysis/fingerprint/fingerprint-store.js';

const T0 = 1_700_000_000_000;
const HOUR = 3600_000;
const KEY = 'shop/Deployment/cart';
const A = [0.9, 0.8, 0.5, 0.7, 0.2, 0.1, 0.6, 0.3, 0.4, 0, 0.4];
const B = [0, 0, 0.1, 0.5, 0.9, 0.9, 0.2, 0, 0, 0.8, 0.35];

describe('fingerprint store (analytics.md §7.3)', () => {
  it('records when FusedR > 3.0, at most once per hour per workload', () => {
    const s = new FingerprintStore(KEY);
    expect(s.maybeRecord({ vector: A, fusedR: 3.0, ruptureId: 'r_1', nowMs: T0 })).to.equal(null);
    expect(s.maybeRecord({ vector: A, fusedR: 3.5, ruptureId: 'r_1', nowMs: T0 })).to.deep.equal({
      id: `fp-${KEY}-1`, workload: KEY, ruptureId: 'r_1', capturedAtMs: T0, vector: A, fusedR: 3.5,
    });
    expect(s.maybeRecord({ vector: B, fusedR: 4, ruptureId: 'r_2', nowMs: T0 + HOUR - 1 })).to.equal(null);
    expect(s.maybeRecord({ vector: B, fusedR: 4, ruptureId: 'r_2', nowMs: T0 + HOUR })?.id).to.equal(`fp-${KEY}-2`);
    expect(s.maybeRecord({ vector: [1, 2], fusedR: 4, ruptureId: 'r_3', nowMs: T0 + 5 * HOUR })).to.equal(null);
  });

  it('matches at cosine ≥ 0.85 excluding the current episode, with the resolution note', () => {
    const s = new FingerprintStore(KEY);
    s.maybeRecord({ vector: A, fusedR: 3.5, ruptureId: 'r_old', nowMs: T0 });
    s.maybeRecord({ vector: B, fusedR: 3.5, ruptureId: 'r_other', nowMs: T0 + 2 * HOUR });
    expect(s.setResolutionNote('r_old', 'rolled back release 42')).to.equal(1);
    const now = A.map((x) => x * 0.5);
    expect(s.match(now, { ruptureId: 'r_new', openedAtMs: T0 + 5 * HOUR })).to.deep.equal({
      similarity: 1, matchedRuptureId: 'r_old', matchedAtMs: T0, resolutionNote: 'rolled back release 42',
    });
    expect(s.match(now, { ruptureId: 'r_old', openedAtMs: null })).to.equal(null);
    expect(s.match(now, { ruptureId: 'r_new', openedAtMs: T0 })).to.equal(null);
    // orthogonal-ish vector matches nothing
    expect(s.match([0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0], { ruptureId: null, openedAtMs: null })).to.equal(null);
  });

  it('round-trips its state through JSON and keeps the sequence', () => {
    const s = new FingerprintStore(KEY);
    s.maybeRecord({ vector: A, fusedR: 3.5, ruptureId: null, nowMs: T0 });
    const t = FingerprintStore.fromState(KEY, JSON.parse(JSON.stringify(s.exportState())));
    expect(t.all()).to.deep.equal(s.all());
    expect(t.match(A)?.matchedRuptureId).to.equal(`fp-${KEY}-1`);
    expect(t.maybeRecord({ vector: B, fusedR: 5, ruptureId: 'r_x', nowMs: T0 + HOUR })?.id).to.equal(`fp-${KEY}-2`);
    expect(() => FingerprintStore.fromState(KEY, { seq: 1, fingerprints: [{ id: 'x' }] })).to.throw(/fingerprints/);
  });

  it('records only finite vectors and matches with a finite similarity for any query', () => {
    fc.assert(
      fc.property(fc.array(fc.double(), { minLength: 11, maxLength: 11, size: 'max' }), fc.double(), (v, r) => {
        const s = new FingerprintStore(KEY);
        s.maybeRecord({ vector: A, fusedR: 4, ruptureId: 'r_a', nowMs: T0 });
        const recorded = s.maybeRecord({ vector: v, fusedR: r, ruptureId: 'r_b', nowMs: T0 + 2 * HOUR });
        if (recorded !== null) expect(recorded.vector.every((x) => Number.isFinite(x))).to.equal(true);
        const m = s.match(v);
        if (m !== null) {
          expect(m.similarity).to.be.within(0.85, 1);
        }
        expect(JSON.parse(JSON.stringify(s.exportState()))).to.deep.equal(s.exportState());
      }),
    );
  });
});
