/**
 * One remote-write request (snappy-compressed protobuf WriteRequest) of W workloads x 6 metrics,
 * one sample each at time `t`: the same series and values as the shared side-by-side tool
 * (/work/shared/tools/perf/memory.mjs), so both processes hold the same series.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const snappy = require('snappy') as { compressSync(b: Buffer): Buffer };

export const METRIC_NAMES = [
  'process_cpu_utilization',
  'process_memory_utilization',
  'http_server_request_duration',
  'http_server_error_rate',
  'runtime_gc_pause_duration',
  'process_open_file_descriptors',
] as const;

function varint(n: number, out: number[]): void {
  while (n > 127) {
    out.push((n & 127) | 128);
    n = Math.floor(n / 128);
  }
  out.push(n);
}
const key = (field: number, wire: number, out: number[]): void => varint((field << 3) | wire, out);
function bytes(field: number, b: ArrayLike<number>, out: number[]): void {
  key(field, 2, out);
  varint(b.length, out);
  for (let i = 0; i < b.length; i++) out.push(b[i] as number);
}
const str = (field: number, s: string, out: number[]): void => bytes(field, Buffer.from(s), out);

/** the request of step `step` at sample time `t` (ms) for workloads [first, workloads) */
export function remoteWriteBody(workloads: number, step: number, t: number, first = 0): Buffer {
  const out: number[] = [];
  const value = Buffer.alloc(8);
  for (let w = first; w < workloads; w++) {
    for (const name of METRIC_NAMES) {
      const ts: number[] = [];
      for (const [n, v] of [['__name__', name], ['namespace', 'mem'], ['deployment', `wl-${w}`], ['pod', `wl-${w}-0`]] as const) {
        const label: number[] = [];
        str(1, n, label);
        str(2, v, label);
        bytes(1, label, ts);
      }
      const sample: number[] = [];
      key(1, 1, sample);
      value.writeDoubleLE(0.3 + 0.2 * Math.sin((step + w) / 20) + 0.05 * Math.random());
      for (const x of value) sample.push(x);
      key(2, 0, sample);
      varint(t, sample);
      bytes(2, sample, ts);
      bytes(1, ts, out);
    }
  }
  return snappy.compressSync(Buffer.from(out));
}
