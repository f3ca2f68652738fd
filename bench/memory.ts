/**
 * `npm run bench:memory`: resident memory per workload with every window full, side by side with
 * Prometheus holding the same series in the same run (docs/memory.md). For each size W (default
 * 1 000 and 5 000) a fresh service (`npm start`'s node flags; NODE_OPTIONS passes on, e.g. the
 * manifests' heap limit) and a fresh Prometheus 2.42 get W workloads x 6 metrics x S steps (default
 * 400, 15 s apart, ending now) over remote-write; once the service has analysed the backlog, both
 * processes' RSS is read every 5 s for --settle-seconds (the median and the maximum of the
 * window), with the kernel's peak since each process started. The per-workload figures are slopes
 * between the smallest and the largest size, so what every process holds whatever its workloads
 * (code, V8, LevelDB) drops out.
 *
 * usage: npm run bench:memory -- [--workloads 1000,5000] [--steps 400] [--settle-seconds 60] [--keep-log DIR] [--heap-snapshot DIR]
 *        [--node-flags='...' instead of npm start's] [--no-start-env: without npm start's environment]
 *        [--project DIR: a built checkout other than this one]
 *        [--breakdown: the service's RSS by component at each size (bench/memory/rss-breakdown.ts; gdb for malloc's part)]
 * Needs a built project (the script builds it), Debian's prometheus on PATH.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { remoteWriteBody } from './memory/remote-write-body.js';
import { components, formatBreakdown, reportFlags, rssBreakdown, type Breakdown } from './memory/rss-breakdown.js';
import { brkHeapMb, getJson, getStatus, heapCollections, peakRssMb, post, postRetrying, rssMb, startCommand, startPair } from './memory/processes.js';

const { values } = parseArgs({
  options: { workloads: { type: 'string', default: '1000,5000' }, steps: { type: 'string', default: '400' }, 'heap-snapshot': { type: 'string' }, 'node-flags': { type: 'string' }, 'no-start-env': { type: 'boolean' }, 'settle-seconds': { type: 'string', default: '60' }, 'keep-log': { type: 'string' }, project: { type: 'string' }, breakdown: { type: 'boolean' } },
});
const sizes = values.workloads.split(',').map(Number);
const steps = Number(values.steps);
const settleSeconds = Number(values['settle-seconds']);
// --project DIR: another checkout's build (e.g. the commit before a change), with its own npm start
const project = resolve(values.project ?? resolve(import.meta.dirname, '..'));
const snapshotDir = values['heap-snapshot'] === undefined ? undefined : resolve(values['heap-snapshot']);
// made here: a snapshot taken after an hour's backfill must not be lost to a missing directory
if (snapshotDir !== undefined) mkdirSync(snapshotDir, { recursive: true });
// --node-flags=... replaces npm start's node flags (to compare settings); its environment assignments stay unless --no-start-env
const start = startCommand(join(project, 'package.json'));
const startEnv = values['no-start-env'] === true ? {} : start.env;
const baseFlags = values['node-flags'] === undefined ? start.flags : values['node-flags'].split(/\s+/).filter((f) => f !== '');
const breakdown = values.breakdown === true;
// --breakdown: the service writes its diagnostic report (V8 heaps of every thread) here on request
const reportDir = breakdown ? mkdtempSync(join(tmpdir(), 'bench-memory-reports-')) : undefined;
const nodeFlags = [...baseFlags, ...(snapshotDir === undefined ? [] : ['--heapsnapshot-signal=SIGUSR2']), ...(reportDir === undefined ? [] : reportFlags(reportDir))];
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** one reading of both processes while the service is settled (MB) */
interface Sample {
  serviceMb: number;
  prometheusMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  /** the typed arrays' storage (nodejs_external_memory_bytes) */
  externalMb: number;
  /** glibc malloc's main heap ([heap] in smaps): typed arrays' storage, LevelDB, buffers, and what malloc keeps after free */
  mallocHeapMb: number;
  /** seconds of the service's main-thread GC pauses since its start, by kind (prom-client's nodejs_gc_duration_seconds_sum), and their count */
  gc: Record<string, { seconds: number; count: number }>;
  /** the service's own collections between ticks since its start (rpt_heap_collections_total, rpt_heap_collection_seconds_total), by reason; none: a tree without them */
  trims: Record<string, { seconds: number; count: number }>;
}

