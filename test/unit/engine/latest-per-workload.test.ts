import { expect } from 'chai';
import fc from 'fast-check';
import { latestPerWorkload } from '../../../api-server/src/engine/analyzer-loop.js';
import { snapshotOf } from '../../support/analysis-fixtures.js';

describe('latestPerWorkload: what a tick stores of a step that ran many buckets', () => {
  it('keeps the last snapshot of each workload, workloads in order of first appearance', () => {
    const a1 = snapshotOf('ns/Deployment/a', { timeMs: 1_000 });
    const b1 = snapshotOf('ns/Deployment/b', { timeMs: 1_000 });
    const a2 = snapshotOf('ns/Deployment/a', { timeMs: 16_000 });
    const a3 = snapshotOf('ns/Deployment/a', { timeMs: 31_000 });
    const out = latestPerWorkload([a1, b1, a2, a3]);
    expect(out).to.have.length(2);
    expect(out[0]).to.equal(a3);
    expect(out[1]).to.equal(b1);
    expect(latestPerWorkload([])).to.deep.equal([]);
  });

  it('stores what putting every snapshot in order would leave (fast-check)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('a/Deployment/x', 'a/Deployment/y', 'b/StatefulSet/z'), fc.integer({ min: 0, max: 1e6 }))), (steps) => {
        const snapshots = steps.map(([key, t]) => snapshotOf(key, { timeMs: t }));
        const putAll = new Map<string, unknown>();
        for (const s of snapshots) putAll.set(s.key, s);
        const putLatest = new Map<string, unknown>();
        for (const s of latestPerWorkload(snapshots)) putLatest.set(s.key, s);
        expect([...putLatest]).to.deep.equal([...putAll]);
      }),
    );
  });
});
