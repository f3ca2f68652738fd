import { expect } from 'chai';
import fc from 'fast-check';
import type { MetricRecord } from '../../../api-server/src/model/records.js';
import { RAW_BUCKET_MS, RawPointBuckets, type RawPoint } from '../../../api-server/src/pipeline/raw-point-buckets.js';

/**
 * The raw tier's 15-s means as they were kept before (one Map keyed by `workload\0metric`, whose
 * insertion order is the eviction order): the reference the keyed-by-workload version must match.
 */
class ReferenceBuckets {
  private readonly open = new Map<string, { workload: string; metric: string; bucket: number; sum: number; count: number }>();
  private done: RawPoint[] = [];
  constructor(private readonly maxOpen: number) {}
  add(r: MetricRecord): void {
    const bucket = Math.floor(r.timeMs / RAW_BUCKET_MS);
    const series = `${r.workload}\u0000${r.name}`;
    const cur = this.open.get(series);
    if (cur !== undefined && cur.bucket === bucket) {
      cur.sum += r.value;
      cur.count += 1;
      return;
    }
    if (cur !== undefined) {
      if (bucket < cur.bucket) return;
      this.finish(cur);
      this.open.delete(series);
    }
    this.open.set(series, { workload: r.workload, metric: r.name, bucket, sum: r.value, count: 1 });
    if (this.open.size > this.maxOpen) {
      const [key, oldest] = this.open.entries().next().value!;
      this.finish(oldest);
      this.open.delete(key);
    }
  }
  take(all = false): RawPoint[] {
    if (all) {
      for (const o of this.open.values()) this.finish(o);
      this.open.clear();
    }
    const out = this.done;
    this.done = [];
    return out;
  }
  private finish(o: { workload: string; metric: string; bucket: number; sum: number; count: number }): void {
    this.done.push({ workload: o.workload, metric: o.metric, bucketStartMs: o.bucket * RAW_BUCKET_MS, mean: o.sum / o.count, count: o.count });
  }
}

describe('RawPointBuckets keyed by workload, then metric: the same points as one key per series', () => {
  it('means per series and bucket, handed over once a later bucket of the series starts (hand-checked)', () => {
    const raw = new RawPointBuckets();
    const rec = (workload: string, name: string, value: number, timeMs: number): MetricRecord => ({ workload, pod: undefined, name, value, timeMs });
    raw.add(rec('a/Deployment/x', 'cpu', 1, 0));
    raw.add(rec('a/Deployment/x', 'cpu', 3, 14_999));
    raw.add(rec('a/Deployment/x', 'mem', 10, 1_000));
    expect(raw.take()).to.deep.equal([]);
    raw.add(rec('a/Deployment/x', 'cpu', 5, 15_000));
    raw.add(rec('a/Deployment/x', 'cpu', 100, 2_000)); // late for a handed-over bucket: ignored
    expect(raw.take()).to.deep.equal([{ workload: 'a/Deployment/x', metric: 'cpu', bucketStartMs: 0, mean: 2, count: 2 }]);
    expect(raw.take(true)).to.deep.equal([
      { workload: 'a/Deployment/x', metric: 'mem', bucketStartMs: 0, mean: 10, count: 1 },
      { workload: 'a/Deployment/x', metric: 'cpu', bucketStartMs: 15_000, mean: 5, count: 1 },
    ]);
    expect(raw.openCount).to.equal(0);
  });

  it('hands over exactly what the single-key version did, in the same order, bound and eviction included', () => {
    const record = fc.record({
      workload: fc.constantFrom('a/Deployment/x', 'a/Deployment/y', 'b/StatefulSet/z', 'c/host/h'),
      name: fc.constantFrom('cpu', 'mem', 'latency'),
      value: fc.double({ min: -1e6, max: 1e6, noNaN: true }),
      timeMs: fc.integer({ min: 0, max: 10 * RAW_BUCKET_MS }),
    });
    const step = fc.oneof(record.map((r) => ({ kind: 'add' as const, r: { ...r, pod: undefined } })), fc.constant({ kind: 'take' as const }));
    fc.assert(
      fc.property(fc.array(step, { maxLength: 300, size: 'max' }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 4 }), (steps, maxOpen, slack) => {
        // a small slack compacts the opening-order queue often
        const subject = new RawPointBuckets(maxOpen, slack);
        const reference = new ReferenceBuckets(maxOpen);
        for (const s of steps) {
          if (s.kind === 'add') {
            subject.add(s.r);
            reference.add(s.r);
          } else expect(subject.take()).to.deep.equal(reference.take());
          expect(subject.openCount).to.be.at.most(maxOpen);
        }
        expect(subject.take(true)).to.deep.equal(reference.take(true));
      }),
      { numRuns: 500 },
    );
  });
});