async function sample(servicePid: number, prometheusPid: number, restPort: number): Promise<Sample> {
  const s: Sample = { serviceMb: rssMb(servicePid), prometheusMb: rssMb(prometheusPid), heapUsedMb: Number.NaN, heapTotalMb: Number.NaN, externalMb: Number.NaN, mallocHeapMb: brkHeapMb(servicePid), gc: {}, trims: {} };
  const metrics = await new Promise<string>((res) => {
    void fetch(`http://127.0.0.1:${restPort}/api/v2/metrics`).then((r) => r.text()).then(res, () => res(''));
  });
  const mb = (name: string): number => {
    const m = new RegExp(`^${name} (\\S+)`, 'm').exec(metrics);
    return m === null ? Number.NaN : Number(m[1]) / 1_048_576;
  };
  s.heapUsedMb = mb('nodejs_heap_size_used_bytes');
  s.heapTotalMb = mb('nodejs_heap_size_total_bytes');
  s.externalMb = mb('nodejs_external_memory_bytes');
  for (const m of metrics.matchAll(/^nodejs_gc_duration_seconds_(sum|count)\{kind="(\w+)"\} (\S+)/gm)) {
    const g = (s.gc[m[2]!] ??= { seconds: 0, count: 0 });
    if (m[1] === 'sum') g.seconds = Number(m[3]);
    else g.count = Number(m[3]);
  }
  s.trims = heapCollections(metrics);
  return s;
}

/**
 * One size's figures: the Sample fields are the settle window's medians (VmRSS every 5 s), gc and
 * trims (since the service's start) those of its last reading
 */
interface Row extends Sample {
  workloads: number;
  /** the largest of the window's readings */
  serviceMaxMb: number;
  /** the kernel's peak since the process started (VmHWM): the backfill's peak included */
  servicePeakMb: number;
  prometheusMaxMb: number;
  prometheusPeakMb: number;
  sendSeconds: number;
  /** seconds from the ingest queue's calm until every workload had stepped its backlog (NaN: never, within an hour) */
  steppedSeconds: number;
  non2xx: number;
  /** --breakdown: the service's RSS by component, read after the row's other figures */
  breakdown?: Breakdown;
}

/**
 * Waits (up to 60 min) until the first and the last workload's snapshots are at `lastStepMs` or
 * later; returns the seconds waited, or NaN when they never were.
 */
async function backlogStepped(restPort: number, workloads: number, lastStepMs: number): Promise<number> {
  const start = Date.now();
  for (let i = 0; i < 1800; i++) {
    const snapshots = await Promise.all([0, workloads - 1].map((w) => getJson(restPort, `/api/v2/rupture/mem/wl-${w}`)));
    if (snapshots.every((s) => Date.parse(String(s['timestamp'])) >= lastStepMs)) return (Date.now() - start) / 1000;
    await sleep(2000);
  }
  return Number.NaN;
}

