/**
 * npm run eval:nab -- --data <dir> --windows <json> --out <dir> [--profiles <json>]
 * Streams every CSV of every category folder through SeriesDetectors (the service's class and
 * parameters; the score is the novelty score, also the service's `novelty` method) on 15-second buckets as the service does, writes <out>/<category>/faultline_<file>.csv and prints the three profile scores
 * (one threshold per profile over the whole corpus). Files absent from the windows file have no windows.
 */
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SeriesDetectors } from '../../api-server/src/analysis/anomaly/index.js';
import { bucketRows } from './bucket-rows.js';
import { scoreCorpus, type CostMatrix, type ScoredFile } from './scorer.js';

function arg(name: string, fallback?: string): string {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? process.argv[i + 1] : fallback;
  if (v === undefined) throw new Error(`--${name}: required`);
  return v;
}

const dataDir = arg('data');
const windowsPath = arg('windows');
const outDir = arg('out');
const profilesPath = arg('profiles', join(windowsPath, '..', 'profiles.json'));
const windowsJson = JSON.parse(readFileSync(windowsPath, 'utf8')) as Record<string, [string, string][]>;
const profiles = JSON.parse(readFileSync(profilesPath, 'utf8')) as Record<string, { CostMatrix: CostMatrix }>;

const ts = (s: string): string => s.trim().slice(0, 19);
const files: ScoredFile[] = [];
const methodFiles: Record<string, ScoredFile[]> = { zscore: [], mad: [], seasonal: [], ca_ilr: [], novelty: [] };
// the novelty score's experts alone (before its repeat suppression), to show what combining them adds
const expertFiles: Record<string, ScoredFile[]> = { range: [], dispersion: [], day: [], week: [], context: [], run: [] };

for (const category of readdirSync(dataDir).sort()) {
  const catDir = join(dataDir, category);
  if (!statSync(catDir).isDirectory()) continue;
  for (const name of readdirSync(catDir).filter((f) => f.endsWith('.csv')).sort()) {
    const lines = readFileSync(join(catDir, name), 'utf8').split('\n').slice(1).filter((l) => l.trim() !== '');
    const stamps: string[] = [];
    const values: number[] = [];
    for (const line of lines) {
      const [t, v] = line.split(',');
      stamps.push(ts(t ?? ''));
      values.push(Number(v));
    }
    const times = stamps.map((s, i) => {
      const t = Date.parse(`${s.replace(' ', 'T')}Z`);
      if (!Number.isFinite(t)) throw new Error(`${category}/${name} row ${i + 2}: unreadable timestamp ${JSON.stringify(s)}`);
      return t;
    });
    // the service's path: 15-second buckets (rows of one bucket are one point), then the detectors
    const points = bucketRows(times, values);
    const det = new SeriesDetectors();
    const scores = new Float64Array(values.length);
    const perMethod: Record<string, Float64Array> = {};
    for (const m of Object.keys(methodFiles)) perMethod[m] = new Float64Array(values.length);
    const perExpert: Record<string, Float64Array> = {};
    for (const m of Object.keys(expertFiles)) perExpert[m] = new Float64Array(values.length);
    const t0 = points[0]?.endMs ?? 0;
    for (const p of points) {
      const out = det.observe(p.value, (p.endMs - t0) / 1000, p.endMs / 1000);
      scores.fill(out.score, p.firstRow, p.endRow);
      for (const m of Object.keys(methodFiles)) (perMethod[m] as Float64Array).fill(out.methodScores[m as keyof typeof out.methodScores], p.firstRow, p.endRow);
      const experts = det.noveltyExperts();
      for (const m of Object.keys(expertFiles)) (perExpert[m] as Float64Array).fill(experts[m as keyof typeof experts], p.firstRow, p.endRow);
    }
    const windows = (windowsJson[`${category}/${name}`] ?? []).map(([a, b]): [number, number] => {
      const s = stamps.findIndex((x) => x >= ts(a));
      let e = stamps.length - 1;
      while (e > 0 && (stamps[e] as string) > ts(b)) e -= 1;
      return [s < 0 ? stamps.length : s, e];
    });
    files.push({ scores, windows });
    for (const m of Object.keys(methodFiles)) (methodFiles[m] as ScoredFile[]).push({ scores: perMethod[m] as Float64Array, windows });
    for (const m of Object.keys(expertFiles)) (expertFiles[m] as ScoredFile[]).push({ scores: perExpert[m] as Float64Array, windows });
    mkdirSync(join(outDir, category), { recursive: true });
    const labels = new Uint8Array(values.length);
    for (const [a, b] of windows) for (let i = a; i <= b; i += 1) labels[i] = 1;
    const rows = values.map((v, i) => `${stamps[i] ?? ''},${v},${(scores[i] ?? 0).toFixed(6)},${labels[i] ?? 0}`);
    writeFileSync(join(outDir, category, `faultline_${name}`), `timestamp,value,anomaly_score,label\n${rows.join('\n')}\n`);
  }
}

console.log(`${files.length} files, ${files.reduce((a, f) => a + f.windows.length, 0)} windows`);
for (const [profile, { CostMatrix: cost }] of Object.entries(profiles)) {
  const best = scoreCorpus(files, cost);
  const single = Object.entries(methodFiles).map(([m, fs]) => `${m} ${scoreCorpus(fs, cost).normalised.toFixed(1)}`);
  const experts = Object.entries(expertFiles).map(([m, fs]) => `${m} ${scoreCorpus(fs, cost).normalised.toFixed(1)}`);
  console.log(`${profile.padEnd(20)} detectors ${best.normalised.toFixed(1)} (threshold ${best.threshold.toFixed(4)}); single methods: ${single.join(', ')}; novelty experts alone: ${experts.join(', ')}`);
}
