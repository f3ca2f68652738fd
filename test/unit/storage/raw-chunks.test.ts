import { expect } from 'chai';
import fc from 'fast-check';
import { ClassicLevel } from 'classic-level';
import { AnalysisStore } from '../../../api-server/src/storage/analysis-store.js';
import { padTime, RAW_CHUNK_MS, rawChunks, readRawEntry, type RawMetricPoint } from '../../../api-server/src/storage/raw-chunks.js';
import { makeTempDir } from '../../support/temp-dir.js';

const H = Date.UTC(2026, 11, 6, 3); // a clock hour
const point = (workload: string, metric: string, bucketStartMs: number, mean: number, count = 1): RawMetricPoint => ({ workload, metric, bucketStartMs, mean, count });

describe('raw tier entries: one per series and clock hour (raw-chunks.ts)', () => {
  it('groups a tick by series and hour, keyed by the first and last mean (hand-checked)', () => {
    const entries = rawChunks([
      point('shop/Deployment/a', 'cpu', H + 15_000, 0.5, 2),
      point('shop/Deployment/a', 'cpu', H + 30_000, 0.25),
      point('shop/Deployment/a', 'mem', H + 15_000, 7),
      // the next hour: its own entry
      point('shop/Deployment/a', 'cpu', H + RAW_CHUNK_MS, 0.75),
      point('shop/Deployment/a', 'cpu', H, 0.1),
    ]);
    expect(entries).to.deep.equal([
      { key: `${padTime(H)}!shop/Deployment/a!cpu!${padTime(H + 30_000)}`, value: [H + 15_000, 0.5, 2, H + 30_000, 0.25, 1, H, 0.1, 1] },
      { key: `${padTime(H + RAW_CHUNK_MS)}!shop/Deployment/a!cpu!${padTime(H + RAW_CHUNK_MS)}`, value: [H + RAW_CHUNK_MS, 0.75, 1] },
      { key: `${padTime(H + 15_000)}!shop/Deployment/a!mem!${padTime(H + 15_000)}`, value: [H + 15_000, 7, 1] },
    ]);
    expect(readRawEntry(entries[0]!.key, entries[0]!.value, 'shop/Deployment/a!cpu')).to.deep.equal([
      { t: H + 15_000, mean: 0.5, count: 2 },
      { t: H + 30_000, mean: 0.25, count: 1 },
      { t: H, mean: 0.1, count: 1 },
    ]);
    // another series' entry, a malformed value: nothing
    expect(readRawEntry(entries[0]!.key, entries[0]!.value, 'shop/Deployment/a!mem')).to.deep.equal([]);
    expect(readRawEntry(entries[0]!.key, [1, 2, 3, 4], 'shop/Deployment/a!cpu')).to.deep.equal([]);
    expect(readRawEntry(entries[0]!.key, { mean: 1 }, 'shop/Deployment/a!cpu')).to.deep.equal([]);
  });

  it('reads an entry written before the hourly layout: <time>!<workload>!<metric> → [mean, count]', () => {
    const key = `${padTime(H)}!shop/Deployment/a!cpu`;
    expect(readRawEntry(key, [0.5, 3], 'shop/Deployment/a!cpu')).to.deep.equal([{ t: H, mean: 0.5, count: 3 }]);
    expect(readRawEntry(key, [0.5, 3], 'shop/Deployment/b!cpu')).to.deep.equal([]);
  });

  it('property: every mean is in exactly one entry of its series, within one clock hour between the key\'s first and last', () => {
    const arbPoint = fc.record({
      workload: fc.constantFrom('ns/Deployment/a', 'ns/Deployment/b', 'ns/StatefulSet/db'),
      metric: fc.constantFrom('cpu', 'latency!p99', 'mem'),
      bucketStartMs: fc.integer({ min: 0, max: 4 * 240 }).map((i) => H + i * 15_000),
      mean: fc.double({ noNaN: true, noDefaultInfinity: true }),
      count: fc.integer({ min: 1, max: 1000 }),
    });
    fc.assert(
      fc.property(fc.array(arbPoint, { maxLength: 300, size: 'max' }), (points) => {
        const entries = rawChunks(points);
        expect(new Set(entries.map((e) => e.key)).size).to.equal(entries.length);
        for (const series of ['ns/Deployment/a', 'ns/Deployment/b', 'ns/StatefulSet/db'].flatMap((w) => ['cpu', 'latency!p99', 'mem'].map((m) => [w, m] as const))) {
          const name = `${series[0]}!${series[1]}`;
          const read = entries.flatMap((e) => {
            const means = readRawEntry(e.key, e.value, name);
            const first = Number(e.key.slice(0, 15));
            const last = Number(e.key.slice(-15));
            for (const m of means) {
              expect(m.t).to.be.within(first, last);
              expect(Math.floor(m.t / RAW_CHUNK_MS)).to.equal(Math.floor(first / RAW_CHUNK_MS));
            }
            return means;
          });
          const expected = points.filter((p) => p.workload === series[0] && p.metric === series[1]).map((p) => ({ t: p.bucketStartMs, mean: p.mean, count: p.count }));
          const order = (a: { t: number; mean: number }, b: { t: number; mean: number }): number => a.t - b.t || a.mean - b.mean;
          expect([...read].sort(order)).to.deep.equal([...expected].sort(order));
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('AnalysisStore raw tier over real LevelDB', () => {
  it('a backfilled tick is one put per series and hour; reads select the window, old entries included; expiry drops whole past hours', async () => {
    const dir = await makeTempDir('raw-chunks');
    const db = new ClassicLevel<string, string>(dir.path);
    await db.open();
    try {
      const store = new AnalysisStore(db);
      // an entry of the layout before, at H - 15 s
      await db.sublevel<string, number[]>('raw', { valueEncoding: 'json' }).put(`${padTime(H - 15_000)}!shop/Deployment/a!cpu`, [0.9, 4]);
      const puts: number[] = [];
      db.on('write', (ops: { key: string }[]) => puts.push(ops.filter((o) => o.key.startsWith('!raw!')).length));
      // 2 hours of one series and 1 mean of another in one tick: 3 entries
      const rawPoints = [...Array.from({ length: 480 }, (_, i) => point('shop/Deployment/a', 'cpu', H + i * 15_000, i)), point('shop/Deployment/b', 'cpu', H, 42)];
      await store.writeTick({ snapshots: [], history: [], anomalies: [], ruptures: [], fingerprints: [], rawPoints });
      expect(puts).to.deep.equal([3]);
      // a window across the hour boundary, starting mid-hour, and the old entry before it
      const window = await store.rawPoints('shop/Deployment/a', 'cpu', H - 15_000, H + 241 * 15_000);
      expect(window.map((m) => m.t)).to.deep.equal(Array.from({ length: 243 }, (_, i) => H + (i - 1) * 15_000));
      expect(window[0]).to.deep.equal({ t: H - 15_000, mean: 0.9, count: 4 });
      expect(window[242]).to.deep.equal({ t: H + 241 * 15_000, mean: 241, count: 1 });
      const mid = await store.rawPoints('shop/Deployment/a', 'cpu', H + 100 * 15_000, H + 100 * 15_000);
      expect(mid).to.deep.equal([{ t: H + 100 * 15_000, mean: 100, count: 1 }]);
      expect(await store.rawPoints('shop/Deployment/b', 'cpu', 0, H + 3 * RAW_CHUNK_MS)).to.deep.equal([{ t: H, mean: 42, count: 1 }]);
      // expiring at H + 90 min keeps the hour holding it whole, drops the hours before it
      await store.expireRaw(H + 90 * 60_000);
      const left = await store.rawPoints('shop/Deployment/a', 'cpu', 0, H + 3 * RAW_CHUNK_MS);
      expect(left.map((m) => m.t)).to.deep.equal(Array.from({ length: 240 }, (_, i) => H + RAW_CHUNK_MS + i * 15_000));
      expect(await store.rawPoints('shop/Deployment/b', 'cpu', 0, H + 3 * RAW_CHUNK_MS)).to.deep.equal([]);
    } finally {
      await db.close();
      await dir.remove();
    }
  });
});
