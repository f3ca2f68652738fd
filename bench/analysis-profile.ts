/**
 * The steady analysis tick in a loop, to be profiled (docs/performance.md, "Where the time goes"):
 * `workloads` of the tick bench's workloads (bench/analysis-tick.ts) are stepped until every
 * window is full (300 steps), then `steps` more steady steps, with the service's inlining budget.
 * It prints its pid when the steady part starts and the mean tick at the end. Run it under a
 * profiler, for example Linux perf with V8's map of its compiled code:
 *
 *   perf record -F 2000 -o perf.data node --perf-basic-prof --import tsx bench/analysis-profile.ts 200 1500
 *   perf report -i perf.data --no-children --sort symbol --stdio
 *
 * 200 workloads keep the state within the host's L3 (about 19 MB of typed arrays): the profile is
 * then the work per point, without the memory waits of 10 000 workloads.
 */
import { AnalysisCoreImpl } from '../api-server/src/analysis/analysis-core.js';
import { benchKeys, feed, stepMsOf } from './analysis-tick.js';
import { applyServiceJitBudget } from './jit-budget.js';

const workloads = Number(process.argv[2] ?? 200);
const steps = Number(process.argv[3] ?? 1000);
if (!(workloads > 0 && steps > 0)) {
  console.error('usage: node --import tsx bench/analysis-profile.ts [workloads 200] [steady steps 1000]');
  process.exit(2);
}
console.log(`V8 inlining budget ${applyServiceJitBudget()}`);
const core = new AnalysisCoreImpl({ newHexId: () => '000000000000' });
const keys = benchKeys(workloads);
let bucket = 0;
for (; bucket < 300; bucket++) {
  feed(core, keys, bucket);
  core.step(stepMsOf(bucket));
}
console.log(`pid ${process.pid}: ${workloads} workloads, every window full; ${steps} steady steps`);
let tickMs = 0;
for (let i = 0; i < steps; i++, bucket++) {
  feed(core, keys, bucket);
  const t0 = performance.now();
  core.step(stepMsOf(bucket));
  tickMs += performance.now() - t0;
}
console.log(`steady tick ${(tickMs / steps).toFixed(2)} ms, ${((1000 * tickMs) / steps / workloads).toFixed(1)} µs a workload`);
