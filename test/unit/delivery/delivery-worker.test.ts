/**
 * The delivery loop over a real LevelDB outbox with an in-process channel whose failures the
 * test scripts: retries with backoff until it delivers, in order and once; partial progress is
 * kept; a restart resumes at the cursor; stop returns during a backoff.
 */
import { expect } from 'chai';
import { ClassicLevel } from 'classic-level';
import { backoffDelay, DeliveryFailure, DeliveryWorker, type DeliveryHooks, type OutboundChannel } from '../../../api-server/src/delivery/delivery-worker.js';
import type { Envelope } from '../../../api-server/src/delivery/envelope.js';
import { EventOutbox } from '../../../api-server/src/delivery/outbox.js';
import { eventually } from '../../support/service.js';
import { drafts } from '../../support/envelope-drafts.js';
import { makeTempDir } from '../../support/temp-dir.js';

class ScriptedChannel implements OutboundChannel {
  readonly kind = 'bus' as const;
  readonly received: number[] = [];
  openFailures = 0;
  /** fail this many deliver calls; when `partial` is set, hand over that many envelopes first */
  failures = 0;
  partial = 0;
  closed = 0;
  constructor(readonly name: string, readonly batchSize = 10) {}
  async open(): Promise<void> {
    if (this.openFailures > 0) {
      this.openFailures -= 1;
      throw new Error('connection refused');
    }
  }
  async deliver(batch: readonly Envelope[]): Promise<{ dropped: number }> {
    if (this.failures > 0) {
      this.failures -= 1;
      const taken = batch.slice(0, this.partial);
      this.received.push(...taken.map((e) => e.seq));
      throw new DeliveryFailure(new Error('503 from peer'), taken.at(-1)?.seq ?? 0);
    }
    this.received.push(...batch.map((e) => e.seq));
    return { dropped: 0 };
  }
  async close(): Promise<void> {
    this.closed += 1;
  }
}

const quiet: DeliveryHooks = { delivered: () => undefined, failed: () => undefined, dropped: () => undefined, log: () => undefined };
const FAST = { minMs: 5, maxMs: 40, idleMs: 50 };

describe('delivery worker', () => {
  let dir: { path: string; remove: () => Promise<void> };
  let db: ClassicLevel<string, string>;
  let outbox: EventOutbox;

  beforeEach(async () => {
    dir = await makeTempDir('delivery');
    db = new ClassicLevel<string, string>(dir.path);
    await db.open();
    outbox = new EventOutbox(db, 4096);
    await outbox.load();
  });
  afterEach(async () => {
    await db.close();
    await dir.remove();
  });

  it('backoff doubles from the minimum up to the maximum, jittered within [d/2, d]', () => {
    const policy = { minMs: 100, maxMs: 1000, idleMs: 1 };
    expect([1, 2, 3, 4, 5, 9].map((a) => backoffDelay(a, policy, () => 1))).to.deep.equal([100, 200, 400, 800, 1000, 1000]);
    expect(backoffDelay(3, policy, () => 0)).to.equal(200);
  });

  it('retries a failing connect and failing deliveries, then delivers every envelope once and in order', async () => {
    const channel = new ScriptedChannel('bus:test');
    channel.openFailures = 2;
    channel.failures = 3;
    const failed: string[] = [];
    await outbox.register(channel.name);
    const worker = new DeliveryWorker(channel, outbox, { ...quiet, failed: (c) => failed.push(c) }, FAST, () => 0.5);
    worker.start();
    await outbox.append(drafts(25));
    await eventually(async () => (outbox.backlog(channel.name) === 0 ? true : undefined), 5_000, 'the backlog to drain');
    await worker.stop();
    expect(channel.received).to.deep.equal(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(failed).to.have.length(5);
    const status = worker.status();
    expect(status.delivered).to.equal(25);
    expect(status.failures).to.equal(5);
    expect(status.consecutive_failures).to.equal(0);
    expect(status.last_error).to.equal('503 from peer');
  });

  it('keeps what a failed batch handed over before failing, and offers only the rest again', async () => {
    const channel = new ScriptedChannel('sink:test', 10);
    channel.failures = 1;
    channel.partial = 4;
    await outbox.register(channel.name);
    await outbox.append(drafts(10));
    const worker = new DeliveryWorker(channel, outbox, quiet, FAST);
    worker.start();
    await eventually(async () => (outbox.backlog(channel.name) === 0 ? true : undefined), 5_000, 'the backlog to drain');
    await worker.stop();
    expect(channel.received).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('reports the backlog while the peer is down and resumes after a restart from the stored cursor', async () => {
    const channel = new ScriptedChannel('bus:test');
    channel.failures = 1_000_000;
    await outbox.register(channel.name);
    const worker = new DeliveryWorker(channel, outbox, quiet, FAST);
    worker.start();
    await outbox.append(drafts(7));
    await eventually(async () => (worker.status().failures >= 2 ? true : undefined), 5_000, 'failures');
    expect(worker.status().backlog).to.equal(7);
    expect(worker.status().connected).to.equal(false);
    const stoppedAt = Date.now();
    await worker.stop();
    expect(Date.now() - stoppedAt).to.be.lessThan(1_000);
    // a new process: the outbox is reopened from disk and a healthy peer takes everything
    await db.close();
    db = new ClassicLevel<string, string>(dir.path);
    await db.open();
    outbox = new EventOutbox(db, 4096);
    await outbox.load();
    await outbox.register(channel.name);
    const healthy = new ScriptedChannel('bus:test');
    const again = new DeliveryWorker(healthy, outbox, quiet, FAST);
    again.start();
    await eventually(async () => (outbox.backlog(healthy.name) === 0 ? true : undefined), 5_000, 'the backlog to drain');
    await again.stop();
    expect(healthy.received).to.deep.equal([1, 2, 3, 4, 5, 6, 7]);
  });
});
