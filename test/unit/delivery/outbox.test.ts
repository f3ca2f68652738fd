/** The durable outbox on a real LevelDB: numbering, cursors, restart, trimming and its bound. */
import { expect } from 'chai';
import { ClassicLevel } from 'classic-level';
import fc from 'fast-check';
import { EventOutbox } from '../../../api-server/src/delivery/outbox.js';
import { drafts } from '../../support/envelope-drafts.js';
import { makeTempDir } from '../../support/temp-dir.js';

describe('event outbox (LevelDB)', () => {
  let dir: { path: string; remove: () => Promise<void> };
  let db: ClassicLevel<string, string>;

  const open = async (capacity = 4096, overflow: (c: string, n: number) => void = () => undefined): Promise<EventOutbox> => {
    const outbox = new EventOutbox(db, capacity, { overflow });
    await outbox.load();
    return outbox;
  };
  const stored = async (): Promise<number> => {
    let n = 0;
    for await (const _ of db.sublevel('outbox').keys()) n += 1;
    return n;
  };

  beforeEach(async () => {
    dir = await makeTempDir('outbox');
    db = new ClassicLevel<string, string>(dir.path);
    await db.open();
  });
  afterEach(async () => {
    await db.close();
    await dir.remove();
  });

  it('numbers envelopes 1, 2, 3 with ids ev_000001… and gives a band payload the same id', async () => {
    const outbox = await open();
    await outbox.register('bus:nats');
    const out = await outbox.append(drafts(3));
    expect(out.map((e) => e.seq)).to.deep.equal([1, 2, 3]);
    expect(out.map((e) => e.id)).to.deep.equal(['ev_000001', 'ev_000002', 'ev_000003']);
    const first = out[0]!;
    expect(first.type === 'rupture.state_changed' && first.payload.id).to.equal('ev_000001');
    expect(first.topic).to.equal('svc.rupture.shop/Deployment/cart');
    expect(first.schema).to.equal('faultline.event/v1');
  });

  it('keeps the sequence and every undelivered envelope across a reopen; each channel resumes at its cursor', async () => {
    let outbox = await open();
    await outbox.register('a');
    await outbox.register('b');
    await outbox.append(drafts(5));
    await outbox.ack('a', 3);
    await db.close();
    db = new ClassicLevel<string, string>(dir.path);
    await db.open();
    outbox = await open();
    await outbox.register('a');
    await outbox.register('b');
    expect(outbox.sequence).to.equal(5);
    expect((await outbox.read('a', 10)).map((e) => e.seq)).to.deep.equal([4, 5]);
    expect((await outbox.read('b', 10)).map((e) => e.seq)).to.deep.equal([1, 2, 3, 4, 5]);
    const next = await outbox.append(drafts(1));
    expect(next[0]!.id).to.equal('ev_000006');
  });

  it('starts a new channel at the end, deletes what every channel has delivered, and keeps nothing without channels', async () => {
    const outbox = await open();
    await outbox.append(drafts(2));
    expect(await stored()).to.equal(0);
    await outbox.register('a');
    expect(await outbox.read('a', 10)).to.deep.equal([]);
    await outbox.append(drafts(4));
    expect(outbox.backlog('a')).to.equal(4);
    await outbox.register('b');
    expect(outbox.backlog('b')).to.equal(0);
    await outbox.ack('a', 4);
    expect(await stored()).to.equal(2);
    await outbox.ack('a', 6);
    expect(await stored()).to.equal(0);
    expect(outbox.backlog('a')).to.equal(0);
  });

  it('drops the oldest envelopes of a channel more than `capacity` behind, counts them, and spares the others', async () => {
    const lost: [string, number][] = [];
    const outbox = await open(16, (c, n) => lost.push([c, n]));
    await outbox.register('dead');
    await outbox.register('live');
    for (let i = 0; i < 5; i += 1) {
      await outbox.append(drafts(5));
      const batch = await outbox.read('live', 100);
      await outbox.ack('live', batch.at(-1)!.seq);
    }
    expect(outbox.backlog('dead')).to.equal(16);
    expect(lost.reduce((n, [, k]) => n + k, 0)).to.equal(9);
    expect(lost.every(([c]) => c === 'dead')).to.equal(true);
    expect((await outbox.read('dead', 100)).map((e) => e.seq)).to.deep.equal(Array.from({ length: 16 }, (_, i) => i + 10));
    expect(await stored()).to.equal(16);
  });

  it('forgets a channel no longer configured, so it keeps nothing alive', async () => {
    const outbox = await open();
    await outbox.register('old');
    await outbox.append(drafts(3));
    await outbox.forget(new Set());
    expect(await stored()).to.equal(0);
  });

  it('property: concurrent appends and acks deliver every envelope to every channel once, in order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 25, size: 'max' }), async (steps) => {
        await db.clear();
        const outbox = await open();
        await outbox.register('x');
        await outbox.register('y');
        const seen: Record<string, number[]> = { x: [], y: [] };
        const consume = async (channel: 'x' | 'y', limit: number): Promise<void> => {
          const batch = await outbox.read(channel, limit);
          if (batch.length === 0) return;
          seen[channel]!.push(...batch.map((e) => e.seq));
          await outbox.ack(channel, batch.at(-1)!.seq);
        };
        let total = 0;
        for (const [n, limit] of steps) {
          total += n;
          // an append not awaited before the reads: readers must never see a gap
          const pending = outbox.append(drafts(n));
          await Promise.all([consume('x', limit + 1), consume('y', limit)]);
          await pending;
        }
        while (outbox.backlog('x') > 0) await consume('x', 7);
        while (outbox.backlog('y') > 0) await consume('y', 7);
        const all = Array.from({ length: total }, (_, i) => i + 1);
        expect(seen['x']).to.deep.equal(all);
        expect(seen['y']).to.deep.equal(all);
        expect(await stored()).to.equal(0);
      }),
      { numRuns: 40 },
    );
  });
});
