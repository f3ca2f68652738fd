import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
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
