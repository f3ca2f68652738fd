/**
 * Real series replayed as workloads: NAB's EC2 and RDS CPU (realAWSCloudwatch), the autoscaling
 * misconfiguration and the EC2 request-latency failure (realKnownCause), one row per 15-s bucket,
 * with NAB's labelled windows as the truth. The other inputs (memory, logs, spans) are a quiet
 * healthy base from the PRNG so the workload has the sources FusedR needs.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Prng } from './prng.js';
import { HealthyBase, type WorkloadSpec } from './workload-model.js';

export interface NabFile {
  /** category/file.csv as in combined_windows.json */
  id: string;
  values: number[];
  windows: [number, number][];
}

/** the files replayed: every EC2/RDS CPU series of realAWSCloudwatch and the two known-cause failures */
export function nabFileIds(dataDir: string): string[] {
  const aws = readdirSync(join(dataDir, 'realAWSCloudwatch'))
    .filter((f) => /^(ec2|rds)_cpu_utilization_.*\.csv$/.test(f))
    .sort()
    .map((f) => `realAWSCloudwatch/${f}`);
  return [...aws, 'realKnownCause/cpu_utilization_asg_misconfiguration.csv', 'realKnownCause/ec2_request_latency_system_failure.csv'];
}

const stamp = (s: string): string => s.trim().slice(0, 19);

export function readNabFile(dataDir: string, windowsJson: Record<string, [string, string][]>, id: string): NabFile {
  const rows = readFileSync(join(dataDir, id), 'utf8').split('\n').slice(1).filter((l) => l.trim() !== '');
  const stamps: string[] = [];
  const values: number[] = [];
  for (const row of rows) {
    const [t, v] = row.split(',');
    stamps.push(stamp(t ?? ''));
    values.push(Number(v));
  }
  const windows = (windowsJson[id] ?? []).map(([a, b]): [number, number] => {
    const first = stamps.findIndex((s) => s >= stamp(a));
    let last = stamps.length - 1;
    while (last > 0 && stamps[last]! > stamp(b)) last -= 1;
    return [first < 0 ? stamps.length : first, last];
  });
  return { id, values, windows };
}

export function nabWorkload(file: NabFile, name: string, rng: Prng, startBucket: number): WorkloadSpec {
  const base = new HealthyBase(rng);
  const latency = file.id.includes('latency');
  return {
    name,
    behaviour: `nab:${file.id.split('/')[1]?.replace('.csv', '') ?? file.id}`,
    kind: 'nab',
    startBucket,
    endBucket: startBucket + file.values.length,
    failure: null,
    windows: file.windows.map(([a, b]) => [startBucket + a, startBucket + b]),
    contextBuckets: [],
    sample: (b) => {
      const l = base.levels(b);
      const s = base.draw(b, { ...l, cpu: base.cpuBase, latencyMs: base.latBase });
      const v = file.values[b - startBucket] ?? 0;
      const metrics = { ...s.metrics };
      if (latency) metrics['latency_ms'] = v;
      else metrics['process.cpu.utilization'] = Math.min(1, Math.max(0, v / 100));
      return { ...s, metrics };
    },
  };
}
