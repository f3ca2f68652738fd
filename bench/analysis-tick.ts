/**
 * Bench of one analysis tick (issue 2): N workloads × 6 metrics, each workload warmed with a few
 * buckets, then step() of one new bucket is timed (median of 5 ticks). Heap per workload is
 * measured after a full GC: the difference in heapUsed before creating the core and after the
 * warm-up, divided by N (includes the raw regression windows and series state at that fill).
 * A throwaway core of 100 workloads runs 300 steps before the first size, so that the compiled
 * analysis code, which does not grow with the workloads, is not counted in any size's figure.
 *
 * Sizes: BENCH_ANALYSIS_SIZES (default 1k, 10k, 100k; 24 warm steps, 4 at 100k) and, with the
 * series' windows full, BENCH_ANALYSIS_STEADY_SIZES (default 1k, 10k; 300 warm steps, or
 * BENCH_ANALYSIS_STEADY_WARM_STEPS: 600 fills every window). The 100k run needs a heap above
 * node's default, which `npm run bench` sets (--max-old-space-size=12288); it also gives the young
 * generation the service's size (--max-semi-space-size=64, as `npm start`, the image and the
 * manifests do; the row "young generation" says which one a run had).
 *
 * Run: `node --import tsx bench/analysis-tick.ts` (or through `npm run bench`). GC: uses
 * global.gc when started with --expose-gc, else enables it at run time via v8 flags.
 */
import { PerformanceObserver, constants as perfConstants, type PerformanceEntry } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { pathToFileURL } from 'node:url';
import { AnalysisCoreImpl } from '../api-server/src/analysis/analysis-core.js';
import { noveltySlabStats } from '../api-server/src/analysis/anomaly/novelty-score.js';
import { SLAB_PAGE_CHUNKS } from '../api-server/src/analysis/anomaly/novelty-slab.js';
import { applyServiceJitBudget } from './jit-budget.js';

const METRICS = ['cpu_percent', 'memory_percent', 'latency_ms', 'error_rate', 'request_rate', 'disk_percent'] as const;
const BUCKET_MS = 15_000;
/** ticks timed per size (their median is reported): five, to see past the odd slow tick of a busy machine */
const TIMED_TICKS = 5;
const ORIGIN = 1_700_000_000_000 - (1_700_000_000_000 % BUCKET_MS);

function gcFunction(): { gc: () => void; how: string } {
  const g = (globalThis as { gc?: () => void }).gc;
  if (typeof g === 'function') return { gc: g, how: '--expose-gc' };
  try {
    setFlagsFromString('--expose-gc');
    const fn = runInNewContext('gc') as () => void;
    return { gc: fn, how: 'v8 flag at run time' };
  } catch {
    return { gc: () => undefined, how: 'none (heap figures include garbage)' };
  }
}

/** the bench's workload keys (also bench/analysis-ab.ts) */
export function benchKeys(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `ns${i % 50}/Deployment/w${i}`);
}

/** the time at which the bench steps bucket `bucket` (it closes then) */
export function stepMsOf(bucket: number): number {
  return ORIGIN + (bucket + 1) * BUCKET_MS + 1;
}

/** one bucket of the bench's six metrics for every workload of `keys` */
export function feed(core: AnalysisCoreImpl, keys: readonly string[], bucket: number): void {
  const t = ORIGIN + bucket * BUCKET_MS + 1_000;
  for (let w = 0; w < keys.length; w++) {
    const key = keys[w]!;
    const phase = (w % 97) / 97;
    for (let m = 0; m < METRICS.length; m++) {
      const value = m === 4 ? 100 + 10 * Math.sin(bucket + phase) : 0.3 + 0.05 * Math.sin(bucket * 0.7 + m + phase);
      core.observeMetric({ workload: key, pod: undefined, name: METRICS[m]!, value, timeMs: t });
    }
  }
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** feeds and steps buckets 0 .. steps - 1 of `keys`, yielding to the event loop now and then */
async function warmUp(core: AnalysisCoreImpl, keys: readonly string[], steps: number): Promise<void> {
  for (let bucket = 0; bucket < steps; bucket++) {
    feed(core, keys, bucket);
    core.step(stepMsOf(bucket));
    if (bucket % 5 === 0) await new Promise((r) => setImmediate(r));
  }
}

/** whether a `gc` entry is a young-generation collection (a scavenge) */
function isMinorGc(e: PerformanceEntry): boolean {
  // gc entries carry a detail ({ kind, flags }) that the type of PerformanceEntry does not declare
  const detail = (e as { detail?: unknown }).detail;
  return typeof detail === 'object' && detail !== null && (detail as { kind?: unknown }).kind === perfConstants.NODE_PERFORMANCE_GC_MINOR;
}

/**
 * the garbage collector's pauses inside each of `windows` ([start, end] in performance.now()
 * time): their sum per window, and how many there were (young-generation ones and others)
 */
function pausesIn(entries: readonly PerformanceEntry[], windows: readonly (readonly [number, number])[]): { perWindowMs: number[]; minor: number; other: number } {
  let minor = 0;
  let other = 0;
  const perWindowMs = windows.map(([start, end]) => {
    let ms = 0;
    for (const e of entries) {
      if (e.startTime < start || e.startTime > end) continue;
      ms += e.duration;
      if (isMinorGc(e)) minor += 1;
      else other += 1;
    }
    return ms;
  });
  return { perWindowMs, minor, other };
}

/**
 * step() at `nowMs`, returning only the number of snapshots: the output (10k snapshots and their
 * anomalies) is garbage once this returns, as in the service, whose analyzer loop hands it on and
 * drops it, so that no scavenge of the next tick finds it still live.
 */
function snapshotCount(core: AnalysisCoreImpl, nowMs: number): number {
  return core.step(nowMs).snapshots.length;
}

/**
 * Collects until the typed arrays' total holds still: V8 frees a dead typed array's backing store
 * on a background thread after the collection (and the arrays a series outgrew are dead), so one
 * read right after gc() may still count some of them.
 */
async function settle(gc: () => void): Promise<void> {
  let last = Number.NaN;
  for (let i = 0; i < 20; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 20));
    const now = process.memoryUsage().arrayBuffers;
    if (now === last) return;
    last = now;
  }
}

