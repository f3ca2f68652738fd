/** Reads never go backwards across a failover: the snapshot further along wins. */
import { expect } from 'chai';
import { newerSnapshot } from '../../../api-server/src/cluster/cluster-reads.js';
import { settleWithin } from '../../../api-server/src/cluster/settle-within.js';
import { snapshotOf } from '../../support/analysis-fixtures.js';

describe('cluster reads: the newer snapshot', () => {
  const at = (timeMs: number, calibrationProgress: number): ReturnType<typeof snapshotOf> => snapshotOf('shop/Deployment/w0', { timeMs, calibrationProgress });

  it('keeps the read view\'s snapshot while the restored analysis is behind it, then the owner\'s', () => {
    const view = at(600_000, 40);
    // restored from an older checkpoint: 27 buckets, 13 behind what every replica served
    expect(newerSnapshot(at(405_000, 27), view)).to.equal(view);
    // restored with no state at all
    expect(newerSnapshot(undefined, view)).to.equal(view);
    // caught up: the owner's own (fresher for the same bucket)
    const own = at(600_000, 40);
    expect(newerSnapshot(own, view)).to.equal(own);
    const ahead = at(615_000, 41);
    expect(newerSnapshot(ahead, view)).to.equal(ahead);
    expect(newerSnapshot(ahead, undefined)).to.equal(ahead);
    expect(newerSnapshot(undefined, undefined)).to.equal(undefined);
  });

  it('breaks a tie in time on calibration progress', () => {
    const view = at(600_000, 40);
    expect(newerSnapshot(at(600_000, 39), view)).to.equal(view);
  });
});

describe('cluster: bounded waiting', () => {
  it('says whether the work settled, failed or ran out of time, and never throws', async () => {
    expect(await settleWithin(undefined, 10)).to.equal('settled');
    expect(await settleWithin(Promise.resolve(1), 50)).to.equal('settled');
    expect(await settleWithin(Promise.reject(new Error('closed')), 50)).to.equal('failed');
    const started = Date.now();
    expect(await settleWithin(new Promise(() => undefined), 30)).to.equal('timed_out');
    expect(Date.now() - started).to.be.at.least(25);
  });
});
