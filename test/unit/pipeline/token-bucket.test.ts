import { expect } from 'chai';
import fc from 'fast-check';
import { TokenBucket } from '../../../api-server/src/pipeline/token-bucket.js';

/** a clock the test moves by hand, in milliseconds */
function manualClock(startMs = 1_000): { now: () => number; advance: (ms: number) => void } {
  let t = startMs;
  return { now: () => t, advance: (ms) => (t += ms) };
}

/** how many of `n` immediate takes succeed */
const takes = (bucket: TokenBucket, n: number): number => Array.from({ length: n }, () => bucket.tryTake()).filter(Boolean).length;

describe('pipeline/token-bucket: capacity = rate, starts full, refills continuously', () => {
  it('starts full: a rate of 10 admits 10 requests at once, the 11th is refused', () => {
    const clock = manualClock();
    const bucket = new TokenBucket(10, clock.now);
    expect(takes(bucket, 11)).to.equal(10);
  });

  it('refills rate × elapsed: 10/s gains one token per 100 ms, half a token per 50 ms', () => {
    const clock = manualClock();
    const bucket = new TokenBucket(10, clock.now);
    takes(bucket, 10);
    clock.advance(100); // 0.1 s × 10/s = 1 token
    expect(takes(bucket, 3)).to.equal(1);
    clock.advance(50); // 0.5 token: not enough
    expect(bucket.tryTake()).to.equal(false);
    clock.advance(50); // 0.5 + 0.5 = 1 token (the refused take cost nothing)
    expect(bucket.tryTake()).to.equal(true);
    expect(bucket.tryTake()).to.equal(false);
  });

  it('never holds more than its capacity: 10 s idle at 10/s still admits 10, not 100', () => {
    const clock = manualClock();
    const bucket = new TokenBucket(10, clock.now);
    takes(bucket, 10);
    clock.advance(10_000);
    expect(takes(bucket, 100)).to.equal(10);
  });

  it('a rate of 1000 (the default) admits 1000 + 250 over a quarter second after a burst', () => {
    const clock = manualClock();
    const bucket = new TokenBucket(1000, clock.now);
    expect(takes(bucket, 1001)).to.equal(1000);
    clock.advance(250);
    expect(takes(bucket, 1000)).to.equal(250);
  });

  it('a fractional rate admits one request per 1/rate seconds: 0.5/s → one every 2 s', () => {
    const clock = manualClock();
    const bucket = new TokenBucket(0.5, clock.now);
    expect(takes(bucket, 2)).to.equal(1);
    clock.advance(1_000);
    expect(bucket.tryTake()).to.equal(false);
    clock.advance(1_000);
    expect(takes(bucket, 2)).to.equal(1);
  });

  it('over any schedule, admits at most capacity + rate × elapsed (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500 }),
        fc.array(fc.record({ gapMs: fc.integer({ min: 0, max: 2_000 }), requests: fc.integer({ min: 0, max: 50 }) }), { maxLength: 40, size: 'max' }),
        (rate, schedule) => {
          const clock = manualClock();
          const bucket = new TokenBucket(rate, clock.now);
          let admitted = 0;
          let elapsedMs = 0;
          for (const { gapMs, requests } of schedule) {
            clock.advance(gapMs);
            elapsedMs += gapMs;
            admitted += takes(bucket, requests);
            expect(admitted).to.be.at.most(rate + (rate * elapsedMs) / 1000 + 1e-9);
          }
        },
      ),
    );
  });
});
