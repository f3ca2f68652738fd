/**
 * What one catch-up tick holds (docs/memory-soak.md): N workloads receive S buckets of the six
 * metrics without a step between them (a backfill arriving faster than the ticks; the values of
 * bench/memory/remote-write-body.ts), then ONE step runs them all, as the analyzer loop's tick
 * does. Prints the V8 heap the waiting backlog holds (used after a full GC, against before the
 * first sample), the step's output (snapshots, anomalies, explain records) and the V8 heap that
 * output holds (used after a full GC with the output alive, minus used once it is dropped).
 *
 * usage: node --expose-gc --import tsx bench/memory/catch-up-tick.ts [--workloads 500] [--steps 400]
 */
import { parseArgs } from 'node:util';
import { AnalysisCoreImpl } from '../../api-server/src/analysis/analysis-core.js';

const { values } = parseArgs({ options: { workloads: { type: 'string', default: '500' }, steps: { type: 'string', default: '400' } } });
const n = Number(values.workloads);
const steps = Number(values.steps);
if (!Number.isInteger(n) || n <= 0 || !Number.isInteger(steps) || steps <= 0) throw new Error('--workloads and --steps must be positive integers');
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

const METRICS = ['cpu_percent', 'memory_percent', 'latency_p99_ms', 'error_rate', 'request_rate', 'restart_count'];
const BUCKET_MS = 15_000;
const core = new AnalysisCoreImpl({ newHexId: () => '000000000000' });
gc();
const beforeBacklog = process.memoryUsage().heapUsed;
const now = Date.now();
const first = now - (now % BUCKET_MS) - (steps + 1) * BUCKET_MS;
for (let b = 0; b < steps; b++) {
  for (let w = 0; w < n; w++) {
    for (let m = 0; m < METRICS.length; m++) {
      const value = 0.3 + 0.2 * Math.sin((b + w) / 20) + 0.05 * Math.random();
      core.observeMetric({ workload: `ns${w % 50}/Deployment/w${w}`, pod: undefined, name: METRICS[m]!, value, timeMs: first + b * BUCKET_MS + 1_000 });
    }
  }
}
gc();
// what the backlog holds while it waits for the step: the open buckets and the workloads' objects
// (their typed arrays are allocated at the first step, outside V8's heap)
const waitingHeap = process.memoryUsage().heapUsed - beforeBacklog;
const waitingBuckets = core.waitingBuckets();
const started = performance.now();
let output: ReturnType<AnalysisCoreImpl['step']> | undefined = core.step(now);
const ms = performance.now() - started;
const counts = `${output.snapshots.length} snapshots, ${output.anomalies.length} anomalies, ${output.ruptures.length} explain records, ${output.fingerprints.length} fingerprints`;
gc();
const withOutput = process.memoryUsage().heapUsed;
output = undefined;
gc();
const without = process.memoryUsage().heapUsed;
const mb = (b: number): string => (b / 1_048_576).toFixed(0);
console.log(
  `catch-up-tick: waiting, ${waitingBuckets} workload-buckets held ${mb(waitingHeap)} MB of V8 heap (${(waitingHeap / waitingBuckets).toFixed(0)} bytes a workload-bucket, ${(waitingHeap / n / 1024).toFixed(0)} KB a workload)`,
);
console.log(
  `catch-up-tick: ${n} workloads x ${steps} buckets in one step (${(ms / 1000).toFixed(1)} s): ${counts}; ` +
    `the output holds ${mb(withOutput - without)} MB of V8 heap (${((withOutput - without) / n / 1024).toFixed(0)} KB per workload; heap used without it ${mb(without)} MB)`,
);
