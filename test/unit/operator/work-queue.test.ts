import { expect } from 'chai';
import { WorkQueue } from '../../../operator/src/kube/work-queue.js';

const fast = { baseDelayMs: 5, maxDelayMs: 40, ratePerSecond: 1000, burst: 1000, workers: 2, random: () => 0.999 };

describe('work queue', () => {
  it('never runs a key twice at once, and re-runs a key added while in flight', async () => {
    const running = new Set<string>();
    const runs: string[] = [];
    let release: (() => void) | undefined;
    const queue = new WorkQueue(async (key) => {
      expect(running.has(key), `${key} ran concurrently`).to.equal(false);
      running.add(key);
      runs.push(key);
      if (runs.length === 1) await new Promise<void>((r) => (release = r));
      running.delete(key);
    }, fast);
    queue.add('a');
    await new Promise((r) => setTimeout(r, 5));
    queue.add('a'); // in flight: marked dirty
    queue.add('a'); // still one re-run
    queue.add('b');
    release!();
    await queue.idle();
    expect(runs.sort()).to.deep.equal(['a', 'a', 'b']);
  });

  it('deduplicates a key queued several times', async () => {
    const runs: string[] = [];
    const queue = new WorkQueue(async (key) => void runs.push(key), { ...fast, workers: 1 });
    queue.add('busy');
    for (let i = 0; i < 5; i += 1) queue.add('x');
    await queue.idle();
    expect(runs).to.deep.equal(['busy', 'x']);
  });

  it('retries a failing key with growing backoff until it succeeds, then resets', async () => {
    const attempts: number[] = [];
    const delays: number[] = [];
    const queue = new WorkQueue(
      async () => {
        attempts.push(Date.now());
        if (attempts.length < 4) throw new Error('not yet');
      },
      fast,
      { failed: (_k, _e, retryInMs) => delays.push(retryInMs) },
    );
    queue.add('k');
    await queue.idle();
    expect(attempts).to.have.length(4);
    expect(delays).to.deep.equal([4, 9, 19]); // floor(0.999 * 5 * 2^n)
  });

  it('limits the start rate with its token bucket', async () => {
    const starts: number[] = [];
    const queue = new WorkQueue(async () => void starts.push(Date.now()), { ...fast, ratePerSecond: 20, burst: 1, workers: 4 });
    const begin = Date.now();
    for (let i = 0; i < 5; i += 1) queue.add(`k${i}`);
    await queue.idle();
    expect(starts).to.have.length(5);
    // 1 from the burst, then 4 at 20/s: at least ~200 ms in all
    expect(Date.now() - begin).to.be.at.least(150);
  });
});
