/**
 * Paired comparison of two checkouts' analysis tick (docs/performance.md): one process loads the
 * analysis core of checkout A and of checkout B (each its own module graph), feeds both the tick
 * bench's workloads (bench/analysis-tick.ts), warms both, then times their ticks alternately
 * (A B, B A, ...). Both see the same machine at the same moments, so a difference of a few per
 * cent shows where separate runs, which vary by 10-30 % on a shared VM, hide it.
 *
 *   node --max-old-space-size=14000 --expose-gc --import tsx bench/analysis-ab.ts <dirA> <dirB> [workloads] [warm steps]
 *
 * <dir>: a checkout's root (a `git worktree add` of the commit to compare, with node_modules).
 * Defaults: 2 000 workloads, 300 warm steps (every window full); AB_TICKS timed ticks each (21).
 * Prints both medians, the median of the per-pair ratios B/A and in how many pairs B was faster.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as CoreModule from '../api-server/src/analysis/analysis-core.js';
import type { AnalysisCoreImpl } from '../api-server/src/analysis/analysis-core.js';
import { benchKeys, feed, median, stepMsOf } from './analysis-tick.js';
import { applyServiceJitBudget } from './jit-budget.js';

async function coreOf(dir: string): Promise<AnalysisCoreImpl> {
  const url = pathToFileURL(resolve(dir, 'api-server/src/analysis/analysis-core.ts')).href;
  const mod = (await import(url)) as typeof CoreModule;
  return new mod.AnalysisCoreImpl({ newHexId: () => '000000000000' });
}

const [dirA, dirB] = [process.argv[2], process.argv[3]];
if (dirA === undefined || dirB === undefined) {
  console.error('usage: node --expose-gc --import tsx bench/analysis-ab.ts <dirA> <dirB> [workloads] [warm steps]');
  process.exit(2);
}
const n = Number(process.argv[4] ?? 2000);
const warm = Number(process.argv[5] ?? 300);
const timed = Number(process.env.AB_TICKS ?? 21);
console.log(`V8 inlining budget ${applyServiceJitBudget()}; ${n} workloads, ${warm} warm steps, ${timed} ticks each`);
const cores = [await coreOf(dirA), await coreOf(dirB)] as const;
const keys = benchKeys(n);
let bucket = 0;
for (; bucket < warm; bucket++) {
  for (const core of cores) {
    feed(core, keys, bucket);
    core.step(stepMsOf(bucket));
  }
}
(globalThis as { gc?: () => void }).gc?.();
const times: [number[], number[]] = [[], []];
for (let i = 0; i < timed; i++, bucket++) {
  for (const k of i % 2 === 0 ? [0, 1] : [1, 0]) {
    const core = cores[k as 0 | 1];
    feed(core, keys, bucket);
    const t0 = performance.now();
    core.step(stepMsOf(bucket));
    times[k as 0 | 1].push(performance.now() - t0);
  }
}
const ratios = times[0].map((a, i) => times[1][i]! / a);
console.log(`A ${median(times[0]).toFixed(1)} ms (${dirA})`);
console.log(`B ${median(times[1]).toFixed(1)} ms (${dirB})`);
console.log(`B/A median of the pairs ${median(ratios).toFixed(3)}; B faster in ${ratios.filter((r) => r < 1).length} of ${ratios.length} pairs`);
