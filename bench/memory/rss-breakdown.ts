/**
 * What a running service's resident memory is made of, by component (docs/memory.md, "The RSS by
 * component"). Three readings of the same process, taken one after the other:
 *
 * - `/proc/PID/smaps`, each mapping put in one class: glibc malloc's main heap (`[heap]`, brk), its
 *   per-thread arenas (anonymous read-write mappings that start on a 64 MiB boundary, with their
 *   PROT_NONE tail making up whole 64 MiB heaps: glibc's HEAP_MAX_SIZE), V8's heap pages
 *   (anonymous mappings below 2^46: V8 places its pages at random addresses there, whereas the
 *   kernel puts mmap() without a hint near 0x7f..., below the libraries), V8's code ranges
 *   (anonymous rwx), the files (node's binary, the native libraries and addons, LevelDB's tables,
 *   which LevelDB reads through mmap), and the rest of the anonymous memory (malloc's mmapped
 *   chunks, above MALLOC_MMAP_THRESHOLD_; thread stacks; what native code maps itself);
 * - Node's diagnostic report (`--report-on-signal`, the bench sends `REPORT_SIGNAL`): the main
 *   thread's and every worker thread's V8 heap (committed, used, per space) and external memory;
 * - glibc's `malloc_info` through gdb (optional): every arena's size and the free bytes in it, and
 *   the chunks malloc mmapped; with `trim`, then `malloc_trim(0)` and the RSS again, which says how
 *   much of the free memory malloc held was resident.
 *
 * usage: node --import tsx bench/memory/rss-breakdown.ts PID [--report-dir DIR] [--data-dir DIR] [--gdb] [--trim]
 *   (the process must run with `--report-on-signal --report-signal=SIGWINCH --report-directory=DIR`
 *   for the V8 part; `--gdb` needs gdb and ptrace rights over the process)
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** the signal the bench asks Node's report on (`--report-signal`): SIGWINCH, ignored by a process without the flag */
export const REPORT_SIGNAL = 'SIGWINCH';

/** node flags that make a process write its diagnostic report into `dir` on REPORT_SIGNAL */
export const reportFlags = (dir: string): string[] => ['--report-on-signal', `--report-signal=${REPORT_SIGNAL}`, `--report-directory=${dir}`, '--report-exclude-env'];

export interface Mapping {
  start: number;
  end: number;
  perms: string;
  /** the file, `[heap]`, `[stack]`, …, or '' (anonymous) */
  path: string;
  rssKb: number;
  /** anonymous pages (a file's private copies too) */
  anonKb: number;
}

export type MappingClass =
  | 'malloc-brk'
  | 'malloc-arena'
  | 'v8-heap'
  | 'v8-code'
  | 'node-binary'
  | 'native-libraries'
  | 'leveldb-files'
  | 'other-files'
  | 'stack'
  | 'anon-other';

export const MAPPING_CLASSES: readonly MappingClass[] = ['malloc-brk', 'malloc-arena', 'v8-heap', 'v8-code', 'node-binary', 'native-libraries', 'leveldb-files', 'other-files', 'stack', 'anon-other'];

/** glibc's HEAP_MAX_SIZE on 64-bit: a thread arena's heaps are this large and aligned to it */
export const ARENA_HEAP_BYTES = 64 * 1024 * 1024;
/** V8 (x64 Linux, no pointer compression) asks for its pages at random addresses below this */
export const V8_RANDOM_LIMIT = 2 ** 46;

const HEADER = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/;

export function parseSmaps(text: string): Mapping[] {
  const out: Mapping[] = [];
  let cur: Mapping | undefined;
  for (const line of text.split('\n')) {
    const h = HEADER.exec(line);
    if (h !== null) {
      cur = { start: parseInt(h[1]!, 16), end: parseInt(h[2]!, 16), perms: h[3]!, path: h[4]!.trim(), rssKb: 0, anonKb: 0 };
      out.push(cur);
      continue;
    }
    if (cur === undefined) continue;
    const f = /^(Rss|Anonymous):\s+(\d+) kB/.exec(line);
    if (f === null) continue;
    if (f[1] === 'Rss') cur.rssKb = Number(f[2]);
    else cur.anonKb = Number(f[2]);
  }
  return out;
}

