/**
 * What a checkpoint of the analysis state costs (docs/memory-soak.md): N workloads with full
 * windows in an analysis core, then their exported state written to a real LevelDB in one of two
 * ways, in a fresh process each:
 *
 * - `--mode all`: every workload's state exported and put into ONE batch (what the analyzer loop
 *   did every 5 minutes before engine/state-checkpoints.ts);
 * - `--mode turn`: the workloads of one turn (N / 20, the 15-s tick's share of 300 s) through
 *   AnalysisStore.writeStates (what a tick does now);
 * - `--mode bounded`: every workload through AnalysisStore.writeStates (a backfill of new workloads
 *   or the shutdown flush: bounded batches).
 *
 * Prints the JSON bytes and time per workload and the process's growth while writing (peak V8 heap
 * used and RSS over the baseline, sampled after each state).
 *
 * usage: node --expose-gc --import tsx bench/memory/checkpoint-cost.ts [--workloads 1000] [--steps 420] [--mode all|turn|bounded]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ClassicLevel } from 'classic-level';
import { AnalysisCoreImpl } from '../../api-server/src/analysis/analysis-core.js';
import { AnalysisStore } from '../../api-server/src/storage/analysis-store.js';

const { values } = parseArgs({ options: { workloads: { type: 'string', default: '1000' }, steps: { type: 'string', default: '420' }, mode: { type: 'string', default: 'all' } } });
const n = Number(values.workloads);
const steps = Number(values.steps);
const mode = values.mode;
if (!Number.isInteger(n) || n <= 0 || !Number.isInteger(steps) || steps <= 0) throw new Error('--workloads and --steps must be positive integers');
if (mode !== 'all' && mode !== 'turn' && mode !== 'bounded') throw new Error(`--mode must be all, turn or bounded, got ${String(mode)}`);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

const METRICS = ['cpu_percent', 'memory_percent', 'latency_p99_ms', 'error_rate', 'request_rate', 'restart_count'];
const BUCKET_MS = 15_000;
const core = new AnalysisCoreImpl({ newHexId: () => '000000000000' });
const keys = Array.from({ length: n }, (_, i) => `ns${i % 50}/Deployment/w${i}`);
const origin = Date.now() - (steps + 2) * BUCKET_MS;
for (let b = 0; b < steps; b++) {
  const t = origin - (origin % BUCKET_MS) + b * BUCKET_MS;
  for (let w = 0; w < n; w++) {
    for (let m = 0; m < METRICS.length; m++) {
      const value = m === 4 ? 100 + 10 * Math.sin(b + w) : 0.3 + 0.05 * Math.sin(b * 0.7 + m + w);
      core.observeMetric({ workload: keys[w]!, pod: undefined, name: METRICS[m]!, value, timeMs: t + 1_000 });
    }
  }
  core.step(t + BUCKET_MS + 1);
}

const dir = mkdtempSync(join(tmpdir(), 'bench-checkpoint-'));
const db = new ClassicLevel<string, string>(dir);
await db.open();
try {
  const store = new AnalysisStore(db);
  gc();
  gc();
  const base = process.memoryUsage();
  let peakHeap = base.heapUsed;
  let peakRss = base.rss;
  const sample = (): void => {
    const m = process.memoryUsage();
    peakHeap = Math.max(peakHeap, m.heapUsed);
    peakRss = Math.max(peakRss, m.rss);
  };
  let bytes = 0;
  const started = performance.now();
  const written = mode === 'turn' ? keys.slice(0, Math.ceil(n / 20)) : keys;
  if (mode === 'all') {
    // the former loop: every state exported first (held by the tick's write), then one batch
    const states = written.map((key) => {
      const state = core.exportWorkload(key);
      sample();
      return { key, state };
    });
    const json = db.sublevel<string, unknown>('state', { valueEncoding: 'json' });
    const batch = db.batch();
    for (const { key, state } of states) {
      batch.put(key, state, { sublevel: json });
      bytes += JSON.stringify(state).length;
      sample();
    }
    await batch.write();
  } else {
    await store.writeStates(written, (key) => {
      const state = core.exportWorkload(key);
      bytes += JSON.stringify(state).length;
      sample();
      return state;
    });
  }
  const ms = performance.now() - started;
  sample();
  const mb = (b: number): string => (b / 1_048_576).toFixed(0);
  console.log(
    `checkpoint-cost --mode ${mode}: ${written.length} of ${n} workloads (${steps} steps): ${(bytes / written.length / 1024).toFixed(1)} KB JSON and ${(ms / written.length).toFixed(2)} ms per workload ` +
      `(the byte count's own stringify included), ${(ms / 1000).toFixed(1)} s in all; growth while writing: V8 heap used +${mb(peakHeap - base.heapUsed)} MB, RSS +${mb(peakRss - base.rss)} MB (baseline heap ${mb(base.heapUsed)} MB, RSS ${mb(base.rss)} MB)`,
  );
} finally {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}
