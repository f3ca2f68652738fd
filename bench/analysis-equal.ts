/**
 * Are two checkouts' analysis outputs bit-identical? One process loads the analysis core of
 * checkout A and of checkout B (each its own module graph, as bench/analysis-ab.ts), feeds both the
 * same seeded telemetry (noise, spikes, level shifts and ramps, gaps, two pods on some workloads),
 * steps both, and hashes (SHA-256) every step's output, a forecast per workload at the end and
 * every exported workload state. Prints both hashes; exits 1 when they differ.
 *
 *   node --import tsx bench/analysis-equal.ts <dirA> <dirB> [workloads 120] [steps 460] [seed 0]
 */
import { coreOf, hashSteps, prng } from './analysis-telemetry.js';

const [dirA, dirB] = [process.argv[2], process.argv[3]];
if (dirA === undefined || dirB === undefined) {
  console.error('usage: node --import tsx bench/analysis-equal.ts <dirA> <dirB> [workloads] [steps] [seed]');
  process.exit(2);
}
const workloads = Number(process.argv[4] ?? 120);
const steps = Number(process.argv[5] ?? 460);
const seed = Number(process.argv[6] ?? 0);
const a = hashSteps(await coreOf(dirA), prng(seed), workloads, 0, steps);
const b = hashSteps(await coreOf(dirB), prng(seed), workloads, 0, steps);
console.log(`${workloads} workloads, ${steps} steps, seed ${seed}\nA ${a} (${dirA})\nB ${b} (${dirB})\n${a === b ? 'identical' : 'DIFFERENT'}`);
process.exit(a === b ? 0 : 1);
