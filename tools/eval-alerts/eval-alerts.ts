/**
 * npm run eval:alerts -- [--seeds 1,2,3] [--days 7] [--per-behaviour 1] [--nab <dir> | --no-nab] [--no-objectives] [--out <file.json>]
 *
 * Alert quality through the real service (docs/alert-quality.md): prints one row per behaviour
 * and a JSON summary; --out writes every workload's result (checkpoints included) as JSON.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runSeed } from './run-eval.js';
import { scoreRun, summarise, type Summary, type WorkloadResult } from './score.js';
import { diagnosisRows, diagnosisTable, medianEtaError30 } from './diagnosis-report.js';

export interface EvalOptions {
  seeds: number[];
  days: number;
  perBehaviour: number;
  nabDir: string | null;
  /** false (--no-objectives): no failure objectives are declared; the ETA aims at the fixed edges */
  objectives: boolean;
}

export interface EvalOutput {
  options: EvalOptions;
  summary: Summary;
  eventsLost: number;
  anomalyReadsSaturated: number;
  wallSeconds: number;
  workloads: WorkloadResult[];
}

export async function evaluate(options: EvalOptions): Promise<EvalOutput> {
  const workloads: WorkloadResult[] = [];
  let eventsLost = 0;
  let saturated = 0;
  let wall = 0;
  for (const [i, seed] of options.seeds.entries()) {
    // the real series are replayed once (they do not depend on the seed)
    const run = await runSeed({ seed, days: options.days, perBehaviour: options.perBehaviour, nabDir: i === 0 ? options.nabDir : null, objectives: options.objectives });
    workloads.push(...scoreRun(run));
    eventsLost += run.collector.eventsLost;
    saturated += run.collector.anomalyReadsSaturated;
    wall += run.wallSeconds;
  }
  return { options, summary: summarise(workloads), eventsLost, anomalyReadsSaturated: saturated, wallSeconds: Math.round(wall), workloads };
}

/** one row per behaviour: counts per workload-day for the healthy, detection for the failing */
export function behaviourRows(workloads: readonly WorkloadResult[]): string[] {
  const groups = new Map<string, WorkloadResult[]>();
  for (const w of workloads) {
    const key = w.kind === 'nab' ? 'nab' : w.behaviour;
    groups.set(key, [...(groups.get(key) ?? []), w]);
  }
  const rows = ['behaviour               n  esc>=warn/d  esc>=crit/d  critAnom/d  actions  detected  lead(min)  changes'];
  for (const [key, ws] of groups) {
    const days = ws.reduce((a, w) => a + w.days, 0);
    const f = ws.filter((w) => w.failure !== undefined);
    const leads = f.map((w) => w.failure!.leadMinutes).filter((x): x is number => x !== null);
    rows.push(
      [
        key.padEnd(22),
        String(ws.length).padStart(2),
        (ws.reduce((a, w) => a + w.escalationsWarning, 0) / days).toFixed(2).padStart(12),
        (ws.reduce((a, w) => a + w.escalationsCritical, 0) / days).toFixed(2).padStart(12),
        (ws.reduce((a, w) => a + w.criticalAnomalies, 0) / days).toFixed(2).padStart(11),
        String(ws.reduce((a, w) => a + w.actions, 0)).padStart(8),
        (f.length === 0 ? '-' : `${f.filter((w) => w.failure!.detected).length}/${f.length}`).padStart(9),
        (leads.length === 0 ? '-' : leads.map((x) => x.toFixed(0)).join(',')).padStart(10),
        (f.length === 0 ? '-' : f.map((w) => w.failure!.bandChangesInEpisode).join(',')).padStart(8),
      ].join(' '),
    );
  }
  return rows;
}

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const v = Number(raw);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} must be a positive number, got ${JSON.stringify(raw)}`);
  return v;
}

async function main(): Promise<void> {
  const seeds = (flag('seeds') ?? '1,2,3').split(',').map((s) => {
    const v = Number(s);
    if (!Number.isInteger(v) || v < 0) throw new Error(`--seeds must be a comma-separated list of non-negative integers, got ${JSON.stringify(s)}`);
    return v;
  });
  const options: EvalOptions = {
    seeds,
    days: positive('days', flag('days'), 7),
    perBehaviour: Math.round(positive('per-behaviour', flag('per-behaviour'), 1)),
    nabDir: process.argv.includes('--no-nab') ? null : (flag('nab') ?? join(process.cwd(), '..', 'shared', 'datasets', 'nab')),
    objectives: !process.argv.includes('--no-objectives'),
  };
  if (options.nabDir !== null && !existsSync(options.nabDir)) throw new Error(`--nab: no NAB data at ${options.nabDir} (pass --nab <dir> or --no-nab)`);
  const out = await evaluate(options);
  for (const row of behaviourRows(out.workloads)) console.log(row);
  console.log('');
  for (const row of diagnosisTable(diagnosisRows(out.workloads))) console.log(row);
  const eta30 = medianEtaError30(out.workloads);
  console.log(`median |ETA error| 30 min before failure: ${eta30.median === null ? '-' : eta30.median.toFixed(1)} min (${eta30.n} of ${eta30.of} with an estimate)`);
  console.log(JSON.stringify({ options: out.options, summary: out.summary, events_lost: out.eventsLost, anomaly_reads_saturated: out.anomalyReadsSaturated, wall_seconds: out.wallSeconds }, null, 2));
  const file = flag('out');
  if (file !== undefined) writeFileSync(file, `${JSON.stringify(out, null, 1)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
