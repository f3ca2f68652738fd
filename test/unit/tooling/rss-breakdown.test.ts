/**
 * bench/memory/rss-breakdown.ts: smaps parsed and every mapping classed (malloc's brk heap and
 * 64 MiB thread-arena heaps, V8's randomly placed pages and code ranges, files and their .bss, the
 * rest), malloc_info's XML and a diagnostic report read, and the components adding up to the
 * classed RSS; then the breakdown of this test's own process.
 */
import { expect } from 'chai';
import { ARENA_HEAP_BYTES, classifyMappings, components, MAPPING_CLASSES, parseMallocInfo, parseReport, parseSmaps, rssBreakdown, rssByClass, type Breakdown } from '../../../bench/memory/rss-breakdown.js';

const hex = (n: number): string => n.toString(16);
function mapping(start: number, end: number, perms: string, path: string, rssKb: number, anonKb = rssKb): string {
  return [
    `${hex(start)}-${hex(end)} ${perms} 00000000 00:00 0                          ${path}`,
    `Size:           ${(end - start) / 1024} kB`,
    `Rss:            ${rssKb} kB`,
    `Pss:            ${rssKb} kB`,
    `Anonymous:      ${anonKb} kB`,
    'VmFlags: rd wr mr mw me ac sd',
  ].join('\n');
}

const MB = 1024 * 1024;
const ARENA = 0x7f1e04000000; // 64 MiB aligned
const SMAPS = [
  mapping(0x400000, 0x400000 + 4 * MB, 'r--p', '/opt/node/bin/node', 4096, 0),
  mapping(0x400000 + 4 * MB, 0x400000 + 6 * MB, 'rw-p', '/opt/node/bin/node', 100, 100),
  mapping(0x400000 + 6 * MB, 0x400000 + 7 * MB, 'rw-p', '', 300), // node's .bss
  mapping(0x36d59000, 0x36d59000 + 10 * MB, 'rw-p', '[heap]', 9000),
  mapping(0x21d400000, 0x21d400000 + 256 * 1024, 'rw-p', '', 256), // a V8 page
  mapping(0x30e0b0000000, 0x30e0b0000000 + 256 * 1024, 'rw-p', '', 256), // a V8 page on a 64 MiB boundary, no PROT_NONE tail
  mapping(0x7f1bc8000000, 0x7f1bc8000000 + 512 * MB, 'rwxp', '', 2000), // V8's code range
  mapping(ARENA, ARENA + 2 * MB, 'rw-p', '', 1500), // an arena's heap: 2 MiB used ...
  mapping(ARENA + 2 * MB, ARENA + ARENA_HEAP_BYTES, '---p', '', 0), // ... and its PROT_NONE rest
  mapping(ARENA + ARENA_HEAP_BYTES, ARENA + 2 * ARENA_HEAP_BYTES, 'rw-p', '', 65536), // a full heap (64 MiB)
  mapping(0x7f1e10835000, 0x7f1e10835000 + 1300 * 1024, 'rw-p', '', 1300), // malloc-mmapped chunk
  mapping(0x7f1e58400000, 0x7f1e58400000 + 460 * 1024, 'r-xp', '/app/node_modules/classic-level/prebuilds/linux-x64/classic-level.node', 448, 0),
  mapping(0x7f1e5b844000, 0x7f1e5b844000 + 1368 * 1024, 'r-xp', '/usr/lib/x86_64-linux-gnu/libc.so.6', 1240, 0),
  mapping(0x7f1e60000000, 0x7f1e60000000 + 2 * MB, 'r--s', '/var/lib/faultline/000123.ldb', 700, 0),
  mapping(0x7f1e70000000, 0x7f1e70000000 + 1 * MB, 'r--s', '/tmp/other/000124.ldb', 10, 0),
  mapping(0x7f1e70000000 + 1 * MB, 0x7f1e70000000 + 3 * MB, 'rw-p', '', 1600), // a malloc-mmapped chunk right after a table: not the table's .bss
  mapping(0x7ffe36f00000, 0x7ffe36f00000 + 132 * 1024, 'rw-p', '[stack]', 64),
  mapping(0x7ffe36ff0000, 0x7ffe36ff0000 + 8 * 1024, 'r--p', '[vvar]', 0),
].join('\n');

