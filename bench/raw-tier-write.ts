/**
 * The raw tier's LevelDB write for one round of the shared ingest comparison (672 workloads × 6
 * metrics × 250 15-s means in one tick): through `AnalysisStore.writeTick` (one entry per series and
 * clock hour, storage/raw-chunks.ts) against one put per mean (the layout before it), each into a
 * fresh LevelDB, alternating. Prints wall time and the process's CPU (the write's LevelDB thread
 * included) per run.
 *
 *   node --import tsx bench/raw-tier-write.ts [rounds 3]
 */
import { ClassicLevel } from 'classic-level';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnalysisStore, type RawMetricPoint } from '../api-server/src/storage/analysis-store.js';
import { padTime } from '../api-server/src/storage/raw-chunks.js';

const T0 = Date.UTC(2026, 11, 6);
const points: RawMetricPoint[] = [];
for (let s = 0; s < 250; s++) {
  for (let w = 0; w < 672; w++) for (let m = 0; m < 6; m++) points.push({ workload: `bench/Deployment/fl-${w}`, metric: `metric_${m}`, bucketStartMs: T0 + s * 15_000, mean: Math.random(), count: 1 });
}

async function timed(name: string, write: (db: ClassicLevel<string, string>) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'raw-tier-'));
  const db = new ClassicLevel<string, string>(dir);
  await db.open();
  const cpu = process.cpuUsage();
  const started = performance.now();
  await write(db);
  const used = process.cpuUsage(cpu);
  console.log(`${name}: ${(performance.now() - started).toFixed(0)} ms wall, ${((used.user + used.system) / 1e6).toFixed(2)} s CPU`);
  await db.close();
  await rm(dir, { recursive: true, force: true });
}

const rounds = Number(process.argv[2] ?? 3);
console.log(`${points.length} raw means`);
for (let r = 0; r < rounds; r++) {
  await timed('hourly entries (writeTick)', (db) => new AnalysisStore(db).writeTick({ snapshots: [], history: [], anomalies: [], ruptures: [], fingerprints: [], rawPoints: points }));
  await timed('one put per mean (before)', async (db) => {
    const raw = db.sublevel<string, number[]>('raw', { valueEncoding: 'json' });
    const batch = db.batch();
    for (const p of points) batch.put(`${padTime(p.bucketStartMs)}!${p.workload}!${p.metric}`, [p.mean, p.count], { sublevel: raw });
    await batch.write();
  });
}
