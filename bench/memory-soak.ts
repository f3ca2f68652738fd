/**
 * `npm run bench:memory-soak`: does the service stay below the shipped pod's memory limit with N
 * workloads of full windows, for D minutes of live telemetry? (docs/memory.md)
 *
 * Starts the built service the way the pod does (bench/memory/pod-settings.ts: the manifests'
 * NODE_OPTIONS, MALLOC_MMAP_THRESHOLD_ and NODE_ENV, the image's node flags, and the container's
 * memory limit as SVC_MEMORY_LIMIT_BYTES, so the high-water guard acts as in the pod), backfills N
 * workloads x 6 metrics x S steps (default 400, 15 s apart, ending now: every window full) over
 * remote-write, waits until the backlog is analysed, then sends one step of every workload each 15
 * s of wall time for D minutes. The service's RSS is read every few seconds throughout; at the end
 * it prints the peak (sampled, and the kernel's VmHWM), the limit, the high-water mark and whether
 * the peak stayed below the limit (exit code 1 when it did not, or when the service died).
 *
 * usage: npm run bench:memory-soak -- [--workloads 10000] [--minutes 30] [--steps 400]
 *        [--sample-seconds 5] [--project DIR: a built checkout other than this one]
 *        [--end-by ISO-TIME: the live phase ends then at the latest; the run says how long it lasted]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readPodSettings } from './memory/pod-settings.js';
import { brkHeapMb, getJson, heapCollections, postRetrying, rssMb, startService } from './memory/processes.js';
import { remoteWriteBody } from './memory/remote-write-body.js';

const { values } = parseArgs({
  options: {
    workloads: { type: 'string', default: '10000' },
    minutes: { type: 'string', default: '30' },
    steps: { type: 'string', default: '400' },
    'sample-seconds': { type: 'string', default: '5' },
    project: { type: 'string' },
    'end-by': { type: 'string' },
  },
});
const positive = (name: string, v: string): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive integer, got ${JSON.stringify(v)}`);
  return n;
};
const workloads = positive('workloads', values.workloads);
const minutes = positive('minutes', values.minutes);
const steps = positive('steps', values.steps);
const sampleMs = positive('sample-seconds', values['sample-seconds']) * 1000;
const endBy = values['end-by'] === undefined ? Number.POSITIVE_INFINITY : Date.parse(values['end-by']);
if (Number.isNaN(endBy)) throw new Error(`--end-by must be an ISO time, got ${JSON.stringify(values['end-by'])}`);
const project = resolve(values.project ?? resolve(import.meta.dirname, '..'));
/** workloads per remote-write request */
const CHUNK = 1000;
const STEP_MS = 15_000;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** the machine's 1-minute load average, and the highest seen */
let maxLoad = 0;
const load = (): string => {
  const l = loadavg()[0]!;
  maxLoad = Math.max(maxLoad, l);
  return l.toFixed(1);
};

const pod = readPodSettings(project);
// the pod's NODE_ENV=production wants an API key (else every call answers 503)
const apiKey = randomBytes(16).toString('hex');
const env = { ...pod.env, SVC_MEMORY_LIMIT_BYTES: String(pod.limitBytes), SVC_API_KEY: apiKey };
const limitMb = pod.limitBytes / 1_048_576;
console.log(
  `bench:memory-soak — ${workloads} workloads x 6 metrics, ${steps} steps backfilled, then ${minutes} min live; node ${process.version}; ` +
    `the pod's settings: ${Object.entries(pod.env).map(([k, v]) => `${k}=${v}`).join(' ')}, node ${pod.nodeFlags.join(' ')}, limit ${pod.limit}`,
);

/** peak RSS of each phase (MB), from the samples */
const peaks = { backfill: 0, analysis: 0, live: 0 };
let phase: keyof typeof peaks = 'backfill';
let dead = false;
/** set before the bench stops the service itself */
let stopping = false;

/**
 * every request of one step (CHUNK workloads each), a 429 retried after its Retry-After as
 * Prometheus does: how many finally were not 2xx, how many 429 answers came on the way, the last code
 */
