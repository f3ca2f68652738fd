import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { openDatabase } from '../../../api-server/src/storage/open-database.js';
import { makeTempDir } from '../../support/temp-dir.js';

/** the distinct table files of `dir` this process has mapped (LevelDB reads a table through an mmap of the whole file) */
function mappedTables(dir: string): number {
  const lines = readFileSync('/proc/self/maps', 'utf8').split('\n');
  return new Set(lines.filter((line) => line.includes(dir) && line.endsWith('.ldb')).map((line) => line.slice(line.indexOf('/')))).size;
}

/** writes ~200 MB in batches of 1 MB that snappy cannot shrink (80+ tables of LevelDB's 2 MB), compacts it, reads every key back */
async function fillAndRead(dir: string, maxOpenFiles: number): Promise<{ tables: number; mapped: number }> {
  const db = await openDatabase(dir, { maxOpenFiles });
  try {
    const keys = Array.from({ length: 900 }, (_, i) => `k${String(i).padStart(4, '0')}`);
    for (let i = 0; i < keys.length; i += 5) {
      await db.batch(keys.slice(i, i + 5).map((key) => ({ type: 'put' as const, key, value: randomBytes(150_000).toString('latin1') })));
    }
    await db.compactRange('k', 'l');
    for (const key of keys) expect(await db.get(key), key).to.be.a('string');
    return { tables: readdirSync(dir).filter((f) => f.endsWith('.ldb')).length, mapped: mappedTables(dir) };
  } finally {
    await db.close();
  }
}

describe('the service’s LevelDB (storage/open-database.ts)', function () {
  this.timeout(120_000);

  it('maps at most max_open_files − 10 tables however many it holds, and every table under the default', async function () {
    if (process.platform !== 'linux') this.skip();
    const dir = await makeTempDir('open-database');
    try {
      const bounded = await fillAndRead(join(dir.path, 'bounded'), 74);
      expect(bounded.tables, `tables on disk: ${JSON.stringify(bounded)}`).to.be.greaterThan(64);
      expect(bounded.mapped, 'tables mapped with max_open_files 74').to.be.within(1, 64);
      const wide = await fillAndRead(join(dir.path, 'wide'), 1000);
      expect(wide.tables).to.be.greaterThan(64);
      expect(wide.mapped, 'tables mapped with max_open_files 1000').to.equal(wide.tables);
    } finally {
      await dir.remove();
    }
  });
});
