/**
 * What LevelDB's open-file bound costs and saves (docs/memory.md, "LevelDB's tables"): for each
 * bound, a fresh database of `--keys` random values of `--value-bytes` (written in batches of
 * 1 000, then compacted: ~80 tables of 2 MB at the defaults), then `--reads` point reads of
 * random keys; prints the tables on disk, the tables mapped and their resident pages after the
 * reads, and the time a read took. Each bound runs `--rounds` times, alternating.
 *
 * usage: node --import tsx bench/memory/leveldb-open-files.ts [--bounds 74,1000] [--keys 1200000]
 *        [--value-bytes 120] [--reads 5000] [--rounds 2]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../../api-server/src/storage/open-database.js';
import { parseSmaps } from './rss-breakdown.js';

const { values } = parseArgs({
  options: { bounds: { type: 'string', default: '74,1000' }, keys: { type: 'string', default: '1200000' }, 'value-bytes': { type: 'string', default: '120' }, reads: { type: 'string', default: '5000' }, rounds: { type: 'string', default: '2' } },
});
const [keys, valueBytes, reads, rounds] = [values.keys, values['value-bytes'], values.reads, values.rounds].map(Number) as [number, number, number, number];
const bounds = values.bounds.split(',').map(Number);
const key = (i: number): string => `k${String(i).padStart(8, '0')}`;

/** the table files under `dir` this process maps, and their resident KB */
function mapped(dir: string): { tables: number; rssKb: number } {
  const tables = parseSmaps(readFileSync('/proc/self/smaps', 'utf8')).filter((m) => m.path.startsWith(dir) && m.path.endsWith('.ldb'));
  return { tables: new Set(tables.map((m) => m.path)).size, rssKb: tables.reduce((sum, m) => sum + m.rssKb, 0) };
}

async function round(bound: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'leveldb-open-files-'));
  try {
    const db = await openDatabase(dir, { maxOpenFiles: bound });
    for (let i = 0; i < keys; i += 1_000) {
      await db.batch(Array.from({ length: Math.min(1_000, keys - i) }, (_, j) => ({ type: 'put' as const, key: key(i + j), value: randomBytes(valueBytes).toString('base64') })));
    }
    await db.compactRange(key(0), key(keys));
    let seed = 7;
    const next = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const order = Array.from({ length: reads }, () => Math.floor(next() * keys));
    const started = process.hrtime.bigint();
    for (const i of order) await db.get(key(i));
    const usPerRead = Number(process.hrtime.bigint() - started) / 1_000 / reads;
    const m = mapped(dir);
    const onDisk = readdirSync(dir).filter((f) => f.endsWith('.ldb')).length;
    await db.close();
    console.log(`max_open_files ${bound}: ${onDisk} tables on disk, ${m.tables} mapped (${(m.rssKb / 1024).toFixed(1)} MB resident); a random read ${usPerRead.toFixed(1)} µs`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (let r = 0; r < rounds; r++) for (const bound of bounds) await round(bound);