export interface ClassifyOptions {
  /** the node binary's path (/proc/PID/exe) */
  exe?: string;
  /** the service's data directory: files in it are LevelDB's */
  dataDir?: string;
}

/** the class of every mapping of `maps` (in address order, as smaps lists them) */
export function classifyMappings(maps: readonly Mapping[], options: ClassifyOptions = {}): MappingClass[] {
  const classes: MappingClass[] = [];
  for (let i = 0; i < maps.length; i++) {
    const m = maps[i]!;
    const prev = i > 0 ? maps[i - 1] : undefined;
    classes.push(classOf(m, prev, i > 0 ? classes[i - 1] : undefined, maps[i + 1], options));
  }
  return classes;
}

function classOf(m: Mapping, prev: Mapping | undefined, prevClass: MappingClass | undefined, next: Mapping | undefined, options: ClassifyOptions): MappingClass {
  if (m.path === '[heap]') return 'malloc-brk';
  if (m.path.startsWith('[stack')) return 'stack';
  if (m.path.startsWith('/')) return fileClass(m.path, options);
  if (m.path !== '') return 'other-files'; // [vvar], [vdso], [vsyscall], [anon:…]
  // a binary's or library's zero-filled data (.bss) follows its data segment directly; an anonymous
  // mapping that happens to follow a mapped data file (a LevelDB table, read-only) is not the file's
  if (prev !== undefined && prev.end === m.start && prevClass !== undefined && prevClass !== 'leveldb-files' && prev.path.startsWith('/') && prev.perms === 'rw-p' && m.perms === 'rw-p') return prevClass;
  if (m.perms === 'rwxp') return 'v8-code';
  if (m.perms === 'rw-p' && m.start % ARENA_HEAP_BYTES === 0) {
    const size = m.end - m.start;
    const tail = next !== undefined && next.start === m.end && next.perms === '---p' && next.path === '' ? next.end - next.start : 0;
    const whole = size + tail;
    if (whole % ARENA_HEAP_BYTES === 0 && (tail > 0 ? tail < ARENA_HEAP_BYTES : true)) return 'malloc-arena';
  }
  // the PROT_NONE rest of an arena's heap (never resident)
  if (m.perms === '---p' && prevClass === 'malloc-arena' && prev?.end === m.start) return 'malloc-arena';
  if (m.start < V8_RANDOM_LIMIT) return 'v8-heap';
  return 'anon-other';
}

function fileClass(path: string, options: ClassifyOptions): MappingClass {
  const file = path.replace(/ \(deleted\)$/, '');
  if (options.exe !== undefined && file === options.exe) return 'node-binary';
  if (options.dataDir !== undefined && file.startsWith(options.dataDir.endsWith('/') ? options.dataDir : `${options.dataDir}/`)) return 'leveldb-files';
  if (/\.ldb$|\.sst$/.test(file)) return 'leveldb-files';
  if (/\.so(\.\d+)*$|\.node$/.test(file)) return 'native-libraries';
  return 'other-files';
}

/** resident KB of each class */
export function rssByClass(maps: readonly Mapping[], classes: readonly MappingClass[]): Record<MappingClass, number> {
  const sums = Object.fromEntries(MAPPING_CLASSES.map((c) => [c, 0])) as Record<MappingClass, number>;
  maps.forEach((m, i) => (sums[classes[i]!] += m.rssKb));
  return sums;
}

/** the number of malloc arenas besides the main one (their first heaps in smaps) */
export function arenaHeaps(maps: readonly Mapping[], classes: readonly MappingClass[]): number {
  return maps.filter((m, i) => classes[i] === 'malloc-arena' && m.perms === 'rw-p').length;
}

export interface MallocArena {
  /** bytes of address space the arena has from the system */
  systemBytes: number;
  /** bytes in its free chunks (fast bins and the rest) */
  freeBytes: number;
}

