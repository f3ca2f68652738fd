/**
 * The service's RSS by component once it has settled (docs/memory.md, "The RSS by component"):
 * a fresh service (PROJECT's `npm start` settings; default this checkout) gets W workloads x 6
 * metrics x 400 steps over remote-write (bench:memory's series, no Prometheus beside it); once the
 * backlog is stepped, its 15-s ticks go on for SETTLE_S seconds (default 120) with nothing sent,
 * the RSS read every 10 s, then the breakdown (rss-breakdown.ts, with gdb, malloc_trim last).
 * Two trees side by side in the same conditions: start one per tree at once.
 *
 * HEAP_SNAPSHOT=DIR: then a heap snapshot of the settled service (before the breakdown's
 * malloc_trim) as DIR/settled-W.heapsnapshot, for heap-inventory.ts and heap-owners.ts;
 * BREAKDOWN=0 skips the RSS breakdown (gdb).
 *
 * usage: [PROJECT=DIR] [SETTLE_S=120] [HEAP_SNAPSHOT=DIR] [BREAKDOWN=0] node --import tsx bench/memory/settled-breakdown.ts W
 */
import { mkdtempSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { remoteWriteBody } from './remote-write-body.js';
import { getJson, postRetrying, rssMb, startCommand, startService } from './processes.js';
import { formatBreakdown, reportFlags, rssBreakdown } from './rss-breakdown.js';
const project = resolve(process.env['PROJECT'] ?? resolve(import.meta.dirname, '../..'));
const W = Number(process.argv[2] ?? 2000);
const settleS = Number(process.env['SETTLE_S'] ?? 120);
const steps = 400;
const start = startCommand(join(project, 'package.json'));
const dir = mkdtempSync(join(tmpdir(), 'bench-settled-'));
mkdirSync(join(dir, 'rep'));
const snapshotDir = process.env['HEAP_SNAPSHOT'] === undefined ? undefined : resolve(process.env['HEAP_SNAPSHOT']);
if (snapshotDir !== undefined) mkdirSync(snapshotDir, { recursive: true });
const snapshotFlags = snapshotDir === undefined ? [] : ['--heapsnapshot-signal=SIGUSR2'];
const svc = await startService(project, dir, [...start.flags, ...snapshotFlags, ...reportFlags(join(dir, 'rep'))], start.env);
const pid = svc.service.pid!;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** the service's main-thread V8 heap and external memory from its /metrics (prom-client's nodejs_* gauges), MB */
async function heapMb(): Promise<{ used: number; total: number; external: number }> {
  const metrics = await fetch(`http://127.0.0.1:${svc.restPort}/api/v2/metrics`).then((r) => r.text(), () => '');
  const mb = (name: string): number => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(metrics)?.[1] ?? Number.NaN) / 1_048_576;
  return { used: mb('nodejs_heap_size_used_bytes'), total: mb('nodejs_heap_size_total_bytes'), external: mb('nodejs_external_memory_bytes') };
}

/** SIGUSR2 (--heapsnapshot-signal): the service writes Heap.*.heapsnapshot into its cwd (the project); moved to `to` once complete */
async function heapSnapshot(to: string): Promise<void> {
  const before = new Set(readdirSync(project));
  process.kill(pid, 'SIGUSR2');
  let last = -1;
  for (let i = 0; i < 600; i++) {
    await sleep(2000);
    const file = readdirSync(project).find((f) => f.endsWith('.heapsnapshot') && !before.has(f));
    if (file === undefined) continue;
    const size = statSync(join(project, file)).size;
    if (size > 0 && size === last) {
      renameSync(join(project, file), to);
      return;
    }
    last = size;
  }
}
try {
  for (let i = 0; i < 300 && (await getJson(svc.restPort, '/api/v2/ready'))['status'] !== 'ready'; i++) await sleep(1000);
  const t0 = Date.now() - steps * 15_000;
  const sendStart = Date.now();
  for (let s = 0; s < steps; s++) await postRetrying(svc.restPort, '/api/v2/write', remoteWriteBody(W, s, t0 + s * 15_000));
  const sent = (Date.now() - sendStart) / 1000;
  const stepStart = Date.now();
  for (let i = 0; i < 900; i++) {
    const snaps = await Promise.all([0, W - 1].map((w) => getJson(svc.restPort, `/api/v2/rupture/mem/wl-${w}`)));
    if (snaps.every((x) => Date.parse(String(x['timestamp'])) >= t0 + (steps - 2) * 15_000)) break;
    await sleep(2000);
  }
  const stepped = (Date.now() - stepStart) / 1000;
  const at = rssMb(pid);
  const samples: number[] = [];
  // the main thread's V8 heap (used, total = committed) every 10 s: its mean over the settling is steadier than one reading
  const heapUsed: number[] = [];
  const heapTotal: number[] = [];
  for (let i = 0; i < settleS / 10; i++) {
    await sleep(10_000);
    samples.push(Math.round(rssMb(pid)));
    const m = await heapMb();
    heapUsed.push(m.used);
    heapTotal.push(m.total);
  }
  const mean = (xs: number[]): string => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(1);
  console.log(`${project} ${W} workloads: sent in ${sent.toFixed(0)} s, stepped ${stepped.toFixed(0)} s after; RSS ${at.toFixed(0)} MB when stepped, then every 10 s: ${samples.join(' ')}`);
  console.log(`V8 heap (main thread) every 10 s, used: ${heapUsed.map((x) => x.toFixed(0)).join(' ')} (mean ${mean(heapUsed)} MB); total: ${heapTotal.map((x) => x.toFixed(0)).join(' ')} (mean ${mean(heapTotal)} MB)`);
  const heapLine = async (when: string): Promise<void> => {
    const m = await heapMb();
    console.log(`V8 heap (main thread) ${when}: used ${m.used.toFixed(1)} MB, total ${m.total.toFixed(1)} MB, external ${m.external.toFixed(1)} MB`);
  };
  await heapLine('settled');
  if (snapshotDir !== undefined) {
    const to = join(snapshotDir, `settled-${W}.heapsnapshot`);
    await heapSnapshot(to);
    console.log(`heap snapshot: ${to}`);
    // the snapshot collected the whole heap first: what is left is live (and what came since)
    await heapLine('right after the snapshot (a full collection)');
  }
  if (process.env['BREAKDOWN'] !== '0') {
    const b = await rssBreakdown(pid, { reportDir: join(dir, 'rep'), dataDir: join(dir, 'data'), gdb: true, trim: true });
    console.log(formatBreakdown(b, W));
  }
} finally {
  svc.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
