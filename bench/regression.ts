/**
 * Per-point cost of the hot paths called for every point of every series: SlidingRegression.push,
 * SeriesEnsemble.observe and SeriesDetectors.observe. Self-contained; numbers only, never asserts.
 */
import { SlidingRegression } from '../api-server/src/analysis/regression/index.js';
import { SeriesEnsemble } from '../api-server/src/analysis/ensemble/index.js';
import { SeriesDetectors } from '../api-server/src/analysis/anomaly/index.js';

export interface BenchRow {
  name: string;
  value: string;
}

/** Deterministic pseudo-random series (no Math.random so runs are comparable). */
function series(n: number): Float64Array {
  const out = new Float64Array(n);
  let s = 12345;
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    out[i] = 100 + 10 * Math.sin(i / 40) + (s / 2147483648 - 0.5) * 4;
  }
  return out;
}

function nsPerPoint(points: number, run: () => void): string {
  const start = process.hrtime.bigint();
  run();
  const ns = Number(process.hrtime.bigint() - start) / points;
  return `${ns.toFixed(0)} ns/point`;
}

export async function runRegressionBench(): Promise<BenchRow[]> {
  await Promise.resolve();
  const rows: BenchRow[] = [];
  const big = series(1_000_000);
  const reg = new SlidingRegression(240);
  rows.push({
    name: 'SlidingRegression.push, window 240, 1M points',
    value: nsPerPoint(big.length, () => {
      for (let i = 0; i < big.length; i++) reg.push(i * 15, big[i] ?? 0);
    }),
  });
  const mid = series(100_000);
  const ens = new SeriesEnsemble();
  rows.push({
    name: 'SeriesEnsemble.observe (five models + weights), 100k points',
    value: nsPerPoint(mid.length, () => {
      for (let i = 0; i < mid.length; i++) ens.observe(mid[i] ?? 0, i * 15);
    }),
  });
  const det = new SeriesDetectors();
  rows.push({
    name: 'SeriesDetectors.observe (zscore, mad, seasonal, ca_ilr + score), 100k points',
    value: nsPerPoint(mid.length, () => {
      for (let i = 0; i < mid.length; i++) det.observe(mid[i] ?? 0, i * 15);
    }),
  });
  return rows;
}