export interface MallocInfo {
  /** arenas in malloc_info's order: the main arena (brk) first */
  arenas: MallocArena[];
  /** chunks malloc mmapped (above the mmap threshold): count and bytes */
  mmapCount: number;
  mmapBytes: number;
}

/** glibc's malloc_info(0, …) XML */
export function parseMallocInfo(xml: string): MallocInfo {
  const arenas: MallocArena[] = [];
  for (const heap of xml.matchAll(/<heap nr="\d+">([\s\S]*?)<\/heap>/g)) {
    const body = heap[1]!;
    const total = (type: string): number => Number(new RegExp(`<total type="${type}" count="\\d+" size="(\\d+)"/>`).exec(body)?.[1] ?? 0);
    const system = Number(/<system type="current" size="(\d+)"\/>/.exec(body)?.[1] ?? 0);
    arenas.push({ systemBytes: system, freeBytes: total('fast') + total('rest') });
  }
  // the totals after the last heap
  const tail = xml.slice(xml.lastIndexOf('</heap>') + 1);
  const mmap = /<total type="mmap" count="(\d+)" size="(\d+)"\/>/.exec(tail);
  return { arenas, mmapCount: Number(mmap?.[1] ?? 0), mmapBytes: Number(mmap?.[2] ?? 0) };
}

export interface V8Heap {
  committedBytes: number;
  usedBytes: number;
  externalBytes: number;
  /** committed bytes by space (new_space, old_space, …) */
  spaces: Record<string, number>;
}

interface ReportHeap {
  totalCommittedMemory: number;
  usedMemory: number;
  externalMemory?: number;
  heapSpaces?: Record<string, { committedMemory: number }>;
}

const v8Heap = (h: ReportHeap): V8Heap => ({
  committedBytes: h.totalCommittedMemory,
  usedBytes: h.usedMemory,
  externalBytes: h.externalMemory ?? 0,
  spaces: Object.fromEntries(Object.entries(h.heapSpaces ?? {}).map(([k, v]) => [k, v.committedMemory])),
});

/** the main thread's and the worker threads' V8 heaps from a diagnostic report's JSON */
export function parseReport(json: string): { main: V8Heap; workers: V8Heap[] } {
  const r = JSON.parse(json) as { javascriptHeap: ReportHeap; workers?: { javascriptHeap: ReportHeap }[] };
  return { main: v8Heap(r.javascriptHeap), workers: (r.workers ?? []).map((w) => v8Heap(w.javascriptHeap)) };
}

export interface Breakdown {
  rssKb: number;
  /** resident KB by mapping class */
  byClass: Record<MappingClass, number>;
  /** malloc's thread arenas (besides the main one) */
  arenas: number;
  threads: number;
  v8?: { main: V8Heap; workers: V8Heap[] };
  malloc?: MallocInfo;
  /** RSS given back by malloc_trim(0) (KB), with `trim` */
  trimmedKb?: number;
}

const kb = (bytes: number): number => bytes / 1024;

