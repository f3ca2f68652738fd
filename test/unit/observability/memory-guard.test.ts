import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { setFlagsFromString, getHeapStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { HeapAfterGc } from '../../../api-server/src/observability/heap-after-gc.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { cgroupMemoryLimit, parseCgroupLimit, resolveMemoryLimit } from '../../../api-server/src/observability/memory-limit.js';
import { MemoryGuard } from '../../../api-server/src/observability/memory-guard.js';
import { SettingsError, loadSettings } from '../../../api-server/src/config/load-settings.js';

describe('memory limit and high-water guard', () => {
  it('reads a cgroup limit: bytes, and "max" or the v1 page-rounded 2^63-1 as none', () => {
    expect(parseCgroupLimit('2147483648')).to.equal(2_147_483_648);
    expect(parseCgroupLimit('max')).to.equal(undefined);
    expect(parseCgroupLimit('9223372036854771712')).to.equal(undefined);
    expect(parseCgroupLimit('')).to.equal(undefined);
    expect(parseCgroupLimit(undefined)).to.equal(undefined);
  });

  it('prefers cgroup v2 memory.max, then v1, then none; the setting over both', async () => {
    const root = await mkdtemp(join(tmpdir(), 'cgroup-'));
    try {
      expect(cgroupMemoryLimit(root)).to.deep.equal({ bytes: undefined, source: 'none' });
      await mkdir(join(root, 'memory'));
      await writeFile(join(root, 'memory', 'memory.limit_in_bytes'), '1073741824\n');
      expect(cgroupMemoryLimit(root)).to.deep.equal({ bytes: 1_073_741_824, source: 'cgroup-v1' });
      await writeFile(join(root, 'memory.max'), 'max\n');
      expect(cgroupMemoryLimit(root)).to.deep.equal({ bytes: 1_073_741_824, source: 'cgroup-v1' });
      await writeFile(join(root, 'memory.max'), '2147483648\n');
      expect(cgroupMemoryLimit(root)).to.deep.equal({ bytes: 2_147_483_648, source: 'cgroup-v2' });
      expect(resolveMemoryLimit(5000, root)).to.deep.equal({ bytes: 5000, source: 'setting' });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('refuses above high-water x limit, reads the resident size at most every sampleEveryMs, never without a limit', () => {
    let rss = 800;
    let reads = 0;
    let t = 0;
    const guard = new MemoryGuard({ limit: { bytes: 1000, source: 'setting' }, highWater: 0.85, rss: () => (reads++, rss), clock: () => t, sampleEveryMs: 250 });
    expect(guard.refusingNewWorkloads()).to.equal(false); // 800 <= 850
    rss = 900;
    t = 249;
    expect(guard.refusingNewWorkloads()).to.equal(false); // still the reading of t = 0
    t = 250;
    expect(guard.refusingNewWorkloads()).to.equal(true); // 900 > 850
    expect(reads).to.equal(2);
    guard.countRefused(3);
    expect(guard.status()).to.deep.include({ rss_bytes: 900, limit_bytes: 1000, high_water_bytes: 850, refusing_new_workloads: true, workloads_refused: 3 });
    const unlimited = new MemoryGuard({ limit: { bytes: undefined, source: 'none' }, highWater: 0.85, rss: () => 1e12, clock: () => 0 });
    expect(unlimited.refusingNewWorkloads()).to.equal(false);
    expect(unlimited.status()).to.deep.include({ rss_bytes: 1e12, high_water_bytes: null, refusing_new_workloads: false });
  });

  it('refuses while V8 heap after its last major collection is above high-water x the heap limit, with or without a memory limit; the reason names it', () => {
    let used = 0;
    let t = 0;
    const heap = () => ({ usedAfterGcBytes: used, limitBytes: 2000 });
    const guard = new MemoryGuard({ limit: { bytes: 1000, source: 'setting' }, highWater: 0.85, rss: () => 100, heap, clock: () => t, sampleEveryMs: 250 });
    used = 1700; // = 0.85 x 2000: not above
    expect(guard.refusingNewWorkloads()).to.equal(false);
    used = 1701;
    t = 250;
    expect(guard.refusingNewWorkloads()).to.equal(true);
    expect(guard.reason()).to.equal("V8's heap after its last major collection, 0 MB, is above the high-water mark 0 MB (0.85 of the heap limit 0 MB, --max-old-space-size)");
    expect(guard.status()).to.deep.include({ rss_bytes: 100, heap_used_after_gc_bytes: 1701, heap_limit_bytes: 2000, heap_high_water_bytes: 1700, refusing_new_workloads: true });
    // no container limit: the heap is still guarded
    const unlimited = new MemoryGuard({ limit: { bytes: undefined, source: 'none' }, highWater: 0.5, rss: () => 1e12, heap, clock: () => 0 });
    expect(unlimited.refusingNewWorkloads()).to.equal(true); // 1701 > 1000
    used = 999;
    const below = new MemoryGuard({ limit: { bytes: undefined, source: 'none' }, highWater: 0.5, rss: () => 1e12, heap, clock: () => 0 });
    expect(below.refusingNewWorkloads()).to.equal(false);
    expect(below.status()).to.deep.include({ high_water_bytes: null, heap_high_water_bytes: 1000, refusing_new_workloads: false });
  });

  it('HeapAfterGc reads V8 heap when a major collection has run (a real collection of this process)', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heap = new HeapAfterGc();
    expect(heap.reading().usedAfterGcBytes).to.equal(0);
    expect(heap.reading().limitBytes).to.equal(getHeapStatistics().heap_size_limit);
    heap.start();
    try {
      gc();
      const after = getHeapStatistics().used_heap_size;
      for (let i = 0; i < 100 && heap.reading().usedAfterGcBytes === 0; i++) await new Promise((r) => setTimeout(r, 10));
      const read = heap.reading().usedAfterGcBytes;
      expect(read).to.be.greaterThan(0);
      // taken when the entry is delivered: what was allocated since counts too, not more than a few MB here
      expect(Math.abs(read - after)).to.be.lessThan(8 * 1_048_576);
    } finally {
      heap.stop();
    }
  });

  it('settings: high water 0.85 unless told, a limit only when told; out-of-range values refused, naming the variable', () => {
    const d = loadSettings([], {});
    expect(d.memoryHighWater).to.equal(0.85);
    expect(d.memoryLimitBytes).to.equal(undefined);
    const told = loadSettings(['--memory-high-water', '0.5'], { SVC_MEMORY_LIMIT_BYTES: '1073741824' });
    expect([told.memoryHighWater, told.memoryLimitBytes]).to.deep.equal([0.5, 1_073_741_824]);
    expect(() => loadSettings([], { SVC_MEMORY_HIGH_WATER: '1.5' })).to.throw(SettingsError, 'SVC_MEMORY_HIGH_WATER="1.5"');
    expect(() => loadSettings([], { SVC_MEMORY_HIGH_WATER: '0' })).to.throw(SettingsError, 'must be > 0 and <= 1');
    expect(() => loadSettings([], { SVC_MEMORY_LIMIT_BYTES: '-1' })).to.throw(SettingsError, 'SVC_MEMORY_LIMIT_BYTES="-1"');
  });
});
