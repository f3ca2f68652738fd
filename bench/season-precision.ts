/**
 * The seasonal method of two trees side by side on every NAB row: how many of its scores move, by
 * how much, and how many rows change whether it fires (ADR 0019 measured the season in bfloat16s
 * against floats with it).
 *
 *   node --import tsx bench/season-precision.ts A B [NAB data directory]
 *
 * A and B are checkouts (each with its node_modules or a link to one); the standalone detectors
 * (SeriesDetectors) of each see every point of every NAB file, as `npm run eval:nab` feeds them.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Detectors {
  observe(y: number, x: number, at: number): { firings: readonly { method: string }[]; methodScores: { seasonal: number } };
}
type DetectorsClass = new () => Detectors;

const [treeA, treeB, dataDir = '/work/shared/datasets/nab/data'] = process.argv.slice(2);
if (treeA === undefined || treeB === undefined) {
  console.error('usage: node --import tsx bench/season-precision.ts A B [NAB data directory]');
  process.exit(2);
}
const load = async (tree: string): Promise<DetectorsClass> =>
  ((await import(pathToFileURL(resolve(tree, 'api-server/src/analysis/anomaly/series-detectors.ts')).href)) as { SeriesDetectors: DetectorsClass }).SeriesDetectors;
const A = await load(treeA);
const B = await load(treeB);
let rows = 0;
let moved = 0;
let largest = 0;
const fires = [0, 0];
let differ = 0;
for (const category of readdirSync(dataDir)) {
  for (const file of readdirSync(`${dataDir}/${category}`)) {
    const lines = readFileSync(`${dataDir}/${category}/${file}`, 'utf8').trim().split('\n').slice(1);
    const a = new A();
    const b = new B();
    let first: number | undefined;
    for (const line of lines) {
      const [stamp, value] = line.split(',');
      const t = Date.parse(`${(stamp ?? '').replace(' ', 'T')}Z`) / 1000;
      first ??= t;
      // as eval-nab.ts: the series' axis in seconds from the first point, the profiles' clock in epoch seconds
      const outs = [a.observe(Number(value), t - first, t), b.observe(Number(value), t - first, t)] as const;
      rows += 1;
      const d = Math.abs(outs[0].methodScores.seasonal - outs[1].methodScores.seasonal);
      largest = Math.max(largest, d);
      if (d > 1e-5) moved += 1;
      const fired = outs.map((o) => o.firings.some((f) => f.method === 'seasonal'));
      fired.forEach((x, k) => {
        if (x) fires[k] = (fires[k] ?? 0) + 1;
      });
      if (fired[0] !== fired[1]) differ += 1;
    }
  }
}
console.log(`${rows} rows: seasonal scores moving by more than 1e-5 ${moved}, at most ${largest.toFixed(4)}; firings ${fires[0]} (A) and ${fires[1]} (B), ${differ} rows fire in one only`);