function rssKbOf(pid: number): number {
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m === null ? Number.NaN : Number(m[1]);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** asks the process for its diagnostic report (REPORT_SIGNAL) and reads it from `dir` */
async function report(pid: number, dir: string): Promise<{ main: V8Heap; workers: V8Heap[] } | undefined> {
  const before = new Set(readdirSync(dir));
  process.kill(pid, REPORT_SIGNAL);
  for (let i = 0; i < 120; i++) {
    await sleep(500);
    const file = readdirSync(dir).find((f) => f.startsWith('report.') && f.endsWith('.json') && !before.has(f));
    if (file === undefined) continue;
    try {
      const parsed = parseReport(readFileSync(join(dir, file), 'utf8'));
      rmSync(join(dir, file));
      return parsed;
    } catch {
      // still being written
    }
  }
  return undefined;
}

/** gdb: malloc_info into a file, and with `trim` malloc_trim(0) afterwards */
function gdbMalloc(pid: number, file: string, trim: boolean): MallocInfo {
  rmSync(file, { force: true });
  const cmds = ['set $f = (void*) fopen("' + file + '", "w")', 'call (int) malloc_info(0, $f)', 'call (int) fclose($f)', ...(trim ? ['call (int) malloc_trim(0)'] : [])];
  execFileSync('timeout', ['120', 'gdb', '-p', String(pid), '-batch', '-nx', ...cmds.flatMap((c) => ['-ex', c])], { stdio: 'ignore' });
  return parseMallocInfo(readFileSync(file, 'utf8'));
}

export interface BreakdownOptions {
  /** where the process writes its reports (its --report-directory); none: no V8 part */
  reportDir?: string;
  dataDir?: string;
  /** malloc_info through gdb */
  gdb?: boolean;
  /** then malloc_trim(0) (changes the process: the last reading of a run) */
  trim?: boolean;
}

export async function rssBreakdown(pid: number, options: BreakdownOptions = {}): Promise<Breakdown> {
  let exe: string | undefined;
  try {
    exe = realpathSync(`/proc/${pid}/exe`);
  } catch {
    // gone, or not ours to read
  }
  const maps = parseSmaps(readFileSync(`/proc/${pid}/smaps`, 'utf8'));
  const classes = classifyMappings(maps, { ...(exe === undefined ? {} : { exe }), ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }) });
  const out: Breakdown = { rssKb: rssKbOf(pid), byClass: rssByClass(maps, classes), arenas: arenaHeaps(maps, classes), threads: readdirSync(`/proc/${pid}/task`).length };
  if (options.reportDir !== undefined) {
    const v8 = await report(pid, options.reportDir);
    if (v8 !== undefined) out.v8 = v8;
  }
  if (options.gdb === true) {
    const before = rssKbOf(pid);
    out.malloc = gdbMalloc(pid, join(options.reportDir ?? '/tmp', `malloc-info-${pid}.xml`), options.trim === true);
    if (options.trim === true) out.trimmedKb = before - rssKbOf(pid);
  }
  return out;
}

export interface Component {
  name: string;
  kb: number;
}

/**
 * The breakdown as named components that add up to the RSS: the smaps classes, with the V8 heap
 * split into the main thread's and the workers' (by the report: committed memory, of which used)
 * and malloc's memory split into in use and free (by malloc_info; what malloc holds free and is
 * resident is the arenas' RSS minus the bytes in use, an upper bound: `trimmedKb` measures it).
 */
export function components(b: Breakdown): Component[] {
  const c = b.byClass;
  const rows: Component[] = [];
  const v8Kb = c['v8-heap'] + c['v8-code'];
  if (b.v8 !== undefined) {
    const main = kb(b.v8.main.committedBytes);
    const workers = b.v8.workers.reduce((s, w) => s + kb(w.committedBytes), 0);
    rows.push({ name: 'V8 heap, main thread (committed)', kb: main });
    rows.push({ name: `V8 heap, ${b.v8.workers.length} worker thread(s) (committed)`, kb: workers });
    rows.push({ name: 'V8 mappings beyond the heaps (code ranges, untouched committed pages: smaps - report)', kb: v8Kb - main - workers });
  } else rows.push({ name: 'V8 heap pages and code ranges (smaps)', kb: v8Kb });
  if (b.malloc !== undefined) {
    const [main, ...threads] = b.malloc.arenas;
    const inUse = (a: MallocArena | undefined): number => (a === undefined ? 0 : kb(a.systemBytes - a.freeBytes));
    const mainUse = Math.min(inUse(main), c['malloc-brk']);
    const threadUse = Math.min(
      threads.reduce((s, a) => s + inUse(a), 0),
      c['malloc-arena'],
    );
    rows.push({ name: 'malloc main arena (brk), in use', kb: mainUse });
    rows.push({ name: 'malloc main arena (brk), free but resident', kb: c['malloc-brk'] - mainUse });
    rows.push({ name: `malloc ${threads.length} thread arenas, in use`, kb: threadUse });
    rows.push({ name: 'malloc thread arenas, free but resident', kb: c['malloc-arena'] - threadUse });
    const mmapKb = Math.min(kb(b.malloc.mmapBytes), c['anon-other']);
    rows.push({ name: `malloc mmapped chunks (${b.malloc.mmapCount})`, kb: mmapKb });
    rows.push({ name: 'other anonymous (thread stacks, native mmaps)', kb: c['anon-other'] - mmapKb });
  } else {
    rows.push({ name: 'malloc main arena (brk)', kb: c['malloc-brk'] });
    rows.push({ name: `malloc thread arenas (${b.arenas})`, kb: c['malloc-arena'] });
    rows.push({ name: 'other anonymous (malloc mmapped chunks, thread stacks, native mmaps)', kb: c['anon-other'] });
  }
  rows.push({ name: 'node binary (code, data)', kb: c['node-binary'] });
  rows.push({ name: 'native libraries and addons', kb: c['native-libraries'] });
  rows.push({ name: 'LevelDB table files (mmapped)', kb: c['leveldb-files'] });
  rows.push({ name: 'other files, stack, kernel pages', kb: c['other-files'] + c['stack'] });
  return rows;
}

