/**
 * What a scrape of /metrics costs with W workloads' series (docs/memory.md "A scrape of
 * /metrics"): SelfMetrics gets W workloads' snapshots (every other one with a time to failure),
 * then its text is made alternately as prom-client's `registry.metrics()` (one string) and as the
 * service's `exposition()` (observability/exposition.ts, in parts), ROUNDS times each, each after
 * a full collection: the main thread's time, the bytes V8 allocated meanwhile (the scrape's
 * garbage), V8's heap used after it (that garbage less what a scavenge during the scrape freed: it
 * reads low when the scrape allocates past the young generation), the largest string made. Both
 * texts are checked equal first.
 *
 * Before them, what a tick's snapshots cost SelfMetrics (the same W snapshots set again): time and
 * bytes allocated.
 *
 * usage: node --expose-gc --import tsx bench/memory/metrics-scrape.ts [workloads=5000] [rounds=3]
 */
import { getHeapStatistics, type HeapInfo } from 'node:v8';
import { SIGNAL_NAMES } from '../../api-server/src/model/signals.js';
import type { WorkloadSnapshot } from '../../api-server/src/analysis/contract.js';
import { exposition } from '../../api-server/src/observability/exposition.js';
import { SelfMetrics } from '../../api-server/src/observability/self-metrics.js';

const W = Number(process.argv[2] ?? 5000);
const ROUNDS = Number(process.argv[3] ?? 3);
if (!Number.isInteger(W) || W < 1 || !Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error('usage: metrics-scrape.ts [workloads] [rounds], positive integers');
/** the bytes V8 has allocated since the process started (getHeapStatistics() has it, @types/node not yet); NaN where it lacks */
const allocatedBytes = (): number => (getHeapStatistics() as HeapInfo & { total_allocated_bytes?: number }).total_allocated_bytes ?? Number.NaN;
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

const metrics = new SelfMetrics('bench');
const snapshots = Array.from({ length: W }, (_, w) => {
  const signals = Object.fromEntries(SIGNAL_NAMES.map((name, i) => [name, { value: ((w * 31 + i * 7) % 1000) / 1000 }]));
  return { key: `bench/Deployment/wl-${w}`, signals, fusedR: (w % 97) / 40, state: w % 10 === 0 ? 'warning' : 'stable', sources: { primaryMetric: 'cpu_percent' } } as unknown as WorkloadSnapshot;
});
const tick = (): void => {
  for (let w = 0; w < W; w++) metrics.snapshot(snapshots[w]!, w % 2 === 0 ? 600 + w : undefined);
};
tick();

/** the exposition's parts as the route hands them on: counted, not kept */
const streamed = async (): Promise<{ chars: number; largest: number }> => {
  let chars = 0;
  let largest = 0;
  for await (const part of exposition(metrics.registry)) {
    chars += part.length;
    largest = Math.max(largest, part.length);
  }
  return { chars, largest };
};
// the default metrics (process CPU, heap) and rpt_memory_bytes / rpt_uptime_seconds change between two scrapes: compare the rest
const stable = (text: string): string => text.split('\n\n').filter((m) => /^# HELP (svc_|rpt_)/.test(m) && !m.startsWith('# HELP rpt_memory_bytes') && !m.startsWith('# HELP rpt_uptime_seconds')).join('\n\n');
const parts: string[] = [];
for await (const part of exposition(metrics.registry)) parts.push(part);
if (stable(parts.join('')) !== stable(await metrics.registry.metrics())) throw new Error('exposition() and registry.metrics() differ');
parts.length = 0;

console.log(`metrics-scrape: ${W} workloads, node ${process.version}, ${new Date().toISOString()}`);
// what setting the series costs: a tick's snapshots again, every series there already
for (let r = 0; r < ROUNDS; r++) {
  gc();
  const allocatedBefore = allocatedBytes();
  const t0 = performance.now();
  tick();
  console.log(`  a tick (${W} snapshots)  ${(performance.now() - t0).toFixed(1)} ms, allocated ${((allocatedBytes() - allocatedBefore) / 1e6).toFixed(2)} MB`);
}
for (let r = 0; r < ROUNDS; r++) {
  for (const way of ['registry.metrics()', 'exposition()'] as const) {
    gc();
    const before = process.memoryUsage().heapUsed;
    const allocatedBefore = allocatedBytes();
    const t0 = performance.now();
    let chars: number;
    let largest: number;
    if (way === 'registry.metrics()') {
      const text = await metrics.registry.metrics();
      chars = text.length;
      largest = text.length;
    } else ({ chars, largest } = await streamed());
    const ms = performance.now() - t0;
    const allocated = allocatedBytes() - allocatedBefore;
    const grown = process.memoryUsage().heapUsed - before;
    console.log(`  ${way.padEnd(19)} ${(chars / 1e6).toFixed(2)} M characters, largest string ${(largest / 1e3).toFixed(0)} K, ${ms.toFixed(0)} ms, allocated ${(allocated / 1e6).toFixed(1)} MB, heap used +${(grown / 1e6).toFixed(1)} MB`);
  }
}
