import { expect } from 'chai';
import fc from 'fast-check';
import type { MetricRecord } from '../../../api-server/src/model/records.js';
import { RAW_BUCKET_MS, RawPointBuckets } from '../../../api-server/src/pipeline/raw-point-buckets.js';

const T0 = 1_700_000_010_000; // a multiple of 15 s: bucket 113 333 334 starts here
const point = (workload: string, name: string, timeMs: number, value: number): MetricRecord => ({ workload, pod: undefined, name, timeMs, value });

describe('pipeline/raw-point-buckets: 15-second means per (workload, metric) for the raw tier', () => {
  it('keeps a bucket open until a later bucket of the same series starts, then hands over its mean', () => {
    const buckets = new RawPointBuckets();
    buckets.add(point('ns/Deployment/a', 'cpu', T0, 1));
    buckets.add(point('ns/Deployment/a', 'cpu', T0 + 5_000, 2));
    buckets.add(point('ns/Deployment/a', 'cpu', T0 + 14_999, 6));
    expect(buckets.take()).to.deep.equal([]);
    buckets.add(point('ns/Deployment/a', 'cpu', T0 + 15_000, 10));
    // (1 + 2 + 6) / 3 = 3
    expect(buckets.take()).to.deep.equal([{ workload: 'ns/Deployment/a', metric: 'cpu', bucketStartMs: T0, mean: 3, count: 3 }]);
    expect(buckets.take()).to.deep.equal([]);
    expect(buckets.take(true)).to.deep.equal([{ workload: 'ns/Deployment/a', metric: 'cpu', bucketStartMs: T0 + RAW_BUCKET_MS, mean: 10, count: 1 }]);
  });

  it('starts buckets on multiples of 15 s of sample time', () => {
    const buckets = new RawPointBuckets();
    buckets.add(point('w', 'm', T0 + 7_250, 4));
    expect(buckets.take(true)[0]!.bucketStartMs).to.equal(T0);
    expect(T0 % RAW_BUCKET_MS).to.equal(0);
  });

  it('keeps series apart by workload and by metric name', () => {
    const buckets = new RawPointBuckets();
    buckets.add(point('w1', 'cpu', T0, 1));
    buckets.add(point('w2', 'cpu', T0, 3));
    buckets.add(point('w1', 'mem', T0, 5));
    buckets.add(point('w1', 'cpu', T0 + 1, 3));
    const all = buckets.take(true).map((p) => `${p.workload} ${p.metric} ${p.mean} ${p.count}`);
    expect(all).to.have.members(['w1 cpu 2 2', 'w2 cpu 3 1', 'w1 mem 5 1']);
  });

  it('ignores a late sample of a bucket already handed over (the first mean stays)', () => {
    const buckets = new RawPointBuckets();
    buckets.add(point('w', 'm', T0, 2));
    buckets.add(point('w', 'm', T0 + 15_000, 4));
    buckets.add(point('w', 'm', T0 + 1_000, 100)); // late: bucket T0 was handed over
    expect(buckets.take(true).map((p) => [p.bucketStartMs - T0, p.mean, p.count])).to.deep.equal([
      [0, 2, 1],
      [15_000, 4, 1],
    ]);
  });

  it('flushes the oldest open series early beyond maxOpen', () => {
    const buckets = new RawPointBuckets(2);
    buckets.add(point('w', 'a', T0, 1));
    buckets.add(point('w', 'b', T0, 2));
    expect(buckets.take()).to.deep.equal([]);
    buckets.add(point('w', 'c', T0, 3)); // third open series: 'a' is flushed
    expect(buckets.take().map((p) => p.metric)).to.deep.equal(['a']);
    expect(buckets.take(true).map((p) => p.metric)).to.have.members(['b', 'c']);
  });

  it('conserves every in-order sample: the counts add up and each mean is its bucket\'s mean (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ series: fc.constantFrom('a', 'b', 'c'), stepMs: fc.integer({ min: 0, max: 20_000 }), value: fc.integer({ min: -1000, max: 1000 }) }), {
          maxLength: 60, size: 'max',
        }),
        (steps) => {
          const buckets = new RawPointBuckets();
          const expected = new Map<string, { sum: number; count: number }>();
          let t = T0;
          for (const { series, stepMs, value } of steps) {
            t += stepMs; // non-decreasing time: nothing is late
            buckets.add(point('w', series, t, value));
            const key = `${series} ${Math.floor(t / RAW_BUCKET_MS) * RAW_BUCKET_MS}`;
            const e = expected.get(key) ?? { sum: 0, count: 0 };
            e.sum += value;
            e.count += 1;
            expected.set(key, e);
          }
          const out = [...buckets.take(), ...buckets.take(true)];
          expect(out.length).to.equal(expected.size);
          for (const p of out) {
            const e = expected.get(`${p.metric} ${p.bucketStartMs}`)!;
            expect(p.count).to.equal(e.count);
            expect(p.mean).to.be.closeTo(e.sum / e.count, 1e-9);
          }
        },
      ),
    );
  });
});
