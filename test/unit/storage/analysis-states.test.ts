import { expect } from 'chai';
import { ClassicLevel } from 'classic-level';
import { AnalysisStore, STATE_BATCH_BYTES, TICK_BATCH_BYTES } from '../../../api-server/src/storage/analysis-store.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { snapshotOf } from '../../support/analysis-fixtures.js';

/** a state whose JSON is `bytes` long: {"k":"xxx…"} */
const stateOf = (bytes: number): { k: string } => ({ k: 'x'.repeat(bytes - 8) });

describe('AnalysisStore.writeStates: analysis state in bounded batches (real LevelDB)', () => {
  it('writes each state, a batch once it holds maxBatchBytes of JSON, and reads them back with the snapshots', async () => {
    const dir = await makeTempDir('analysis-states');
    const db = new ClassicLevel<string, string>(dir.path);
    await db.open();
    try {
      const store = new AnalysisStore(db);
      const keys = ['a', 'b', 'c', 'd', 'e'];
      /** the keys of each batch written, in order */
      const batches: string[][] = [];
      db.on('write', (ops: { key: string }[]) => batches.push(ops.map((o) => o.key)));
      const exported: string[] = [];
      let pauses = 0;
      // 100 bytes each, 250 per batch: a batch is written once it reaches 250 bytes (3 states)
      const missing = await store.writeStates(
        keys,
        (k) => {
          exported.push(k);
          return stateOf(100);
        },
        () => {
          pauses += 1;
          return undefined;
        },
        250,
      );
      expect(missing).to.deep.equal([]);
      expect(exported).to.deep.equal(keys);
      expect(pauses).to.equal(5);
      expect(batches).to.deep.equal([
        ['!state!a', '!state!b', '!state!c'],
        ['!state!d', '!state!e'],
      ]);
      // written right after the store was made (its sublevels still opening), before any snapshot
      await store.writeTick({ snapshots: keys.map((k) => snapshotOf(k)), history: [], anomalies: [], ruptures: [], fingerprints: [] });
      const loaded = await store.loadWorkloads();
      expect(loaded.map((w) => w.snapshot.key)).to.deep.equal(keys);
      for (const w of loaded) expect(JSON.stringify(w.state)).to.have.length(100);
    } finally {
      await db.close();
      await dir.remove();
    }
  });

  it('by default writes a full-size state before the next is exported, and batches small ones (real LevelDB)', async () => {
    const dir = await makeTempDir('analysis-states-default');
    const db = new ClassicLevel<string, string>(dir.path);
    await db.open();
    try {
      const store = new AnalysisStore(db);
      const events: string[] = [];
      db.on('write', (ops: { key: string }[]) => events.push(`write ${ops.map((o) => o.key.replace('!state!', '')).join(',')}`));
      // ~198 KB: a workload's state at full windows (docs/memory-soak.md), above the bound
      expect(STATE_BATCH_BYTES).to.be.below(198_000);
      await store.writeStates(['a', 'b', 'c'], (k) => {
        events.push(`export ${k}`);
        return stateOf(198_000);
      });
      expect(events).to.deep.equal(['export a', 'write a', 'export b', 'write b', 'export c', 'write c']);
      events.length = 0;
      // 2 KB states (a new workload's): 64 of them reach 128 KB with their keys (64 × 2 048 + 182), the other 36 at the end
      const keys = Array.from({ length: 100 }, (_, i) => `n${i}`);
      await store.writeStates(keys, () => stateOf(2048));
      expect(events.map((e) => e.split(',').length)).to.deep.equal([64, 36]);
      expect(((await db.sublevel('state').get('c')) ?? '').length).to.equal(198_000);
    } finally {
      await db.close();
      await dir.remove();
    }
  });

  it('skips the workloads the analysis no longer holds, keeps their stored state and names them', async () => {
    const dir = await makeTempDir('analysis-states-missing');
    const db = new ClassicLevel<string, string>(dir.path);
    await db.open();
    try {
      const store = new AnalysisStore(db);
      await store.writeTick({ snapshots: [snapshotOf('a'), snapshotOf('b')], history: [], anomalies: [], ruptures: [], fingerprints: [] });
      await store.writeStates(['a', 'b'], (k) => ({ v: k }));
      const missing = await store.writeStates(['a', 'b'], (k) => (k === 'a' ? undefined : { v: 'b2' }));
      expect(missing).to.deep.equal(['a']);
      const loaded = await store.loadWorkloads();
      expect(loaded.map((w) => w.state)).to.deep.equal([{ v: 'a' }, { v: 'b2' }]);
      // a snapshot without a stored state: restored without one
      await store.writeTick({ snapshots: [snapshotOf('c')], history: [], anomalies: [], ruptures: [], fingerprints: [] });
      expect((await store.loadWorkloads()).find((w) => w.snapshot.key === 'c')?.state).to.equal(undefined);
      expect(await store.writeStates([], () => ({}))).to.deep.equal([]);
    } finally {
      await db.close();
      await dir.remove();
    }
  });

  it("writes a tick in batches of about tickBatchBytes, each entry once, and reads them back as one batch's", async () => {
    expect(TICK_BATCH_BYTES).to.equal(4 * 1_048_576);
    const write = {
      snapshots: ['a', 'b', 'c'].map((k) => snapshotOf(k)),
      history: [],
      anomalies: [],
      ruptures: [],
      fingerprints: [],
      rawPoints: Array.from({ length: 40 }, (_, i) => ({ workload: `w${i % 4}`, metric: 'cpu', bucketStartMs: 1_700_000_000_000 + Math.floor(i / 4) * 15_000, mean: i / 2, count: 1 + (i % 3) })),
    };
    const stored = async (tickBatchBytes: number | undefined): Promise<{ batches: number[]; entries: [string, string][] }> => {
      const dir = await makeTempDir('analysis-tick-batches');
      const db = new ClassicLevel<string, string>(dir.path);
      await db.open();
      try {
        const store = tickBatchBytes === undefined ? new AnalysisStore(db) : new AnalysisStore(db, tickBatchBytes);
        const batches: number[] = [];
        db.on('write', (ops: unknown[]) => batches.push(ops.length));
        await store.writeTick(write);
        return { batches, entries: await db.iterator().all() };
      } finally {
        await db.close();
        await dir.remove();
      }
    };
    const one = await stored(undefined);
    // 3 snapshots and the raw tier's 4 entries (one per series and hour: raw-chunks.ts)
    expect(one.batches).to.deep.equal([7]);
    // a snapshot alone is over 500 bytes, a raw entry of 10 means about 300: batches of one or two entries
    const bounded = await stored(500);
    expect(bounded.batches.length).to.be.greaterThan(3);
    expect(bounded.batches.reduce((s, n) => s + n, 0)).to.equal(7);
    // the same keys and the same stored bytes as the one batch
    expect(bounded.entries).to.deep.equal(one.entries);
    expect(one.entries.filter(([k]) => k.startsWith('!raw!'))).to.have.length(4);
    // w0's means i = 0, 4, …, 36 as (time, mean, count) triples
    expect(one.entries.find(([k]) => k.startsWith('!raw!'))?.[1]).to.match(/^\[1700000000000,0,1,1700000015000,2,2,1700000030000,4,3,/);
  });
});
