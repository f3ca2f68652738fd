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
import type { AnalysisCoreImpl } from '../api-server/src/analysis/analysis-core.js';
import { BUCKET_MS, ORIGIN, bucketSamples, coreOf, hashSteps, prng } from './analysis-telemetry.js';

function hashContinued(core: AnalysisCoreImpl, states: readonly (readonly [string, unknown])[] | null, workloads: number, from: number, seed: number): string {
  if (states !== null) for (const [key, state] of states) core.importWorkload(key, state);
  return hashSteps(core, prng(seed + 1), workloads, from, from + 120);
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
