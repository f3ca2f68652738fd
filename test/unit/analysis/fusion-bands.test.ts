import { expect } from 'chai';
import fc from 'fast-check';
import { fuse } from '../../../api-server/src/analysis/fusion/fusion.js';
import { bandOf, stateOf } from '../../../api-server/src/analysis/bands.js';
import { BandTracker } from '../../../api-server/src/analysis/episodes/band-tracker.js';

describe('analysis fusion (analytics.md §4.3)', () => {
  it('metric + log + trace: 0.6/0.2/0.2', () => {
    const r = fuse(2, 1, 3);
    expect(r.fusedR).to.be.closeTo(2, 1e-12);
    expect(r.weights).to.deep.equal({ metric: 0.6, log: 0.2, trace: 0.2 });
  });
  it('metric + log or metric + trace: 0.75/0.25', () => {
    expect(fuse(2, 4, null).fusedR).to.be.closeTo(2.5, 1e-12);
    expect(fuse(2, null, 4).fusedR).to.be.closeTo(2.5, 1e-12);
    expect(fuse(2, null, 4).weights).to.deep.equal({ metric: 0.75, log: 0, trace: 0.25 });
  });
  it('metric alone or anything without metric: 0', () => {
    expect(fuse(5, null, null).fusedR).to.equal(0);
    expect(fuse(null, 5, 5).fusedR).to.equal(0);
    expect(fuse(null, null, null).fusedR).to.equal(0);
  });
  it('caps at 10, keeps the value before the cap', () => {
    const r = fuse(10, 20, null);
    expect(r.fusedR).to.equal(10);
    expect(r.beforeCap).to.equal(12.5);
  });
  it('property: FusedR always in [0, 10] for any input', () => {
    const src = fc.option(fc.double(), { nil: null });
    fc.assert(
      fc.property(src, src, src, (m, l, t) => {
        const r = fuse(m, l, t);
        expect(Number.isFinite(r.fusedR)).to.equal(true);
        expect(r.fusedR).to.be.within(0, 10);
        expect(Number.isFinite(r.beforeCap)).to.equal(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('analysis bands (analytics.md §4.4)', () => {
  it('edges 1.0, 1.5, 2.5, 4.0 exactly', () => {
    expect(stateOf(0.999)).to.equal('stable');
    expect(stateOf(1.0)).to.equal('elevated');
    expect(stateOf(1.4999)).to.equal('elevated');
    expect(stateOf(1.5)).to.equal('warning');
    expect(stateOf(2.4999)).to.equal('warning');
    expect(stateOf(2.5)).to.equal('critical');
    expect(stateOf(4.0)).to.equal('critical');
    expect(stateOf(4.0001)).to.equal('emergency');
    expect(stateOf(NaN)).to.equal('stable');
    expect(bandOf(1.2)).to.equal('normal');
    expect(bandOf(10)).to.equal('emergency');
  });

  it('band events: enter warning, move to critical, recover; nothing while quiet', () => {
    const t = new BandTracker();
    const ev = (fusedR: number, quiet = false) => t.update({ workload: 'a/Deployment/b', state: stateOf(fusedR), fusedR, timeMs: 0, quiet, ruptureId: null });
    expect(ev(1.2)).to.equal(null);
    expect(ev(1.6)).to.include({ type: 'warning', severity: 'warning', previousState: 'stable', state: 'warning' });
    expect(ev(2.0)).to.equal(null);
    expect(ev(3.0)).to.include({ type: 'critical', severity: 'critical' });
    expect(ev(5.0, true)).to.equal(null);
    expect(ev(5.0)).to.include({ type: 'emergency', previousState: 'critical' });
    expect(ev(0.5)).to.include({ type: 'recovered', severity: 'info', state: 'stable' });
  });
});
