/**
 * `npm run bench`: every benchmark, one table. Never fails on a number; a benchmark that throws is
 * reported as such and the others still run.
 */
import { runAnalysisBench } from './analysis-tick.js';
import { applyServiceJitBudget } from './jit-budget.js';
import { runClusterBench } from './cluster.js';
import { runHttpBench } from './http-service.js';
import { runIngestBench } from './ingest-decoders.js';
import { runRegressionBench } from './regression.js';
import { runRemoteWritePathBench } from './remote-write-path.js';

type Bench = [string, () => Promise<{ name: string; value: string }[]>];

const benches: Bench[] = [
  ['regression, ensemble and detectors', runRegressionBench],
  ['analysis tick', runAnalysisBench],
  ['http service', runHttpBench],
  ['ingest decoders', runIngestBench],
  ['remote-write path', runRemoteWritePathBench],
  ['cluster (Kafka, replica processes)', runClusterBench],
];

const jitBudget = applyServiceJitBudget();
console.log(`faultline benchmarks — node ${process.version}, ${new Date().toISOString()}, V8 inlining budget ${jitBudget} (SVC_JIT_BUDGET)`);
for (const [title, run] of benches) {
  try {
    for (const row of await run()) console.log(`${row.name.padEnd(80)} ${row.value}`);
  } catch (error) {
    console.log(`${title.padEnd(80)} failed: ${(error as Error).message}`);
  }
}