describe('bench/memory/rss-breakdown.ts', () => {
  it('parses smaps: addresses, permissions, path, Rss and Anonymous', () => {
    const maps = parseSmaps(SMAPS);
    expect(maps).to.have.length(18);
    expect(maps[3]).to.deep.equal({ start: 0x36d59000, end: 0x36d59000 + 10 * MB, perms: 'rw-p', path: '[heap]', rssKb: 9000, anonKb: 9000 });
    expect(maps[2]!.path).to.equal('');
    expect(maps[0]).to.include({ rssKb: 4096, anonKb: 0 });
  });

  it('classes every mapping', () => {
    const maps = parseSmaps(SMAPS);
    expect(classifyMappings(maps, { exe: '/opt/node/bin/node', dataDir: '/var/lib/faultline' })).to.deep.equal([
      'node-binary',
      'node-binary',
      'node-binary',
      'malloc-brk',
      'v8-heap',
      'v8-heap',
      'v8-code',
      'malloc-arena',
      'malloc-arena',
      'malloc-arena',
      'anon-other',
      'native-libraries',
      'native-libraries',
      'leveldb-files',
      'leveldb-files',
      'anon-other',
      'stack',
      'other-files',
    ]);
  });

  it('sums the resident KB of each class; every mapping is in one', () => {
    const maps = parseSmaps(SMAPS);
    const sums = rssByClass(maps, classifyMappings(maps, { exe: '/opt/node/bin/node' }));
    expect(sums['malloc-arena']).to.equal(1500 + 65536);
    expect(sums['v8-heap']).to.equal(512);
    expect(sums['node-binary']).to.equal(4096 + 100 + 300);
    expect(MAPPING_CLASSES.reduce((s, c) => s + sums[c], 0)).to.equal(maps.reduce((s, m) => s + m.rssKb, 0));
  });

  it("reads malloc_info's arenas, free bytes and mmapped chunks", () => {
    const xml = `<malloc version="1">
<heap nr="0">
<sizes>
  <size from="33" to="33" total="396" count="12"/>
</sizes>
<total type="fast" count="2" size="64"/>
<total type="rest" count="314" size="261497"/>
<system type="current" size="5246976"/>
<system type="max" size="5427200"/>
<aspace type="total" size="5246976"/>
<aspace type="mprotect" size="5246976"/>
</heap>
<heap nr="1">
<sizes>
</sizes>
<total type="fast" count="0" size="0"/>
<total type="rest" count="20" size="217171"/>
<system type="current" size="1597440"/>
<system type="max" size="1732608"/>
<aspace type="total" size="1597440"/>
<aspace type="mprotect" size="1732608"/>
<aspace type="subheaps" size="1"/>
</heap>
<total type="fast" count="35" size="2336"/>
<total type="rest" count="537" size="2970412"/>
<total type="mmap" count="8" size="3022848"/>
<system type="current" size="12140544"/>
</malloc>`;
    expect(parseMallocInfo(xml)).to.deep.equal({
      arenas: [
        { systemBytes: 5246976, freeBytes: 261561 },
        { systemBytes: 1597440, freeBytes: 217171 },
      ],
      mmapCount: 8,
      mmapBytes: 3022848,
    });
  });

  it("reads the main thread's and the workers' V8 heaps from a diagnostic report", () => {
    const heap = (committed: number, used: number): object => ({ totalCommittedMemory: committed, usedMemory: used, externalMemory: 7, heapSpaces: { new_space: { committedMemory: committed / 2 }, old_space: { committedMemory: committed / 2 } } });
    const parsed = parseReport(JSON.stringify({ javascriptHeap: heap(100, 60), workers: [{ javascriptHeap: heap(40, 10) }] }));
    expect(parsed.main).to.deep.equal({ committedBytes: 100, usedBytes: 60, externalBytes: 7, spaces: { new_space: 50, old_space: 50 } });
    expect(parsed.workers.map((w) => w.committedBytes)).to.deep.equal([40]);
  });

  it('components add up to the classed RSS, with and without the report and malloc_info', () => {
    const maps = parseSmaps(SMAPS);
    const byClass = rssByClass(maps, classifyMappings(maps));
    const classed = MAPPING_CLASSES.reduce((s, c) => s + byClass[c], 0);
    const bare: Breakdown = { rssKb: classed, byClass, arenas: 1, threads: 3 };
    const sum = (b: Breakdown): number => components(b).reduce((s, c) => s + c.kb, 0);
    expect(sum(bare)).to.equal(classed);
    const full: Breakdown = {
      ...bare,
      v8: { main: { committedBytes: 300 * 1024, usedBytes: 100 * 1024, externalBytes: 0, spaces: {} }, workers: [{ committedBytes: 100 * 1024, usedBytes: 50, externalBytes: 0, spaces: {} }] },
      malloc: { arenas: [{ systemBytes: 10 * MB, freeBytes: 2 * MB }, { systemBytes: 66 * MB, freeBytes: 30 * MB }], mmapCount: 1, mmapBytes: 1300 * 1024 },
    };
    expect(sum(full)).to.be.closeTo(classed, 1e-6);
    const rows = Object.fromEntries(components(full).map((c) => [c.name, c.kb]));
    expect(rows['malloc main arena (brk), in use']).to.equal(8 * 1024);
    expect(rows['malloc main arena (brk), free but resident']).to.equal(9000 - 8 * 1024);
    expect(rows['malloc 1 thread arenas, in use']).to.equal(36 * 1024);
    expect(rows['malloc mmapped chunks (1)']).to.equal(1300);
  });

  it("breaks down this test's own process (smaps only)", async () => {
    const b = await rssBreakdown(process.pid);
    expect(b.rssKb).to.be.greaterThan(0);
    expect(b.byClass['node-binary']).to.be.greaterThan(0);
    expect(b.byClass['v8-heap']).to.be.greaterThan(0);
    // smaps and VmRSS are read moments apart: within a few per cent of each other
    const classed = MAPPING_CLASSES.reduce((s, c) => s + b.byClass[c], 0);
    expect(Math.abs(classed - b.rssKb) / b.rssKb).to.be.lessThan(0.05);
  });
});