async function sendStep(port: number, step: number, t: number): Promise<{ non2xx: number; refused: number; requests: number; code: number }> {
  let non2xx = 0;
  let refused = 0;
  let requests = 0;
  let code = 0;
  for (let first = 0; first < workloads; first += CHUNK) {
    const r = await postRetrying(port, '/api/v2/write', remoteWriteBody(Math.min(workloads, first + CHUNK), step, t, first), apiKey).catch(() => ({ status: 0, refused: 0 }));
    code = r.status;
    requests++;
    if (code < 200 || code >= 300) non2xx++;
    refused += r.refused;
  }
  return { non2xx, refused, requests, code };
}

/** V8's heap used and total and the external (typed-array) memory in MB, from the service's /metrics, and malloc's heap */
async function breakdown(port: number): Promise<string> {
  const metrics = await fetch(`http://127.0.0.1:${port}/api/v2/metrics`, { headers: { authorization: `Bearer ${apiKey}` } }).then(
    (r) => r.text(),
    () => '',
  );
  const mb = (name: string): string => {
    const m = new RegExp(`^${name} (\\S+)`, 'm').exec(metrics);
    return m === null ? '?' : (Number(m[1]) / 1_048_576).toFixed(0);
  };
  // the service's own collections after ticks so far (engine/heap-trim.ts), by reason: count and seconds of pause
  const trims = Object.entries(heapCollections(metrics)).map(([reason, c]) => `${reason} ${c.count} (${c.seconds.toFixed(2)} s)`);
  return `V8 heap used ${mb('nodejs_heap_size_used_bytes')} / total ${mb('nodejs_heap_size_total_bytes')} MB, external ${mb('nodejs_external_memory_bytes')} MB, malloc heap ${brkHeapMb(pid).toFixed(0)} MB${trims.length === 0 ? '' : `, collections after ticks: ${trims.join(', ')}`}`;
}

