/**
 * Do states saved by checkout A restore into checkout B as they restore into A? One process loads
 * both analysis cores (as bench/analysis-equal.ts, whose telemetry it feeds), steps A's core
 * `steps` buckets and exports every workload's state; a fresh core of A and one of B import those
 * states, then both step 120 more buckets and hash every output, a forecast per workload and every
 * exported state (SHA-256). A third core of B that imports nothing shows the states were taken
 * (its hash differs). Exits 1 when A's and B's hashes differ.
 *
 *   node --import tsx bench/analysis-restore-equal.ts <dirA> <dirB> [workloads 60] [steps 400] [seed 3]
 */
import { createHash, type Hash } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as CoreModule from '../api-server/src/analysis/analysis-core.js';
import type { AnalysisCoreImpl } from '../api-server/src/analysis/analysis-core.js';

const METRICS = ['cpu_percent', 'memory_percent', 'http_latency_p99_ms', 'http_error_rate', 'http_requests_per_second', 'disk_percent'];
const BUCKET_MS = 15_000;
const ORIGIN = Date.UTC(2026, 0, 1);

async function coreOf(dir: string): Promise<AnalysisCoreImpl> {
  const mod = (await import(pathToFileURL(resolve(dir, 'api-server/src/analysis/analysis-core.ts')).href)) as typeof CoreModule;
  let id = 0;
  return new mod.AnalysisCoreImpl({ newHexId: () => (id++).toString(16).padStart(12, '0') });
}

/** mulberry32: a small seeded generator, so both cores see the same numbers */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Sample {
  workload: string;
  pod: string | undefined;
  name: string;
  value: number;
  timeMs: number;
}

/** one bucket's samples of every workload */
function bucketSamples(random: () => number, workloads: number, bucket: number): Sample[] {
  const out: Sample[] = [];
  for (let w = 0; w < workloads; w++) {
    const key = `eq/Deployment/w${w}`;
    const pods = w % 5 === 0 ? 2 : 1;
    for (let p = 0; p < pods; p++) {
      for (let m = 0; m < METRICS.length; m++) {
        if (random() < 0.03) continue; // a gap
        const base = m === 2 ? 120 : m === 4 ? 200 : 0.3 + 0.05 * m;
        let v = base * (1 + 0.1 * Math.sin(bucket / 40 + w) + 0.05 * (random() - 0.5));
        if ((w + bucket) % 97 === 0) v *= 3; // a spike
        if (w % 7 === 1 && bucket > 300) v *= 1.6; // a level shift
        if (w % 11 === 2 && bucket > 200) v *= 1 + (bucket - 200) / 150; // a ramp
        if (w % 13 === 3 && bucket > 150 && bucket < 250) v = base; // flat
        out.push({ workload: key, pod: `w${w}-${p}`, name: METRICS[m]!, value: v, timeMs: ORIGIN + bucket * BUCKET_MS + 1_000 + 10 * p });
      }
    }
  }
  return out;
}

function hashContinued(core: AnalysisCoreImpl, states: readonly (readonly [string, unknown])[] | null, workloads: number, from: number, seed: number): string {
  if (states !== null) for (const [key, state] of states) core.importWorkload(key, state);
  const random = prng(seed + 1);
  const h: Hash = createHash('sha256');
  for (let b = from; b < from + 120; b++) {
    for (const s of bucketSamples(random, workloads, b)) core.observeMetric(s);
    h.update(JSON.stringify(core.step(ORIGIN + (b + 1) * BUCKET_MS + 1)));
  }
  for (const key of core.workloadKeys()) {
    h.update(JSON.stringify(core.forecast(key, 'cpu_percent', 60)));
    h.update(JSON.stringify(core.exportWorkload(key)));
  }
  return h.digest('hex');
}

const [dirA, dirB] = [process.argv[2], process.argv[3]];
if (dirA === undefined || dirB === undefined) {
  console.error('usage: node --import tsx bench/analysis-restore-equal.ts <dirA> <dirB> [workloads] [steps] [seed]');
  process.exit(2);
}
const workloads = Number(process.argv[4] ?? 60);
const steps = Number(process.argv[5] ?? 400);
const seed = Number(process.argv[6] ?? 3);
const saver = await coreOf(dirA);
const random = prng(seed);
for (let b = 0; b < steps; b++) {
  for (const s of bucketSamples(random, workloads, b)) saver.observeMetric(s);
  saver.step(ORIGIN + (b + 1) * BUCKET_MS + 1);
}
// through JSON, as a saved state is
const states = saver.workloadKeys().map((key) => [key, JSON.parse(JSON.stringify(saver.exportWorkload(key))) as unknown] as const);
const a = hashContinued(await coreOf(dirA), states, workloads, steps, seed);
const b = hashContinued(await coreOf(dirB), states, workloads, steps, seed);
const fresh = hashContinued(await coreOf(dirB), null, workloads, steps, seed);
console.log(`${workloads} workloads, states after ${steps} steps of A, 120 more, seed ${seed}\nA ${a} (${dirA})\nB ${b} (${dirB})\nB without the states ${fresh}\n${a === b && fresh !== a ? 'identical' : 'DIFFERENT'}`);
process.exit(a === b && fresh !== a ? 0 : 1);
