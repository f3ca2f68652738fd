/**
 * Rollups of the KPI history (analytics.md §11): raw points per step, 1-minute means of raw points,
 * 5-minute means of minutes, 1-hour means of 5-minute values; floor-aligned; a rollup is emitted
 * once, when a point of a later bucket arrives.
 *
 * A workload's three accumulators are one array of doubles (ROW numbers per tier: the bucket, the
 * count, the sums of FIELDS) in a map keyed by the workload key itself: no key string per tier,
 * no object per accumulator or per sum (docs/memory.md, "The V8 heap per workload").
 */
import { HISTORY_TIERS, type HistoryTier } from '../model/retention.js';
import type { KpiPoint } from '../storage/analysis-store.js';
import { KPI_HISTORY_SIGNALS } from '../model/signals.js';

/** the roll-up tiers of the retention table, in order, with their bucket widths */
const TIERS: [HistoryTier, number][] = HISTORY_TIERS.flatMap((spec) => (spec.bucketMs === undefined ? [] : [[spec.tier, spec.bucketMs] as [HistoryTier, number]]));

/** a point's fields in the order a KpiPoint is built (analyzer-loop.ts kpiPoint): t first, then these */
const FIELDS: readonly (keyof KpiPoint)[] = ['fused_r', 'health', ...KPI_HISTORY_SIGNALS];
const BUCKET = 0;
const COUNT = 1;
const SUMS = 2;
/** numbers per tier in a workload's row */
const ROW = SUMS + FIELDS.length;
/** a tier with no accumulator yet */
const EMPTY = -1;

export class KpiRollup {
  /** workload key → its accumulators, ROW numbers per tier of TIERS (count EMPTY: none yet) */
  private readonly acc = new Map<string, number[]>();

  /** Returns the points to store for `point` of workload `key`: the raw one and any finished rollups. */
  add(key: string, point: KpiPoint): { tier: HistoryTier; key: string; point: KpiPoint }[] {
    const out: { tier: HistoryTier; key: string; point: KpiPoint }[] = [{ tier: 'raw', key, point }];
    let row = this.acc.get(key);
    if (row === undefined) {
      row = newRow();
      this.acc.set(key, row);
    }
    let carry: KpiPoint | undefined = point;
    for (let i = 0; i < TIERS.length; i++) {
      if (carry === undefined) break;
      const [tier, width] = TIERS[i]!;
      carry = accumulate(row, i * ROW, width, carry);
      if (carry !== undefined) out.push({ tier, key, point: carry });
    }
    return out;
  }
}

/** a row of doubles (not small integers: the array keeps unboxed doubles from the start) */
function newRow(): number[] {
  const row: number[] = [];
  for (let i = 0; i < TIERS.length * ROW; i++) row.push(i % ROW === COUNT ? EMPTY : 0.5);
  return row;
}

/** Feeds `p` into the accumulator at `at` of `row`; returns the finished mean of the previous bucket, if any. */
function accumulate(row: number[], at: number, width: number, p: KpiPoint): KpiPoint | undefined {
  const bucket = Math.floor(p.t / width);
  if (row[at + COUNT] === EMPTY) {
    start(row, at, bucket, p);
    return undefined;
  }
  if (bucket === row[at + BUCKET]) {
    for (let f = 0; f < FIELDS.length; f++) row[at + SUMS + f] += p[FIELDS[f]!];
    row[at + COUNT] += 1;
    return undefined;
  }
  if (bucket < row[at + BUCKET]!) return undefined; // late point of a finished bucket: never re-averaged
  const count = row[at + COUNT]!;
  const mean = { t: row[at + BUCKET]! * width } as KpiPoint;
  for (let f = 0; f < FIELDS.length; f++) mean[FIELDS[f]!] = row[at + SUMS + f]! / count;
  start(row, at, bucket, p);
  return mean;
}

function start(row: number[], at: number, bucket: number, p: KpiPoint): void {
  row[at + BUCKET] = bucket;
  row[at + COUNT] = 1;
  for (let f = 0; f < FIELDS.length; f++) row[at + SUMS + f] = p[FIELDS[f]!];
}
