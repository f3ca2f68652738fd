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
    expect(bucket!.podMean('p1', 'cpu')).to.be.closeTo(0.3, 1e-12);
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

  it('collects workload means in order of first sight across pods (pod order, then input order)', () => {
    const b = new WorkloadBuckets(15_000, 100);
    b.addMetric('p1', 'memory', 0.5, 0, 1_000);
    b.addMetric('p2', 'cpu', 0.2, 0, 3_000);
    b.addMetric('p1', 'cpu', 0.4, 0, 2_000);
    b.addMetric('p2', 'latency', 0.1, 0, 4_000);
    const [bucket] = b.takeClosed(60_000);
    const out = { names: [] as string[], means: [] as number[], lastMs: [] as number[] };
    const n = bucket!.collectMeans(out);
    expect(out.names.slice(0, n)).to.deep.equal(['memory', 'cpu', 'latency']);
    expect(out.means.slice(0, n)).to.deep.equal([0.5, (0.2 + 0.4) / 2, 0.1]);
    expect(out.lastMs.slice(0, n)).to.deep.equal([1_000, 3_000, 4_000]);
  });

  it('a reused bucket keeps the input order of its first use (as its maps did) and drops it beyond 4 pods', () => {
    const b = new WorkloadBuckets(15_000, 100);
    const out = { names: [] as string[], means: [] as number[], lastMs: [] as number[] };
    b.addMetric('', 'cpu', 0.1, 0, 1_000);
    b.addMetric('', 'memory', 0.2, 0, 1_000);
    const [first] = b.takeClosed(60_000);
    b.recycle(first!);
    b.addMetric('', 'memory', 0.3, 0, 61_000);
    b.addMetric('', 'latency', 0.3, 0, 61_000);
    b.addMetric('', 'cpu', 0.3, 0, 61_000);
    const [second] = b.takeClosed(200_000);
    expect(second).to.equal(first);
    const n = second!.collectMeans(out);
    expect(out.names.slice(0, n)).to.deep.equal(['cpu', 'memory', 'latency']);
    for (let p = 0; p < 5; p++) second!.inputsOf(`p${p}`).add('cpu', 0.1, 0, 1);
    b.recycle(second!);
    b.addMetric('', 'memory', 0.3, 0, 301_000);
    b.addMetric('', 'cpu', 0.3, 0, 301_000);
    const [third] = b.takeClosed(400_000);
    const m = third!.collectMeans(out);
    expect(out.names.slice(0, m)).to.deep.equal(['memory', 'cpu']);
  });

  it('a reused bucket forgets the names of a pod that had more than 64 (names that keep changing stay bounded)', () => {
    const b = new WorkloadBuckets(15_000, 100);
    const out = { names: [] as string[], means: [] as number[], lastMs: [] as number[] };
    for (let round = 0; round < 5; round++) {
      for (let k = 0; k < 65; k++) b.addMetric('', `gauge_${round}_${k}`, k, 0, round * 60_000 + 1_000);
      const [bucket] = b.takeClosed(round * 60_000 + 45_000);
      const n = bucket!.collectMeans(out);
      // only this round's names: the earlier rounds' were dropped when the bucket was reused
      expect(n).to.equal(65);
      expect(out.names[0]).to.equal(`gauge_${round}_0`);
      expect(bucket!.inputsOf('').names.length).to.equal(65);
      b.recycle(bucket!);
    }
  });
});