async function measure(workloads: number): Promise<Row> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-memory-'));
  const pair = await startPair(project, dir, nodeFlags, startEnv);
  try {
    // both must listen before the first write (on a loaded machine Prometheus may take longer than the service)
    for (let i = 0; i < 300 && (await getJson(pair.restPort, '/api/v2/ready'))['status'] !== 'ready'; i++) await sleep(1000);
    for (let i = 0; i < 300 && (await getStatus(pair.promPort, '/-/ready')) !== 200; i++) await sleep(1000);
    const t0 = Date.now() - steps * 15_000;
    let non2xx = 0;
    const sendStart = Date.now();
    for (let s = 0; s < steps; s++) {
      const body = remoteWriteBody(workloads, s, t0 + s * 15_000);
      // a 429 (the analysis backlog's bound) is retried after its Retry-After, as a sender that retries 429 does
      const [a, b] = await Promise.all([postRetrying(pair.restPort, '/api/v2/write', body), post(pair.promPort, '/api/v1/write', body)]);
      if (a.status >= 300 || b >= 300) non2xx++;
    }
    const sendSeconds = (Date.now() - sendStart) / 1000;
    // analysed: every workload listed and the ingest queue empty for three polls 5 s apart, then 20 s more
    for (let calm = 0, i = 0; i < 720 && calm < 3; i++) {
      const h = await getJson(pair.restPort, '/api/v2/health');
      calm = (h['workloads'] as number) >= workloads && (h['ingest_queue'] ?? 0) === 0 ? calm + 1 : 0;
      await sleep(5000);
    }
    // and stepped: the first and the last workload's snapshot at the last step but one (the last
    // bucket closes only once the server's clock has passed it), so that nothing waits in buckets
    const stepped = await backlogStepped(pair.restPort, workloads, t0 + (steps - 2) * 15_000);
    // then, from 20 s on (the last catch-up tick's writes done), both processes are read every 5 s
    // for --settle-seconds (default 60: four of the service's 15-s ticks): one read lands anywhere
    // in V8's collection cycle, which swings the service's RSS by a GB at 1 000 workloads, so the
    // row gives the window's median and maximum
    await sleep(20_000);
    const samples: Sample[] = [];
    for (let i = 0; i * 5 <= settleSeconds; i++) {
      if (i > 0) await sleep(5_000);
      samples.push(await sample(pair.service.pid!, pair.prometheus.pid!, pair.restPort));
    }
    const median = (pick: (s: Sample) => number): number => {
      const xs = samples.map(pick).sort((x, y) => x - y);
      const m = xs.length >> 1;
      return xs.length % 2 === 1 ? xs[m]! : (xs[m - 1]! + xs[m]!) / 2;
    };
    const max = (pick: (s: Sample) => number): number => Math.max(...samples.map(pick));
    const last = samples[samples.length - 1]!;
    const row: Row = {
      workloads,
      serviceMb: median((x) => x.serviceMb),
      serviceMaxMb: max((x) => x.serviceMb),
      servicePeakMb: peakRssMb(pair.service.pid!),
      prometheusMb: median((x) => x.prometheusMb),
      prometheusMaxMb: max((x) => x.prometheusMb),
      prometheusPeakMb: peakRssMb(pair.prometheus.pid!),
      heapUsedMb: median((x) => x.heapUsedMb),
      heapTotalMb: median((x) => x.heapTotalMb),
      externalMb: median((x) => x.externalMb),
      mallocHeapMb: median((x) => x.mallocHeapMb),
      sendSeconds,
      steppedSeconds: stepped,
      non2xx,
      gc: last.gc,
      trims: last.trims,
    };
    if (snapshotDir !== undefined) await heapSnapshot(pair.service.pid!, workloads);
    // last: malloc_trim(0) at its end gives memory back
    if (reportDir !== undefined) row.breakdown = await rssBreakdown(pair.service.pid!, { reportDir, dataDir: join(dir, 'data'), gdb: true, trim: true });
    return row;
  } catch (error) {
    // what the service said last (it may have exited), before its directory goes
    console.error(`failed at ${workloads} workloads; the service's log ends:\n${readFileSync(join(dir, 'svc.log'), 'utf8').split('\n').slice(-15).join('\n')}`);
    throw error;
  } finally {
    pair.stop();
    // --keep-log DIR: the service's log (its collections after catch-up ticks among others) as DIR/service-W.log
    if (values['keep-log'] !== undefined) {
      mkdirSync(values['keep-log'], { recursive: true });
      copyFileSync(join(dir, 'svc.log'), join(values['keep-log'], `service-${workloads}.log`));
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/** SIGUSR2 (--heapsnapshot-signal): the service writes Heap.*.heapsnapshot into its cwd; moved to the snapshot dir */
async function heapSnapshot(pid: number, workloads: number): Promise<void> {
  const before = new Set(readdirSync(project));
  process.kill(pid, 'SIGUSR2');
  let last = -1;
  for (let i = 0; i < 600; i++) {
    await sleep(2000);
    const file = readdirSync(project).find((f) => f.endsWith('.heapsnapshot') && !before.has(f));
    if (file === undefined) continue;
    // complete once its size stops changing between two looks
    const size = statSync(join(project, file)).size;
    if (size > 0 && size === last) {
      renameSync(join(project, file), join(snapshotDir!, `service-${workloads}.heapsnapshot`));
      return;
    }
    last = size;
  }
}

console.log(`bench:memory — node ${process.version}, service: ${Object.entries(startEnv).map(([k, v]) => `${k}=${v} `).join('')}node ${nodeFlags.join(' ')}, NODE_OPTIONS=${process.env['NODE_OPTIONS'] ?? ''}, ${steps} steps`);
const rows: Row[] = [];
for (const w of sizes) {
  const row = await measure(w);
  rows.push(row);
  console.log(
    `${String(w).padStart(6)} workloads: service RSS median ${row.serviceMb.toFixed(0)} / max ${row.serviceMaxMb.toFixed(0)} / peak ${row.servicePeakMb.toFixed(0)} MB (V8 heap used ${row.heapUsedMb.toFixed(0)} / total ${row.heapTotalMb.toFixed(0)} MB, external ${row.externalMb.toFixed(0)} MB, malloc heap ${row.mallocHeapMb.toFixed(0)} MB), Prometheus RSS median ${row.prometheusMb.toFixed(0)} / max ${row.prometheusMaxMb.toFixed(0)} / peak ${row.prometheusPeakMb.toFixed(0)} MB; sent in ${row.sendSeconds.toFixed(0)} s, stepped ${row.steppedSeconds.toFixed(0)} s after, ${row.non2xx} non-2xx; GC pauses ${Object.entries(row.gc).map(([k, g]) => `${k} ${g.seconds.toFixed(1)} s (${g.count})`).join(', ')}; collections after ticks ${Object.entries(row.trims).map(([k, g]) => `${k} ${g.seconds.toFixed(2)} s (${g.count})`).join(', ') || 'none'}`,
  );
  if (row.breakdown !== undefined) console.log(formatBreakdown(row.breakdown, w));
}
if (rows.length >= 2) {
  const a = rows[0]!;
  const b = rows[rows.length - 1]!;
  const slope = (x: number, y: number): number => ((y - x) * 1024) / (b.workloads - a.workloads);
  const service = slope(a.serviceMb, b.serviceMb);
  const prometheus = slope(a.prometheusMb, b.prometheusMb);
  const serviceMax = slope(a.serviceMaxMb, b.serviceMaxMb);
  const prometheusMax = slope(a.prometheusMaxMb, b.prometheusMaxMb);
  const servicePeak = slope(a.servicePeakMb, b.servicePeakMb);
  const prometheusPeak = slope(a.prometheusPeakMb, b.prometheusPeakMb);
  console.log(`per workload (slope ${a.workloads} -> ${b.workloads}), settled median: service ${service.toFixed(1)} KB, Prometheus ${prometheus.toFixed(1)} KB, ratio ${(service / prometheus).toFixed(2)}`);
  console.log(`  settled maximum: service ${serviceMax.toFixed(1)} KB, Prometheus ${prometheusMax.toFixed(1)} KB; peak since start (backfill included): service ${servicePeak.toFixed(1)} KB, Prometheus ${prometheusPeak.toFixed(1)} KB`);
  if (a.breakdown !== undefined && b.breakdown !== undefined) {
    const [ca, cb] = [components(a.breakdown), components(b.breakdown)];
    console.log(`the service's RSS by component: ${a.workloads} / ${b.workloads} workloads (MB), slope (KB a workload)`);
    ca.forEach((x, i) => {
      const y = cb[i]!;
      console.log(`  ${x.name.padEnd(92)} ${(x.kb / 1024).toFixed(1).padStart(8)} ${(y.kb / 1024).toFixed(1).padStart(8)} ${((y.kb - x.kb) / (b.workloads - a.workloads)).toFixed(1).padStart(8)}`);
    });
  }
  console.log(JSON.stringify({ steps, rows, kb_per_workload: { service: +service.toFixed(1), prometheus: +prometheus.toFixed(1), serviceMax: +serviceMax.toFixed(1), prometheusMax: +prometheusMax.toFixed(1), servicePeak: +servicePeak.toFixed(1), prometheusPeak: +prometheusPeak.toFixed(1) } }));
}
if (reportDir !== undefined) rmSync(reportDir, { recursive: true, force: true });
process.exit(0);
