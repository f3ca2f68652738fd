import { expect } from 'chai';
import fc from 'fast-check';
import { LogBurstDetector, logRatio } from '../../../api-server/src/analysis/logs/log-burst.js';

function ids(): () => string {
  let n = 0;
  return () => `lb_${(++n).toString(16).padStart(12, '0')}`;
}

describe('log burst detector and logR (analytics.md §4.1)', () => {
  it('20 buckets of 2 error lines then 30: burst starts, logR = 15, ends at the next normal bucket', () => {
    const d = new LogBurstDetector('shop/Deployment/cart');
    const newId = ids();
    for (let b = 100; b < 120; b++) {
      const s = d.step({ bucketIndex: b, warn: 0, error: 2 }, newId);
      expect(s.started).to.equal(null);
      expect(s.logR).to.equal(b === 100 ? 2 : 1);
    }
    const burst = d.step({ bucketIndex: 120, warn: 0, error: 30 }, newId);
    expect(burst.baselineMean).to.equal(2);
    expect(burst.baselineStd).to.equal(0);
    expect(burst.logR).to.equal(15);
    expect(burst.inBurst).to.equal(true);
    expect(burst.started).to.deep.equal({
      id: 'lb_000000000001',
      workload: 'shop/Deployment/cart',
      startMs: 120 * 15_000,
      endMs: null,
      count: 30,
      baselineRate: 2 / 15,
      level: 'error',
    });
    // baseline now 19×2 and 30: μ = 3.4, σ = √(48.8 − 3.4²) = 6.10 → threshold 21.71
    const more = d.step({ bucketIndex: 121, warn: 25, error: 0 }, newId);
    expect(more.inBurst).to.equal(true);
    expect(more.started).to.equal(null);
    const end = d.step({ bucketIndex: 122, warn: 0, error: 2 }, newId);
    expect(end.inBurst).to.equal(false);
    expect(end.ended).to.deep.include({ id: 'lb_000000000001', startMs: 120 * 15_000, endMs: 122 * 15_000, count: 55, level: 'error' });
    expect(d.currentBurst()).to.equal(null);
  });

  it('uses μ + 3σ with the population standard deviation', () => {
    const d = new LogBurstDetector('w');
    const newId = ids();
    for (let b = 0; b < 20; b++) d.step({ bucketIndex: b, warn: b % 2 === 0 ? 1 : 3, error: 0 }, newId);
    // μ = 2, σ = 1 → threshold 5
    const at = d.step({ bucketIndex: 20, warn: 5, error: 0 }, newId);
    expect(at.baselineMean).to.equal(2);
    expect(at.baselineStd).to.equal(1);
    expect(at.inBurst).to.equal(false);
    expect(at.logR).to.equal(2.5);
    const d2 = LogBurstDetector.fromState('w', JSON.parse(JSON.stringify(d.exportState())));
    const d3 = new LogBurstDetector('w');
    for (let b = 0; b < 20; b++) d3.step({ bucketIndex: b, warn: b % 2 === 0 ? 1 : 3, error: 0 }, newId);
    const above = d3.step({ bucketIndex: 20, warn: 6, error: 0 }, newId);
    expect(above.inBurst).to.equal(true);
    expect(above.started?.level).to.equal('warn');
    expect(d2.baselineCounts()).to.have.length(20);
  });

  it('needs 5 closed buckets before detecting a burst', () => {
    const d = new LogBurstDetector('w');
    const newId = ids();
    for (let b = 0; b < 4; b++) d.step({ bucketIndex: b, warn: 0, error: 0 }, newId);
    const early = d.step({ bucketIndex: 4, warn: 0, error: 10 }, newId);
    expect(early.baselineReady).to.equal(false);
    expect(early.inBurst).to.equal(false);
    expect(early.logR).to.equal(10);
    const ready = d.step({ bucketIndex: 5, warn: 0, error: 10 }, newId);
    expect(ready.baselineReady).to.equal(true);
    // baseline 0,0,0,0,10: μ = 2, σ = 4 → threshold 14
    expect(ready.inBurst).to.equal(false);
    expect(ready.logR).to.equal(5);
  });

  it('counts skipped buckets as closed buckets without lines and ends a running burst at the gap', () => {
    const d = new LogBurstDetector('w');
    const newId = ids();
    for (let b = 0; b < 20; b++) d.step({ bucketIndex: b, warn: 0, error: 2 }, newId);
    d.step({ bucketIndex: 20, warn: 0, error: 30 }, newId);
    const after = d.step({ bucketIndex: 24, warn: 0, error: 2 }, newId);
    expect(after.ended?.endMs).to.equal(21 * 15_000);
    // baseline: buckets 4..19 (16×2), 20 (30), 21..23 (0) → (32 + 30)/20 = 3.1
    expect(after.baselineMean).to.be.closeTo(3.1, 1e-12);
  });

  it('floors the baseline at one line per bucket', () => {
    expect(logRatio(3, 0)).to.equal(3);
    expect(logRatio(3, 0.5)).to.equal(3);
    expect(logRatio(3, 2)).to.equal(1.5);
    expect(logRatio(Number.NaN, 2)).to.equal(0);
  });

  it('never yields NaN or Infinity for any counts', () => {
    const count = fc.oneof(fc.double(), fc.nat({ max: 1000 }));
    fc.assert(
      fc.property(fc.array(fc.tuple(count, count), { minLength: 1, maxLength: 60, size: 'max' }), (buckets) => {
        const d = new LogBurstDetector('w');
        const newId = ids();
        buckets.forEach(([warn, error], i) => {
          const s = d.step({ bucketIndex: i, warn, error }, newId);
          for (const v of [s.logR, s.baselineMean, s.baselineStd, s.count]) expect(Number.isFinite(v)).to.equal(true);
          expect(s.logR).to.be.at.least(0);
        });
      }),
    );
  });
});
