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
import type { AnalysisCoreImpl } from '../api-server/src/analysis/analysis-core.js';
import type { AnomalyEvent } from '../api-server/src/analysis/contract.js';
import { BUCKET_MS, ORIGIN, bucketSamples, coreOf, prng } from './analysis-telemetry.js';

const DERIVED = ['health_score', 'stress', 'fatigue', 'fused_rupture_index'];
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
