/**
 * The diagnosis part of the evaluation (docs/diagnosis.md): per failing workload, at each
 * checkpoint before the failure point, the explain narrative's top factor and recommended action
 * type against the ones its failure kind expects, and the ETA error (the service's one time to
 * failure against the known failure point). Pure over the scored workloads.
 */
import type { Checkpoint } from './collect.js';
import type { WorkloadResult } from './score.js';

/** what each failure kind should be diagnosed as and recommended */
export const EXPECTED: Record<string, { factor: string; action: string }> = {
  memory_leak: { factor: 'memory', action: 'restart' },
  error_creep: { factor: 'error_rate', action: 'alert:investigate' },
  latency_burn: { factor: 'latency', action: 'alert:investigate' },
  cpu_saturation: { factor: 'cpu', action: 'scale' },
  crash: { factor: 'restarts', action: 'alert:crash_loop' },
  dependency_failure: { factor: 'dependency:', action: 'alert:dependency' },
};

interface NarrativeView {
  top_factor?: string;
  ttf_seconds?: number;
  diagnosis?: { eta_basis?: string; kind?: string } | null;
  recommendation?: { type: string; params: Record<string, unknown> } | null;
}

interface SnapshotView {
  health_forecast?: { critical_eta_minutes?: number };
}

export interface CheckpointReading {
  minutesBefore: number;
  topFactor: string | null;
  action: string | null;
  /** predicted minutes to failure, null without an estimate */
  etaMinutes: number | null;
  /** why there is no estimate (null with one): `no rupture, no input trend` or `<diagnosis kind>: no trend` */
  missing: string | null;
}

/** `type` or `type:reason` for alerts (the reason says which alert) */
export function actionLabel(r: NarrativeView['recommendation']): string | null {
  if (r === undefined || r === null) return null;
  const reason = r.params['reason'];
  return r.type === 'alert' && typeof reason === 'string' ? `alert:${reason}` : r.type;
}

export function readCheckpoint(c: Checkpoint): CheckpointReading {
  const n = (c.narrative ?? null) as NarrativeView | null;
  const s = (c.rupture ?? null) as SnapshotView | null;
  let eta: number | null = null;
  if (n !== null && n.diagnosis !== undefined && n.diagnosis !== null && n.diagnosis.eta_basis !== 'none' && typeof n.ttf_seconds === 'number') eta = n.ttf_seconds / 60;
  else if (s?.health_forecast?.critical_eta_minutes !== undefined && s.health_forecast.critical_eta_minutes > 0) eta = s.health_forecast.critical_eta_minutes;
  let missing: string | null = null;
  if (eta === null) missing = n === null ? 'no rupture, no input trend' : `${n.diagnosis?.kind ?? 'no diagnosis'}: no trend`;
  return { minutesBefore: c.minutesBefore, topFactor: n?.top_factor ?? null, action: actionLabel(n?.recommendation), etaMinutes: eta, missing };
}

function matches(expected: string, got: string | null): boolean {
  return got !== null && (expected.endsWith(':') ? got.startsWith(expected) : got === expected);
}

export interface KindRow {
  kind: string;
  workloads: number;
  /** at the latest checkpoint up to the failure point with a narrative */
  factorRight: number;
  actionRight: number;
  factors: string[];
  actions: string[];
  /** median absolute ETA error (minutes) and how many had an estimate, at 60/30/15 min */
  eta: Record<60 | 30 | 15, { median: number | null; n: number; of: number }>;
  /** where the error comes from: per workload `s<seed> e60/e30/e15`, the signed error (predicted − actual minutes, + late) or `·` without an estimate */
  etaCells: string[];
  /** why readings at 60/30/15 min had no estimate, with counts */
  missing: Record<string, number>;
}

const median = (xs: number[]): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** the reading the diagnosis is judged on: the latest up to the failure point that has a narrative (a crash has none before it) */
function judged(readings: CheckpointReading[]): CheckpointReading | undefined {
  return readings.filter((r) => r.minutesBefore >= 0 && r.topFactor !== null).sort((a, b) => a.minutesBefore - b.minutesBefore)[0];
}