async function benchOne(n: number, warmSteps: number, gc: () => void): Promise<{ tickMs: number; observeMs: number; heapPerWorkload: number; buffersPerWorkload: number; gcMs: number; gcMinor: number; gcOther: number }> {
  // the previous size's core must be gone, typed-array backing stores included, before counting;
  // its novelty chunks go back to the slab when finalizers run (a later task), so wait for them
  await settle(gc);
  for (let i = 0; i < 50 && noveltySlabStats().chunksInUse > 0; i++) await settle(gc);
  const before = process.memoryUsage().heapUsed;
  const buffersBefore = process.memoryUsage().arrayBuffers;
  const slabBefore = noveltySlabStats();
  const core = new AnalysisCoreImpl({ newHexId: () => '000000000000' });
  const keys = benchKeys(n);
  await warmUp(core, keys, warmSteps);
  let bucket = warmSteps;
  await settle(gc);
  const heapPerWorkload = (process.memoryUsage().heapUsed - before) / n;
  // typed arrays (windows, rings, seasons) live outside the JS heap: reported separately. The
  // novelty slab's pages are counted as the chunks this core holds (its new pages may hold chunks
  // of cores before it, and it reuses their released ones)
  const slab = noveltySlabStats();
  const chunkBytes = slab.pages === 0 ? 0 : slab.bytes / (slab.pages * SLAB_PAGE_CHUNKS);
  const buffersPerWorkload = (process.memoryUsage().arrayBuffers - buffersBefore - (slab.bytes - slabBefore.bytes) + (slab.chunksInUse - slabBefore.chunksInUse) * chunkBytes) / n;
  const ticks: number[] = [];
  const observes: number[] = [];
  // the collector's pauses during the timed ticks (the young generation's scavenges, mostly)
  const gcEntries: PerformanceEntry[] = [];
  const gcObserver = new PerformanceObserver((list) => {
    gcEntries.push(...list.getEntries());
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  const windows: [number, number][] = [];
  for (let i = 0; i < TIMED_TICKS; i++, bucket++) {
    const o0 = performance.now();
    feed(core, keys, bucket);
    observes.push(performance.now() - o0);
    const t0 = performance.now();
    const snapshots = snapshotCount(core, stepMsOf(bucket));
    const t1 = performance.now();
    ticks.push(t1 - t0);
    windows.push([t0, t1]);
    if (snapshots !== n) throw new Error(`expected ${n} snapshots, got ${snapshots}`);
  }
  // the observer's entries arrive after the ticks, on the event loop
  await new Promise((r) => setTimeout(r, 50));
  gcObserver.disconnect();
  const pauses = pausesIn(gcEntries, windows);
  return { tickMs: median(ticks), observeMs: median(observes), heapPerWorkload, buffersPerWorkload, gcMs: median(pauses.perWindowMs), gcMinor: pauses.minor, gcOther: pauses.other };
}

/** workloads and steps of the throwaway core that compiles the analysis code before any size is measured */
const CODE_WARMUP_WORKLOADS = 100;
const CODE_WARMUP_STEPS = 300;

/**
 * Runs a throwaway core through every window's fill (300 steps), so that the code V8 compiles for
 * the analysis, and its type feedback, exist before the first size's heap is counted: that heap
 * is the same for any number of workloads (about 1.3 MB; it made the first size's figure 7.8-8.0
 * KB per workload at 1k instead of 6.5), so it is not per-workload heap.
 */
async function warmCode(): Promise<void> {
  await warmUp(new AnalysisCoreImpl({ newHexId: () => '000000000000' }), benchKeys(CODE_WARMUP_WORKLOADS), CODE_WARMUP_STEPS);
}

/** the --max-semi-space-size this process was started with (command line or NODE_OPTIONS), or V8's default */
function semiSpaceSetting(): string {
  const flags = [...process.execArgv, ...(process.env['NODE_OPTIONS'] ?? '').split(/\s+/)];
  const flag = flags.filter((f) => f.startsWith('--max-semi-space-size=')).pop();
  return flag === undefined ? "V8's default (16 MB)" : `${flag.slice('--max-semi-space-size='.length)} MB`;
}

export async function runAnalysisBench(): Promise<{ name: string; value: string }[]> {
  const { gc, how } = gcFunction();
  // the budget applies to code optimised after it is set: before the warm-up compiles anything
  const budget = applyServiceJitBudget();
  await warmCode();
  const sizes = (process.env.BENCH_ANALYSIS_SIZES ?? '1000,10000,100000').split(',').map(Number).filter((x) => x > 0);
  // steady state: 300 steps fill the series' windows (the 300-value window, the 240-point rings,
  // the first Holt-Winters season), which is what a workload watched for 75 minutes or more costs.
  // The seasonal residuals (200, after the first season) fill by step 441, and a series of +0
  // reaches its zero fixed point at step 541 (zero-point.ts): BENCH_ANALYSIS_STEADY_WARM_STEPS=600
  // measures that later state (docs/performance.md has both).
  const steadySizes = (process.env.BENCH_ANALYSIS_STEADY_SIZES ?? '1000,10000').split(',').map(Number).filter((x) => x > 0);
  const steadyWarmSteps = Number(process.env.BENCH_ANALYSIS_STEADY_WARM_STEPS ?? 300);
  if (!Number.isInteger(steadyWarmSteps) || steadyWarmSteps < 1) throw new Error(`BENCH_ANALYSIS_STEADY_WARM_STEPS: a positive integer, not ${process.env.BENCH_ANALYSIS_STEADY_WARM_STEPS}`);
  const rows: { name: string; value: string }[] = [
    { name: 'analysis tick: gc for heap figures', value: how },
    { name: 'analysis tick: V8 inlining budget (SVC_JIT_BUDGET)', value: budget },
    { name: 'analysis tick: young generation (semi-space, --max-semi-space-size)', value: semiSpaceSetting() },
    { name: 'analysis tick: code compiled first (not counted as heap)', value: `${CODE_WARMUP_WORKLOADS} workloads × ${CODE_WARMUP_STEPS} steps` },
  ];
  const heapLimit = getHeapStatistics().heap_size_limit;
  let bytesPerWorkload = 0;
  const runs: [number, number][] = [
    ...sizes.map((n): [number, number] => [n, Number(process.env.BENCH_ANALYSIS_WARM_STEPS ?? (n >= 100_000 ? 4 : 24))]),
    ...steadySizes.map((n): [number, number] => [n, steadyWarmSteps]),
  ];
  for (const [n, warm] of runs) {
    // a size whose projected heap would not fit is reported as skipped instead of crashing the bench
    const projected = bytesPerWorkload * n * 1.5;
    if (projected > 0.7 * heapLimit) {
      rows.push({ name: `analysis tick ${n / 1000}k workloads × 6 metrics (warm ${warm} steps)`, value: `skipped: projected heap ${(projected / 2 ** 30).toFixed(1)} GB > 70 % of the ${(heapLimit / 2 ** 30).toFixed(1)} GB limit (node --max-old-space-size)` });
      continue;
    }
    const r = await benchOne(n, warm, gc);
    const label = `analysis tick ${n / 1000}k workloads × 6 metrics (warm ${warm} steps)`;
    rows.push({ name: `${label}: step()`, value: `${r.tickMs.toFixed(1)} ms` });
    rows.push({ name: `${label}: GC pauses within step()`, value: `${r.gcMs.toFixed(1)} ms (median per tick; in ${TIMED_TICKS} ticks ${r.gcMinor} scavenges, ${r.gcOther} other pauses)` });
    rows.push({ name: `${label}: observe 6n samples`, value: `${r.observeMs.toFixed(1)} ms` });
    rows.push({ name: `${label}: heap per workload`, value: `${(r.heapPerWorkload / 1024).toFixed(2)} KB` });
    rows.push({ name: `${label}: typed-array buffers per workload`, value: `${(r.buffersPerWorkload / 1024).toFixed(2)} KB` });
    bytesPerWorkload = Math.max(bytesPerWorkload, r.heapPerWorkload); // the heap limit does not cover typed-array buffers
  }
  return rows;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await runAnalysisBench();
  for (const r of rows) console.log(`${r.name.padEnd(72)} ${r.value}`);
}
