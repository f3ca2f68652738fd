/**
 * One seed's run: builds the workloads, starts the service, sends the telemetry chunk by chunk
 * (an hour at most, cut at every failing workload's checkpoints) and collects what came out.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Collector, type Checkpoint } from './collect.js';
import { FAILING_BEHAVIOURS, failingWorkload } from './failing-behaviours.js';
import { HEALTHY_BEHAVIOURS, healthyWorkload } from './healthy-behaviours.js';
import { nabFileIds, nabWorkload, readNabFile } from './nab-replay.js';
import { NAMESPACE, logsBody, metricsBody, spansBody, type ChunkRows } from './otlp-bodies.js';
import { Prng, streamSeed } from './prng.js';
import { declaredObjectives } from './workload-objectives.js';
import { GRACE_MS, ServiceDriver } from './service-driver.js';
import { BUCKET_MS, BUCKETS_PER_DAY, BUCKETS_PER_HOUR, type WorkloadSpec } from './workload-model.js';

export interface RunOptions {
  seed: number;
  days: number;
  perBehaviour: number;
  /** NAB data dir (…/nab), or null to leave the replay out */
  nabDir: string | null;
  /** declare every workload's failure objectives before its data (workload-objectives.ts); false: the fixed edges */
  objectives: boolean;
}

export interface SeedRun {
  seed: number;
  specs: WorkloadSpec[];
  /** run start, ms since the epoch (bucket 0) */
  startMs: number;
  collector: Collector;
  checkpoints: Map<string, Checkpoint[]>;
  wallSeconds: number;
}

/** buckets per chunk (15 min): few enough band events and anomalies per read for the 300-event ring and the 1000-row limit */
const CHUNK_BUCKETS = BUCKETS_PER_HOUR / 4;

/** minutes before the failure point at which a failing workload is read */
export const CHECKPOINT_MINUTES = [60, 30, 15, 0] as const;

export function buildWorkloads(options: RunOptions): WorkloadSpec[] {
  const total = Math.round(options.days * BUCKETS_PER_DAY);
  const specs: WorkloadSpec[] = [];
  let ordinal = 0;
  const rng = (): Prng => new Prng(streamSeed(options.seed, ordinal++));
  for (let k = 0; k < options.perBehaviour; k++) {
    for (const b of HEALTHY_BEHAVIOURS) specs.push(healthyWorkload(b, `${b.replaceAll('_', '-')}-${k}`, rng(), total));
    for (const b of FAILING_BEHAVIOURS) specs.push(failingWorkload(b, `${b.replaceAll('_', '-')}-${k}`, rng(), total));
  }
  if (options.nabDir !== null) {
    const windows = JSON.parse(readFileSync(join(options.nabDir, 'combined_windows.json'), 'utf8')) as Record<string, [string, string][]>;
    for (const id of nabFileIds(join(options.nabDir, 'data'))) {
      const file = readNabFile(join(options.nabDir, 'data'), windows, id);
      if (file.values.length > total) continue;
      const name = `nab-${(id.split('/')[1] ?? id).replace('.csv', '').replaceAll('_', '-')}`;
      specs.push(nabWorkload(file, name, new Prng(streamSeed(0, 1000 + ordinal++)), 0));
    }
  }
  return specs;
}

export async function runSeed(options: RunOptions): Promise<SeedRun> {
  const t0 = Date.now();
  const specs = buildWorkloads(options);
  const total = Math.max(...specs.map((s) => s.endBucket));
  // a fixed, bucket-aligned start: the same sample times every run
  const startMs = Date.UTC(2026, 0, 5);
  const epochBucket = startMs / BUCKET_MS;
  const cuts = new Set<number>();
  for (let b = 0; b <= total; b += CHUNK_BUCKETS) cuts.add(b);
  cuts.add(total);
  const checkpointAt = new Map<number, { name: string; minutesBefore: number }[]>();
  for (const s of specs) {
    if (s.failure === null) continue;
    for (const m of CHECKPOINT_MINUTES) {
      const at = s.failure.failureBucket - m * 4 + 1;
      cuts.add(at);
      const list = checkpointAt.get(at) ?? [];
      list.push({ name: s.name, minutesBefore: m });
      checkpointAt.set(at, list);
    }
  }
  const bounds = [...cuts].filter((b) => b >= 0 && b <= total).sort((a, b) => a - b);
  const svc = await ServiceDriver.start(startMs);
  if (options.objectives) {
    // a separate stream: the objectives drawn do not change the telemetry
    await svc.post(`${svc.api}/config/objectives`, declaredObjectives(specs, buildWorkloads(options), new Prng(streamSeed(options.seed, 9000))));
  }
  const collector = new Collector(svc);
  const checkpoints = new Map<string, Checkpoint[]>();
  try {
    for (let c = 0; c + 1 < bounds.length; c++) {
      const a = bounds[c]!;
      const b = bounds[c + 1]!;
      const chunk: ChunkRows[] = [];
      const expected = new Map<string, number>();
      for (const s of specs) {
        if (s.endBucket <= a || s.startBucket >= b) continue;
        const rows: ChunkRows['rows'] = [];
        for (let k = Math.max(a, s.startBucket); k < Math.min(b, s.endBucket); k++) {
          const sample = s.sample(k);
          if (sample.metrics !== null) rows.push([epochBucket + k, sample]);
        }
        for (const at of s.contextBuckets) {
          if (at >= a && at < b) {
            await svc.post(`${svc.api}/context`, { workload: `${NAMESPACE}/Deployment/${s.name}`, event: 'deploy', timestamp: new Date(startMs + at * BUCKET_MS).toISOString() });
          }
        }
        if (rows.length === 0) continue;
        chunk.push({ name: s.name, rows });
        expected.set(s.name, (rows[rows.length - 1]![0] + 1) * BUCKET_MS);
      }
      svc.nowMs = startMs + (b + 2) * BUCKET_MS;
      if (chunk.length > 0) {
        // traces first: they open the buckets of a caller and of the services it calls (a failing
        // dependency's spans) in one request, so one tick finds both closed and their grace ends
        // together; sent last, a tick between the requests could find the caller's buckets closed
        // a grace before its dependency's, and which of the two happened depended on the host's load
        await svc.ingest('/v1/traces', spansBody(chunk));
        await svc.ingest('/v1/metrics', metricsBody(chunk));
        await svc.ingest('/v1/logs', logsBody(chunk));
      }
      svc.nowMs = svc.nowMs + GRACE_MS;
      if (expected.size > 0) await svc.waitProcessed(expected);
      await collector.readEvents();
      await collector.readActions();
      await collector.readAnomalies(startMs + a * BUCKET_MS + 1, specs.map((s) => s.name));
      for (const cp of checkpointAt.get(b) ?? []) {
        const list = checkpoints.get(cp.name) ?? [];
        list.push(await collector.checkpoint(cp.name, cp.minutesBefore));
        checkpoints.set(cp.name, list);
      }
    }
  } finally {
    await svc.stop();
  }
  return { seed: options.seed, specs, startMs, collector, checkpoints, wallSeconds: (Date.now() - t0) / 1000 };
}
