/**
 * What one random cache-line read costs on this machine (docs/performance.md, "the floor"): the
 * steady-state analysis tick reads a few hundred lines of each workload's state, spread over
 * megabytes, so its time at 10k workloads is bounded below by what the machine's memory gives.
 *
 * Two figures per working-set size, over a Float64Array of that size:
 * - dependent chain: each read's address comes from the value read before (the latency of one
 *   miss, TLB walk included; what a binary search or a pointer chase pays per step);
 * - independent reads: addresses known in advance, so the core overlaps as many misses as it can
 *   (the best throughput a prefetch pass over many lines can reach);
 * - independent read-modify-writes: the same addresses, each value read, changed and stored back
 *   (what the tick does to most lines it reads: rings, sums and counters; a changed line must also
 *   be written back to memory when it is evicted).
 *
 *   node --max-old-space-size=4096 --import tsx bench/memory-access.ts [MB ...]   (default 2048 64)
 *
 * Not part of `npm run bench` (it allocates 2 GB). Set GLIBC_TUNABLES=glibc.malloc.hugetlb=1 to
 * see the same with transparent huge pages under the array.
 */
import { pathToFileURL } from 'node:url';

const LINE_DOUBLES = 8;
const READS = 1 << 22;
const CHAIN_STEPS = 1 << 21;

export interface MemoryAccessFigures {
  megabytes: number;
  /** ns per read when each address depends on the previous read */
  chainNs: number;
  /** ns per read when the addresses are independent */
  independentNs: number;
  /** ns per read-modify-write of a line when the addresses are independent */
  independentRmwNs: number;
}

/** line starts in [0, lines) drawn with a fixed-seed generator (xorshift32): the same every run */
function randomLineStarts(lines: number, count: number): Int32Array {
  const out = new Int32Array(count);
  let s = 0x9e3779b9;
  for (let i = 0; i < count; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = ((s >>> 0) % lines) * LINE_DOUBLES;
  }
  return out;
}

function independentSum(a: Float64Array, at: Int32Array): number {
  let sum = 0;
  for (let i = 0; i < at.length; i++) sum += a[at[i]!]!;
  return sum;
}

function independentIncrement(a: Float64Array, at: Int32Array): void {
  for (let i = 0; i < at.length; i++) a[at[i]!]! += 1;
}

/** each step's address is picked with the value just read, so no read can start before the last ends */
function chainSum(a: Float64Array, at: Int32Array, steps: number): number {
  const mask = at.length - 1;
  let p = 0;
  let sum = 0;
  for (let i = 0; i < steps; i++) {
    const v = a[p]!;
    sum += v;
    p = at[(i + (v | 0)) & mask]!;
  }
  return sum;
}

export function measureMemoryAccess(megabytes: number): MemoryAccessFigures {
  const doubles = Math.floor((megabytes * 1024 * 1024) / 8);
  const a = new Float64Array(doubles);
  // every page written once, so the timed reads do not count first-touch page faults
  for (let i = 0; i < doubles; i += 512) a[i] = 1;
  const at = randomLineStarts(Math.floor(doubles / LINE_DOUBLES), READS);
  let sink = independentSum(a, at) + chainSum(a, at, 1 << 16);
  let t = performance.now();
  sink += independentSum(a, at);
  const independentNs = ((performance.now() - t) * 1e6) / READS;
  t = performance.now();
  sink += chainSum(a, at, CHAIN_STEPS);
  const chainNs = ((performance.now() - t) * 1e6) / CHAIN_STEPS;
  independentIncrement(a, at.subarray(0, 1 << 16));
  t = performance.now();
  independentIncrement(a, at);
  const independentRmwNs = ((performance.now() - t) * 1e6) / READS;
  if (Number.isNaN(sink)) throw new Error('unreachable: the sums are finite');
  return { megabytes, chainNs, independentNs, independentRmwNs };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const sizes = process.argv.slice(2).map(Number).filter((x) => x > 0);
  for (const mb of sizes.length > 0 ? sizes : [2048, 64]) {
    const f = measureMemoryAccess(mb);
    console.log(`${String(mb).padStart(5)} MB: dependent chain ${f.chainNs.toFixed(1)} ns per read; independent reads ${f.independentNs.toFixed(1)} ns per line; independent read-modify-writes ${f.independentRmwNs.toFixed(1)} ns per line`);
  }
}
