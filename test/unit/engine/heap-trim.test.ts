/**
 * engine/heap-trim.ts: when a collection is asked for between ticks, and that it is V8's real one
 * (node's gc, exposed here with --expose-gc set at run time).
 */
import { runInNewContext } from 'node:vm';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { expect } from 'chai';
import { HeapTrim } from '../../../api-server/src/engine/heap-trim.js';

/** node's gc, as `node --expose-gc` gives it: the flag set now, the function read in a new context */
function realGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

describe('engine/heap-trim.ts', () => {
  it('collects after the first tick that is not a catch-up following catch-up ticks, once, never during them or after steady ones', () => {
    let collections = 0;
    let heap = 1000;
    let t = 0;
    const trim = new HeapTrim({
      collect: () => {
        collections++;
        heap = 100;
        t += 7;
      },
      heapUsed: () => heap,
      clock: () => t,
    });
    expect(trim.enabled).to.equal(true);
    // steady ticks: one bucket a workload, a late bucket here and there (1.5 a workload), nothing stepped
    expect(trim.afterTick(10_000, 10_000)).to.equal(undefined);
    expect(trim.afterTick(15, 10)).to.equal(undefined);
    expect(trim.afterTick(0, 0)).to.equal(undefined);
    // a backfill: 400 buckets for each of 100 workloads, then 2 a workload (exactly the threshold)
    expect(trim.afterTick(40_000, 100)).to.equal(undefined);
    expect(trim.afterTick(200, 100)).to.equal(undefined);
    expect(collections).to.equal(0);
    // the first steady tick: the backlog is gone
    heap = 900;
    expect(trim.afterTick(150, 100)).to.deep.equal({ beforeBytes: 900, afterBytes: 100, pauseMs: 7, bucketsPerWorkload: 1.5, reason: 'caught_up' });
    // and only that one
    heap = 900;
    expect(trim.afterTick(100, 100)).to.equal(undefined);
    expect(trim.afterTick(0, 0)).to.equal(undefined);
    // a backfill followed by a tick with nothing to step (no live telemetry after it): that tick collects
    expect(trim.afterTick(4000, 10)).to.equal(undefined);
    expect(trim.afterTick(0, 0)).to.deep.equal({ beforeBytes: 900, afterBytes: 100, pauseMs: 7, bucketsPerWorkload: 0, reason: 'caught_up' });
    expect(trim.afterTick(0, 0)).to.equal(undefined);
    expect(collections).to.equal(2);
  });

  it('after a steady tick, collects when the used heap is above growth × the live heap and above minBytes', () => {
    const MB = 1_048_576;
    let collections = 0;
    let used = 0;
    let live = 0;
    const trim = new HeapTrim({ collect: () => collections++, heapUsed: () => used, clock: () => 0, liveHeap: () => live, growth: 2, minBytes: 128 * MB });
    // no major collection seen yet: nothing to compare with
    used = 900 * MB;
    expect(trim.afterTick(1000, 1000)).to.equal(undefined);
    // live 100 MB: 200 MB is not above twice that, 201 MB is
    live = 100 * MB;
    used = 200 * MB;
    expect(trim.afterTick(1000, 1000)).to.equal(undefined);
    used = 201 * MB;
    expect(trim.afterTick(1000, 1000)?.reason).to.equal('growth');
    // a small heap is V8's business: 3 × a 40 MB live heap, but below 128 MB
    live = 40 * MB;
    used = 120 * MB;
    expect(trim.afterTick(1000, 1000)).to.equal(undefined);
    used = 129 * MB;
    expect(trim.afterTick(1000, 1000)?.reason).to.equal('growth');
    // a tick that stepped nothing is looked at too
    expect(trim.afterTick(0, 0)?.reason).to.equal('growth');
    expect(collections).to.equal(3);
  });

  it('the thresholds are checked: catchUpBuckets ≥ 1, growth > 1, minBytes ≥ 0', () => {
    for (const [options, error] of [
      [{ growth: 1 }, /growth must be above 1, got 1/],
      [{ growth: Number.NaN }, /growth must be above 1/],
      [{ minBytes: -1 }, /minBytes must be at least 0, got -1/],
    ] as const) expect(() => new HeapTrim({ collect: () => undefined, heapUsed: () => 0, clock: () => 0, ...options })).to.throw(RangeError, error);
  });

  it('the catch-up threshold is a setting of at least 1', () => {
    let collections = 0;
    const trim = new HeapTrim({ collect: () => collections++, heapUsed: () => 0, clock: () => 0, catchUpBuckets: 5 });
    // 4 a workload is steady with a threshold of 5: no catch-up to end
    expect(trim.afterTick(40, 10)).to.equal(undefined);
    expect(trim.afterTick(40, 10)).to.equal(undefined);
    // 5 is a catch-up, 4.9 after it its end
    expect(trim.afterTick(50, 10)).to.equal(undefined);
    expect(trim.afterTick(49, 10)?.reason).to.equal('caught_up');
    expect(collections).to.equal(1);
    for (const bad of [0, 0.5, -1, Number.NaN]) expect(() => new HeapTrim({ collect: () => undefined, heapUsed: () => 0, clock: () => 0, catchUpBuckets: bad }), String(bad)).to.throw(RangeError, /catchUpBuckets must be at least 1/);
  });

  it('without a gc function (node without --expose-gc) it is disabled and never reads the heap', () => {
    const trim = new HeapTrim({
      collect: undefined,
      heapUsed: () => {
        throw new Error('read');
      },
      clock: () => 0,
    });
    expect(trim.enabled).to.equal(false);
    expect(trim.afterTick(40_000, 100)).to.equal(undefined);
    expect(trim.afterTick(100, 100)).to.equal(undefined);
  });

  it("with node's gc, the garbage a catch-up left in the old generation is collected", function () {
    this.timeout(20_000);
    const trim = new HeapTrim({ collect: realGc(), heapUsed: () => getHeapStatistics().used_heap_size, clock: () => performance.now() });
    // a catch-up tick, collected at the first steady tick after it
    expect(trim.afterTick(6400, 16)).to.equal(undefined);
    // a tick's outputs: 64 MB of objects kept alive across scavenges (so promoted), then dropped
    let held: number[][] | undefined = [];
    for (let i = 0; i < 64; i++) held.push(Array.from({ length: 131_072 }, (_, j) => j + 0.5));
    for (let i = 0; i < 4; i++) Array.from({ length: 1_000_000 }, (_, j) => ({ j }));
    expect(held.length).to.equal(64);
    held = undefined;
    const trimmed = trim.afterTick(16, 16);
    expect(trimmed?.reason).to.equal('caught_up');
    // 64 × 131 072 doubles = 64 MB were garbage before the collection
    expect(trimmed!.beforeBytes - trimmed!.afterBytes).to.be.greaterThan(48 * 1_048_576);
    expect(trimmed!.pauseMs).to.be.greaterThan(0);
  });
});
