/**
 * A heap snapshot of the analysis core alone: W of the steady bench's workloads (bench/analysis-tick.ts,
 * six metrics each) stepped S times (15 s each), a full collection, then `v8.writeHeapSnapshot`.
 * Two snapshots at two sizes (or two step counts) give a holder's slope a workload with
 * heap-owners.ts, or by type with heap-inventory.ts (docs/memory.md, "What grows after the benches'
 * 100 minutes").
 *
 * usage: node --expose-gc --max-old-space-size=8000 --import tsx bench/memory/core-snapshot.ts WORKLOADS STEPS OUT.heapsnapshot
 */
import { writeHeapSnapshot } from 'node:v8';
import { AnalysisCoreImpl } from '../../api-server/src/analysis/analysis-core.js';
import { benchKeys, feed, stepMsOf } from '../analysis-tick.js';

const USAGE = 'usage: node --expose-gc --import tsx bench/memory/core-snapshot.ts WORKLOADS STEPS OUT.heapsnapshot';
const [workloadsArg, stepsArg, out] = process.argv.slice(2);
const workloads = Number(workloadsArg);
const steps = Number(stepsArg);
if (!Number.isInteger(workloads) || workloads < 1 || !Number.isInteger(steps) || steps < 1 || out === undefined) {
  console.error(USAGE);
  process.exit(2);
}
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) {
  console.error(`no gc(): run node with --expose-gc, so that the snapshot holds no garbage of the last steps\n${USAGE}`);
  process.exit(2);
}
const core = new AnalysisCoreImpl({ newHexId: () => '000000000000' });
const keys = benchKeys(workloads);
for (let bucket = 0; bucket < steps; bucket += 1) {
  feed(core, keys, bucket);
  core.step(stepMsOf(bucket));
  if (bucket % 100 === 99) console.log(`stepped ${bucket + 1} of ${steps}`);
}
gc();
const file = writeHeapSnapshot(out);
// the core must be live while the snapshot is taken: read after it
console.log(`wrote ${file}: ${core.workloadKeys().length} workloads, ${steps} steps`);
