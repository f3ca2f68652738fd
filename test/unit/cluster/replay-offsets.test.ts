/** Where a new owner starts reading a partition: the oldest record whose bucket is still open. */
import { expect } from 'chai';
import fc from 'fast-check';
import { ReplayOffsets, type ProcessedBuckets } from '../../../api-server/src/cluster/replay-offsets.js';

const processedAt = (buckets: Record<string, number>): ProcessedBuckets => ({ lastProcessedBucket: (w) => buckets[w] });

describe('cluster replay offsets', () => {
  it('commits the oldest unsettled record, else the next offset', () => {
    const r = new ReplayOffsets();
    expect(r.replayFrom(0, processedAt({}))).to.equal(undefined);
    r.startAt(0, 10n);
    expect(r.replayFrom(0, processedAt({}))).to.equal(10n);
    r.consumed(0, 10n, 'a', 100);
    r.consumed(0, 11n, 'b', 100);
    r.consumed(0, 12n, 'a', 101);
    // a processed up to 100, b not at all yet (bucket 99): b's record at 11 is the oldest open one
    expect(r.replayFrom(0, processedAt({ a: 100, b: 99 }))).to.equal(11n);
    // b processed: a's record at 12 (bucket 101) is still open
    expect(r.replayFrom(0, processedAt({ a: 100, b: 100 }))).to.equal(12n);
    expect(r.waiting(0)).to.equal(1);
    // everything processed: the next offset
    expect(r.replayFrom(0, processedAt({ a: 101, b: 100 }))).to.equal(13n);
    expect(r.waiting(0)).to.equal(0);
  });

  it('treats a workload the analysis does not hold (every sample refused) as settled', () => {
    const r = new ReplayOffsets();
    r.startAt(3, 0n);
    r.consumed(3, 0n, 'gone', 5);
    expect(r.replayFrom(3, processedAt({}))).to.equal(1n);
  });

  it('keeps the records of a held workload with none of its buckets processed yet (−Infinity) unsettled', () => {
    const r = new ReplayOffsets();
    r.startAt(2, 0n);
    r.consumed(2, 0n, 'fresh', 7);
    r.consumed(2, 1n, 'fresh', 8);
    expect(r.replayFrom(2, processedAt({ fresh: Number.NEGATIVE_INFINITY }))).to.equal(0n);
    expect(r.waiting(2)).to.equal(2);
    expect(r.replayFrom(2, processedAt({ fresh: 7 }))).to.equal(1n);
  });

  it('keeps partitions apart and forgets a released one', () => {
    const r = new ReplayOffsets();
    r.startAt(0, 0n);
    r.startAt(1, 50n);
    r.consumed(0, 0n, 'a', 1);
    r.consumed(1, 50n, 'b', 1);
    expect(r.replayFrom(0, processedAt({ a: 0, b: 1 }))).to.equal(0n);
    expect(r.replayFrom(1, processedAt({ a: 0, b: 1 }))).to.equal(51n);
    r.forget(0);
    expect(r.nextOffset(0)).to.equal(undefined);
    expect(r.partitions()).to.deep.equal([1]);
  });

  it('never commits past an unsettled record nor beyond the next offset (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ workload: fc.constantFrom('a', 'b', 'c'), bucket: fc.integer({ min: 0, max: 20 }) }), { minLength: 1, maxLength: 60, size: 'max' }),
        fc.record({ a: fc.integer({ min: -1, max: 20 }), b: fc.integer({ min: -1, max: 20 }), c: fc.integer({ min: -1, max: 20 }) }),
        (records, processed) => {
          const r = new ReplayOffsets();
          r.startAt(0, 0n);
          records.forEach((rec, i) => r.consumed(0, BigInt(i), rec.workload, rec.bucket));
          const from = r.replayFrom(0, processedAt(processed)) as bigint;
          const firstOpen = records.findIndex((rec) => processed[rec.workload as 'a' | 'b' | 'c'] < rec.bucket);
          expect(from).to.equal(firstOpen === -1 ? BigInt(records.length) : BigInt(firstOpen));
        },
      ),
    );
  });
});