const dir = mkdtempSync(join(tmpdir(), 'bench-memory-soak-'));
const svc = await startService(project, dir, [...pod.nodeFlags], env);
const pid = svc.service.pid!;
svc.service.on('exit', (code, signal) => {
  if (stopping) return;
  dead = true;
  console.error(`the service exited (code ${String(code)}, signal ${String(signal)}) during the ${phase}`);
});
const sampler = setInterval(() => {
  const mb = rssMb(pid);
  if (Number.isFinite(mb)) peaks[phase] = Math.max(peaks[phase], mb);
}, sampleMs);
let non2xx = 0;
let refused = 0;
try {
  for (let i = 0; i < 300 && (await getJson(svc.restPort, '/api/v2/ready', apiKey))['status'] !== 'ready'; i++) await sleep(1000);
  const started = Date.now();
  const t0 = started - steps * STEP_MS;
  for (let s = 0; s < steps && !dead; s++) {
    const r = await sendStep(svc.restPort, s, t0 + s * STEP_MS);
    if (s === 0 && r.non2xx === r.requests) throw new Error(`the service refused the first step's every request (HTTP ${r.code})`);
    non2xx += r.non2xx;
    refused += r.refused;
    if ((s + 1) % 50 === 0) console.log(`  backfill step ${s + 1}/${steps}: RSS ${rssMb(pid).toFixed(0)} MB (${await breakdown(svc.restPort)}; ${((Date.now() - started) / 1000).toFixed(0)} s, load ${load()})`);
  }
  const backfillS = (Date.now() - started) / 1000;
  // analysed: every workload listed and the ingest queue empty for three polls 5 s apart (at most 2 h)
  phase = 'analysis';
  for (let calm = 0, i = 0; i < 1440 && calm < 3 && !dead; i++) {
    const h = await getJson(svc.restPort, '/api/v2/health', apiKey);
    calm = (h['workloads'] as number) >= workloads && (h['ingest_queue'] ?? 0) === 0 ? calm + 1 : 0;
    await sleep(5000);
    if (i % 12 === 11) console.log(`  analysing the backlog, ${((Date.now() - started) / 1000).toFixed(0)} s: ${String(h['workloads'])} workloads, queue ${String(h['ingest_queue'])}, RSS ${rssMb(pid).toFixed(0)} MB (${await breakdown(svc.restPort)}; load ${load()})`);
  }
  const analysedS = (Date.now() - started) / 1000;
  console.log(`  backlog analysed after ${analysedS.toFixed(0)} s (sent in ${backfillS.toFixed(0)} s): RSS ${rssMb(pid).toFixed(0)} MB, peak so far ${Math.max(peaks.backfill, peaks.analysis).toFixed(0)} MB (${await breakdown(svc.restPort)})`);
  // live: one step of every workload per 15 s of wall time, its sample time now
  phase = 'live';
  const liveStart = Date.now();
  const liveEnd = Math.min(liveStart + minutes * 60_000, endBy);
  if (liveEnd < Date.now() + minutes * 60_000) console.log(`  the live phase is cut to ${((liveEnd - Date.now()) / 60_000).toFixed(1)} min by --end-by`);
  let nextMinute = Date.now() + 60_000;
  for (let s = steps; Date.now() < liveEnd && !dead; s++) {
    const due = Date.now() + STEP_MS;
    const r = await sendStep(svc.restPort, s, Date.now());
    non2xx += r.non2xx;
    refused += r.refused;
    if (Date.now() >= nextMinute) {
      console.log(`  live, ${Math.round((Date.now() - liveStart) / 60_000)} min: RSS ${rssMb(pid).toFixed(0)} MB, peak ${peaks.live.toFixed(0)} MB (${await breakdown(svc.restPort)}; load ${load()})`);
      nextMinute += 60_000;
    }
    await sleep(Math.max(0, Math.min(due, liveEnd) - Date.now()));
  }
  clearInterval(sampler);
  const health = await getJson(svc.restPort, '/api/v2/health', apiKey);
  if (!dead) console.log(`  at the end: RSS ${rssMb(pid).toFixed(0)} MB (${await breakdown(svc.restPort)})`);
  const hwm = /VmHWM:\s+(\d+)/.exec(dead ? '' : readFileSync(`/proc/${pid}/status`, 'utf8'));
  const hwmMb = hwm === null ? Number.NaN : Number(hwm[1]) / 1024;
  const peak = Math.max(peaks.backfill, peaks.analysis, peaks.live, Number.isFinite(hwmMb) ? hwmMb : 0);
  const below = !dead && peak < limitMb;
  const memory = (health['memory'] ?? {}) as Record<string, unknown>;
  console.log(
    `peak RSS ${peak.toFixed(0)} MB (sampled every ${sampleMs / 1000} s: backfill ${peaks.backfill.toFixed(0)}, analysis ${peaks.analysis.toFixed(0)}, live ${peaks.live.toFixed(0)} MB; ` +
      `kernel VmHWM ${hwmMb.toFixed(0)} MB); limit ${limitMb.toFixed(0)} MB (${pod.limit}), high-water ${(Number(memory['high_water_bytes']) / 1_048_576).toFixed(0)} MB; ` +
      `${below ? 'stayed below the limit' : dead ? 'THE SERVICE DIED' : 'EXCEEDED THE LIMIT'}; ${non2xx} requests not 2xx in the end; ${refused} answers 429 on the way (each retried after its Retry-After); ` +
      `workloads ${String(health['workloads'])}, refusing new workloads: ${String(memory['refusing_new_workloads'])}`,
  );
  console.log(JSON.stringify({ workloads, minutes, steps, backfill_s: Math.round(backfillS), analysed_s: Math.round(analysedS), live_s: Math.round((Date.now() - started) / 1000 - analysedS), max_load_1m: Number(maxLoad.toFixed(1)), limit_mb: Math.round(limitMb), peak_rss_mb: Math.round(peak), peaks_mb: { backfill: Math.round(peaks.backfill), analysis: Math.round(peaks.analysis), live: Math.round(peaks.live), vm_hwm: Math.round(hwmMb) }, below_limit: below, non2xx, refused }));
  if (dead) console.error(`the service's log ends:\n${readFileSync(join(dir, 'svc.log'), 'utf8').split('\n').slice(-15).join('\n')}`);
  process.exitCode = below ? 0 : 1;
} catch (error) {
  console.error(`failed; the service's log ends:\n${readFileSync(join(dir, 'svc.log'), 'utf8').split('\n').slice(-15).join('\n')}`);
  throw error;
} finally {
  clearInterval(sampler);
  stopping = true;
  svc.stop();
  rmSync(dir, { recursive: true, force: true });
}
