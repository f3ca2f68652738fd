import { expect } from 'chai';
import { WorkloadBuckets } from '../../../api-server/src/analysis/buckets/workload-buckets.js';

describe('analysis buckets (analytics.md §0.1, §1.2)', () => {
  it('groups by sample time into 15-s buckets and averages over all pods', () => {
    const b = new WorkloadBuckets(15_000, 100);
    b.addMetric('p1', 'cpu', 0.2, 0, 1_000);
    b.addMetric('p2', 'cpu', 0.6, 0, 14_999);
    b.addMetric('p1', 'cpu', 0.4, 0, 7_000);
    const [bucket] = b.takeClosed(30_000);
    expect(bucket!.index).to.equal(0);
    expect(bucket!.workloadMean('cpu')!.mean).to.be.closeTo(0.4, 1e-12);
    expect(bucket!.workloadMean('cpu')!.lastMs).to.equal(14_999);
    expect(bucket!.pods.get('p1')!.get('cpu')!.mean()).to.be.closeTo(0.3, 1e-12);
  });

  it('closes a bucket when a later-bucket sample arrives', () => {
    const b = new WorkloadBuckets(15_000, 100);
    b.addMetric('', 'cpu', 0.2, 0, 1_000);
    expect(b.takeClosed(2_000)).to.have.length(0);
    b.addMetric('', 'cpu', 0.3, 0, 15_000);
    const closed = b.takeClosed(15_001);
    expect(closed.map((x) => x.index)).to.deep.equal([0]);
    expect(b.openCount).to.equal(1);
  });

  it('closes a bucket when server time passes its end by one more bucket', () => {
    const b = new WorkloadBuckets(15_000, 100);
    b.addMetric('', 'cpu', 0.2, 0, 16_000); // bucket 1 = [15 s, 30 s)
    expect(b.takeClosed(44_999)).to.have.length(0);
    expect(b.takeClosed(45_000).map((x) => x.index)).to.deep.equal([1]);
  });

  it('returns every closed bucket of a backfill in ascending order, interleaved series included', () => {
    const b = new WorkloadBuckets(15_000, 1000);
    for (let i = 0; i < 240; i++) b.addMetric('', 'cpu', 0.1, 0, i * 15_000 + 5);
    for (let i = 0; i < 240; i++) b.addMetric('', 'memory', 0.2, 0, i * 15_000 + 5);
    const closed = b.takeClosed(240 * 15_000 + 15_000);
    expect(closed).to.have.length(240);
    expect(closed.every((x, i) => x.index === i && x.workloadMean('memory')!.mean === 0.2)).to.equal(true);
  });

  it('keeps only the best-ranked alias of an input per bucket and pod (first present wins)', () => {
    const b = new WorkloadBuckets(15_000, 100);
    b.addMetric('', 'cpu', 0.9, 2, 1_000);
    b.addMetric('', 'cpu', 0.3, 0, 2_000);
    b.addMetric('', 'cpu', 0.8, 6, 3_000);
    expect(b.takeClosed(60_000)[0]!.workloadMean('cpu')!.mean).to.equal(0.3);
  });

  it('refuses late samples and samples beyond the open-bucket bound', () => {
    const b = new WorkloadBuckets(15_000, 2);
    expect(b.addMetric('', 'cpu', 0.1, 0, 1_000)).to.equal('ok');
    expect(b.addMetric('', 'cpu', 0.1, 0, 16_000)).to.equal('ok');
    expect(b.addMetric('', 'cpu', 0.1, 0, 31_000)).to.equal('overflow');
    b.takeClosed(100_000);
    expect(b.addMetric('', 'cpu', 0.1, 0, 2_000)).to.equal('late');
    expect(b.addLog(20_000)).to.equal('late');
    expect(b.addLog(31_000)).to.equal('ok');
  });
});