export function diagnosisRows(workloads: readonly WorkloadResult[]): KindRow[] {
  const groups = new Map<string, WorkloadResult[]>();
  for (const w of workloads) if (w.failure !== undefined) groups.set(w.behaviour, [...(groups.get(w.behaviour) ?? []), w]);
  const rows: KindRow[] = [];
  for (const [kind, ws] of groups) {
    const expected = EXPECTED[kind];
    const row: KindRow = { kind, workloads: ws.length, factorRight: 0, actionRight: 0, factors: [], actions: [], eta: { 60: { median: null, n: 0, of: 0 }, 30: { median: null, n: 0, of: 0 }, 15: { median: null, n: 0, of: 0 } }, etaCells: [], missing: {} };
    const errors: Record<60 | 30 | 15, number[]> = { 60: [], 30: [], 15: [] };
    for (const w of ws) {
      const readings = w.failure!.checkpoints.map(readCheckpoint);
      const j = judged(readings);
      row.factors.push(j?.topFactor ?? '-');
      row.actions.push(j?.action ?? '-');
      if (expected !== undefined && j !== undefined && matches(expected.factor, j.topFactor)) row.factorRight += 1;
      if (expected !== undefined && j !== undefined && matches(expected.action, j.action)) row.actionRight += 1;
      const cell: string[] = [];
      for (const m of [60, 30, 15] as const) {
        const r = readings.find((x) => x.minutesBefore === m);
        if (r === undefined) {
          cell.push('?');
          continue;
        }
        row.eta[m].of += 1;
        if (r.etaMinutes !== null) {
          errors[m].push(Math.abs(r.etaMinutes - m));
          cell.push(signed(r.etaMinutes - m));
        } else {
          cell.push('·');
          const why = r.missing ?? '';
          row.missing[why] = (row.missing[why] ?? 0) + 1;
        }
      }
      row.etaCells.push(`s${w.seed} ${cell.join('/')}`);
    }
    for (const m of [60, 30, 15] as const) {
      row.eta[m].n = errors[m].length;
      row.eta[m].median = median(errors[m]);
    }
    rows.push(row);
  }
  return rows;
}

/** the printed table, and the median absolute ETA error at 30 min over every kind */
export function diagnosisTable(rows: readonly KindRow[]): string[] {
  const f = (x: number | null): string => (x === null ? '-' : x.toFixed(1));
  const out = ['failure kind        expected factor / action        factor ok  action ok  seen (factor / action)                 ETA |err| min @60 / @30 / @15 (with estimate)'];
  for (const r of rows) {
    const e = EXPECTED[r.kind];
    out.push(
      [
        r.kind.padEnd(19),
        `${e?.factor ?? '?'} / ${e?.action ?? '?'}`.padEnd(31),
        `${r.factorRight}/${r.workloads}`.padStart(9),
        `${r.actionRight}/${r.workloads}`.padStart(10),
        ` ${[...new Set(r.factors)].join(',')} / ${[...new Set(r.actions)].join(',')}`.padEnd(40),
        ([60, 30, 15] as const).map((m) => `${f(r.eta[m].median)} (${r.eta[m].n}/${r.eta[m].of})`).join(' / '),
      ].join(' '),
    );
  }
  out.push('', 'ETA per workload, predicted − actual minutes at @60/@30/@15 (+ late, − early, · none):');
  for (const r of rows) {
    const why = Object.entries(r.missing).map(([m, n]) => `${n}× ${m}`).join(', ');
    out.push(`  ${r.kind.padEnd(19)} ${r.etaCells.join('   ')}${why === '' ? '' : `   none: ${why}`}`);
  }
  return out;
}

const signed = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(1)}`;

/** median absolute ETA error at 30 min over all failing workloads with an estimate there */
export function medianEtaError30(workloads: readonly WorkloadResult[]): { median: number | null; n: number; of: number } {
  const errs: number[] = [];
  let of = 0;
  for (const w of workloads) {
    if (w.failure === undefined) continue;
    const r = w.failure.checkpoints.map(readCheckpoint).find((x) => x.minutesBefore === 30);
    if (r === undefined) continue;
    of += 1;
    if (r.etaMinutes !== null) errs.push(Math.abs(r.etaMinutes - 30));
  }
  return { median: median(errs), n: errs.length, of };
}
