/**
 * What a change to the derived series (health_score, stress, fatigue, fused_rupture_index) moves
 * in the analysis outputs of two checkouts A and B, fed the same seeded telemetry as
 * bench/analysis-equal.ts: hashes everything but the derived series' anomalies (snapshots, band
 * events, explain records, fingerprints, log bursts, the input series' anomalies, a forecast of
 * every derived series and of cpu_percent per workload, the exported states with the derived
 * series' novelty slot left out) and counts the derived series' anomaly events by series, method,
 * severity and consensus in each. Ids are drawn from one counter per core, so fewer anomalies
 * shift every later id: anomaly ids are dropped and the other ids (`r_…`, `lb_…`) renamed in the
 * order they first appear. Exits 1 when the hashes differ.
 *
 *   node --import tsx bench/analysis-derived-diff.ts <dirA> <dirB> [workloads 120] [steps 460] [seed 0]
 */
import { createHash, type Hash } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as CoreModule from '../api-server/src/analysis/analysis-core.js';
import type { AnalysisCoreImpl } from '../api-server/src/analysis/analysis-core.js';
import type { AnomalyEvent } from '../api-server/src/analysis/contract.js';

const DERIVED = ['health_score', 'stress', 'fatigue', 'fused_rupture_index'];
// the telemetry of bench/analysis-equal.ts
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

interface Run {
  hash: string;
  /** `series method severity consensus` -> events */
  derived: Map<string, number>;
  inputAnomalies: number;
}

/** the JSON of `value` with ids renamed in order of first appearance (shared over the run) */
function canonical(value: unknown, names: Map<string, string>): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (typeof v !== 'string' || !/^(r|lb)_[0-9a-f]{12}$/.test(v)) return v;
    let n = names.get(v);
    if (n === undefined) {
      n = `id${names.size}`;
      names.set(v, n);
    }
    return n;
  });
}

/** the exported state with every derived series' third slot (its novelty state) set to null */
function withoutDerivedNovelty(state: unknown): unknown {
  if (Array.isArray(state)) {
    if (state.length === 3 && typeof state[0] === 'string' && DERIVED.includes(state[0])) return [state[0], state[1], null];
    return state.map(withoutDerivedNovelty);
  }
  if (typeof state === 'object' && state !== null) return Object.fromEntries(Object.entries(state).map(([k, v]) => [k, withoutDerivedNovelty(v)]));
  return state;
}

function run(core: AnalysisCoreImpl, workloads: number, steps: number, seed: number): Run {
  const random = prng(seed);
  const h: Hash = createHash('sha256');
  const names = new Map<string, string>();
  const derived = new Map<string, number>();
  let inputAnomalies = 0;
  for (let b = 0; b < steps; b++) {
    for (const s of bucketSamples(random, workloads, b)) core.observeMetric(s);
    const out = core.step(ORIGIN + (b + 1) * BUCKET_MS + 1);
    const inputs: Omit<AnomalyEvent, 'id'>[] = [];
    for (const a of out.anomalies) {
      const { id: _id, ...rest } = a;
      if (DERIVED.includes(a.metric)) {
        const k = `${a.metric} ${a.method} ${a.severity} ${a.consensus ? 'consensus' : 'single'}`;
        derived.set(k, (derived.get(k) ?? 0) + 1);
      } else {
        inputs.push(rest);
      }
    }
    inputAnomalies += inputs.length;
    h.update(canonical({ ...out, anomalies: inputs }, names));
  }
  for (const key of core.workloadKeys()) {
    for (const metric of ['cpu_percent', ...DERIVED]) h.update(JSON.stringify(core.forecast(key, metric, 60)));
    h.update(canonical(withoutDerivedNovelty(core.exportWorkload(key)), names));
  }
  return { hash: h.digest('hex'), derived, inputAnomalies };
}

const [dirA, dirB] = [process.argv[2], process.argv[3]];
if (dirA === undefined || dirB === undefined) {
  console.error('usage: node --import tsx bench/analysis-derived-diff.ts <dirA> <dirB> [workloads] [steps] [seed]');
  process.exit(2);
}
const workloads = Number(process.argv[4] ?? 120);
const steps = Number(process.argv[5] ?? 460);
const seed = Number(process.argv[6] ?? 0);
const a = run(await coreOf(dirA), workloads, steps, seed);
const b = run(await coreOf(dirB), workloads, steps, seed);
console.log(`${workloads} workloads, ${steps} steps, seed ${seed}`);
console.log(`everything but the derived series' anomalies:\nA ${a.hash} (${dirA})\nB ${b.hash} (${dirB})\n${a.hash === b.hash ? 'identical' : 'DIFFERENT'}`);
console.log(`input series' anomalies: A ${a.inputAnomalies}, B ${b.inputAnomalies}`);
const keys = [...new Set([...a.derived.keys(), ...b.derived.keys()])].sort();
const total = (m: Map<string, number>): number => [...m.values()].reduce((s, n) => s + n, 0);
console.log(`derived series' anomalies: A ${total(a.derived)}, B ${total(b.derived)}`);
for (const k of keys) console.log(`  ${k.padEnd(56)} A ${String(a.derived.get(k) ?? 0).padStart(6)}  B ${String(b.derived.get(k) ?? 0).padStart(6)}`);
process.exit(a.hash === b.hash ? 0 : 1);
