/**
 * The seeded telemetry the analysis comparisons feed two checkouts (bench/analysis-equal.ts,
 * bench/analysis-derived-diff.ts): noise, spikes, level shifts and ramps, gaps, two pods on some
 * workloads; and a checkout's analysis core loaded from its own module graph.
 */
import { createHash, type Hash } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as CoreModule from '../api-server/src/analysis/analysis-core.js';
import type { AnalysisCoreImpl } from '../api-server/src/analysis/analysis-core.js';

export const METRICS = ['cpu_percent', 'memory_percent', 'http_latency_p99_ms', 'http_error_rate', 'http_requests_per_second', 'disk_percent'];
export const BUCKET_MS = 15_000;
export const ORIGIN = Date.UTC(2026, 0, 1);

export async function coreOf(dir: string): Promise<AnalysisCoreImpl> {
  const mod = (await import(pathToFileURL(resolve(dir, 'api-server/src/analysis/analysis-core.ts')).href)) as typeof CoreModule;
  let id = 0;
  return new mod.AnalysisCoreImpl({ newHexId: () => (id++).toString(16).padStart(12, '0') });
}

/** mulberry32: a small seeded generator, so both cores see the same numbers */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Sample {
  workload: string;
  pod: string | undefined;
  name: string;
  value: number;
  timeMs: number;
}

/** one bucket's samples of every workload */
export function bucketSamples(random: () => number, workloads: number, bucket: number): Sample[] {
  const out: Sample[] = [];
  for (let w = 0; w < workloads; w++) {
    const key = `eq/Deployment/w${w}`;
    const pods = w % 5 === 0 ? 2 : 1;
    for (let p = 0; p < pods; p++) {
      for (let m = 0; m < METRICS.length; m++) {
        if (random() < 0.03) continue; // a gap
        const base = m === 2 ? 120 : m === 4 ? 200 : 0.3 + 0.05 * m;
        let v = base * (1 + 0.1 * Math.sin(bucket / 40 + w) + 0.05 * (random() - 0.5));
        if ((w + bucket) % 97 === 0) v *= 3; // a spike
        if (w % 7 === 1 && bucket > 300) v *= 1.6; // a level shift
        if (w % 11 === 2 && bucket > 200) v *= 1 + (bucket - 200) / 150; // a ramp
        if (w % 13 === 3 && bucket > 150 && bucket < 250) v = base; // flat
        out.push({ workload: key, pod: `w${w}-${p}`, name: METRICS[m]!, value: v, timeMs: ORIGIN + bucket * BUCKET_MS + 1_000 + 10 * p });
      }
    }
  }
  return out;
}

/**
 * Feeds `core` the buckets [from, to) of `random`'s telemetry, stepping after each, and hashes
 * (SHA-256) every step's output, then a forecast of cpu_percent and the exported state of every
 * workload.
 */
export function hashSteps(core: AnalysisCoreImpl, random: () => number, workloads: number, from: number, to: number): string {
  const h: Hash = createHash('sha256');
  for (let b = from; b < to; b++) {
    for (const s of bucketSamples(random, workloads, b)) core.observeMetric(s);
    // without the count of workload-buckets (StepOutput.buckets), which trees before it did not give, so hashes compare across them
    h.update(JSON.stringify({ ...core.step(ORIGIN + (b + 1) * BUCKET_MS + 1), buckets: undefined }));
  }
  for (const key of core.workloadKeys()) {
    h.update(JSON.stringify(core.forecast(key, 'cpu_percent', 60)));
    h.update(JSON.stringify(core.exportWorkload(key)));
  }
  return h.digest('hex');
}