/** the RSS not in any mapping class (smaps summed against VmRSS, read moments apart) */
export const unclassifiedKb = (b: Breakdown): number => b.rssKb - MAPPING_CLASSES.reduce((s, k) => s + b.byClass[k], 0);

export function formatBreakdown(b: Breakdown, workloads?: number): string {
  const lines = [`RSS ${(b.rssKb / 1024).toFixed(0)} MB, ${b.threads} threads, ${b.arenas} malloc thread-arena heaps of 64 MiB${b.malloc === undefined ? '' : ` (thread arenas by malloc_info: ${b.malloc.arenas.length - 1})`}`];
  for (const row of components(b)) {
    lines.push(`  ${row.name.padEnd(92)} ${(row.kb / 1024).toFixed(1).padStart(8)} MB${workloads === undefined ? '' : `  ${(row.kb / workloads).toFixed(1).padStart(7)} KB/workload`}`);
  }
  if (b.v8 !== undefined) {
    const m = b.v8.main;
    lines.push(`  (V8 main: used ${(m.usedBytes / 1048576).toFixed(0)} of ${(m.committedBytes / 1048576).toFixed(0)} MB; ${Object.entries(m.spaces).filter(([, v]) => v > 0).map(([k, v]) => `${k} ${(v / 1048576).toFixed(0)}`).join(', ')}; external ${(m.externalBytes / 1048576).toFixed(0)} MB)`);
    for (const w of b.v8.workers) lines.push(`  (V8 worker: used ${(w.usedBytes / 1048576).toFixed(0)} of ${(w.committedBytes / 1048576).toFixed(0)} MB; ${Object.entries(w.spaces).filter(([, v]) => v > 0).map(([k, v]) => `${k} ${(v / 1048576).toFixed(0)}`).join(', ')})`);
  }
  lines.push(`  (smaps MB: ${MAPPING_CLASSES.map((k) => `${k} ${(b.byClass[k] / 1024).toFixed(0)}`).join(', ')}${b.malloc === undefined ? '' : `; malloc_info: ${b.malloc.mmapCount} mmapped chunks of ${(b.malloc.mmapBytes / 1048576).toFixed(0)} MB`})`);
  if (b.trimmedKb !== undefined) lines.push(`  malloc_trim(0) gave back ${(b.trimmedKb / 1024).toFixed(1)} MB of RSS`);
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { parseArgs } = await import('node:util');
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { 'report-dir': { type: 'string' }, 'data-dir': { type: 'string' }, gdb: { type: 'boolean' }, trim: { type: 'boolean' }, workloads: { type: 'string' } } });
  const pid = Number(positionals[0]);
  if (!Number.isInteger(pid) || pid <= 0) throw new Error('usage: rss-breakdown.ts PID [--report-dir DIR] [--data-dir DIR] [--gdb] [--trim] [--workloads N]');
  const b = await rssBreakdown(pid, {
    ...(values['report-dir'] === undefined ? {} : { reportDir: values['report-dir'] }),
    ...(values['data-dir'] === undefined ? {} : { dataDir: values['data-dir'] }),
    gdb: values.gdb === true,
    trim: values.trim === true,
  });
  console.log(formatBreakdown(b, values.workloads === undefined ? undefined : Number(values.workloads)));
}
