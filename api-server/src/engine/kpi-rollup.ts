/**
 * Rollups of the KPI history (analytics.md §11): raw points per step, 1-minute means of raw points,
 * 5-minute means of minutes, 1-hour means of 5-minute values; floor-aligned; a rollup is emitted
 * once, when a point of a later bucket arrives.
 */
import { HISTORY_TIERS, type HistoryTier } from '../model/retention.js';
import type { KpiPoint } from '../storage/analysis-store.js';
import { KPI_HISTORY_SIGNALS } from '../model/signals.js';

/** the roll-up tiers of the retention table, in order, with their bucket widths */
const TIERS: [HistoryTier, number][] = HISTORY_TIERS.flatMap((spec) => (spec.bucketMs === undefined ? [] : [[spec.tier, spec.bucketMs] as [HistoryTier, number]]));

interface Accumulator {
  bucket: number;
  count: number;
  sum: KpiPoint;
}

const FIELDS: readonly (keyof KpiPoint)[] = ['fused_r', 'health', ...KPI_HISTORY_SIGNALS];

export class KpiRollup {
  private readonly acc = new Map<string, Accumulator>();

  /** Returns the points to store for `point` of workload `key`: the raw one and any finished rollups. */
  add(key: string, point: KpiPoint): { tier: HistoryTier; key: string; point: KpiPoint }[] {
    const out: { tier: HistoryTier; key: string; point: KpiPoint }[] = [{ tier: 'raw', key, point }];
    let carry: KpiPoint | undefined = point;
    for (const [tier, width] of TIERS) {
      if (carry === undefined) break;
      carry = this.accumulate(`${tier}|${key}`, width, carry);
      if (carry !== undefined) out.push({ tier, key, point: carry });
    }
    return out;
  }

  /** Feeds `p` into the accumulator; returns the finished mean of the previous bucket, if any. */
  private accumulate(id: string, width: number, p: KpiPoint): KpiPoint | undefined {
    const bucket = Math.floor(p.t / width);
    const a = this.acc.get(id);
    if (a === undefined) {
      this.acc.set(id, { bucket, count: 1, sum: { ...p, t: bucket * width } });
      return undefined;
    }
    if (bucket === a.bucket) {
      for (const f of FIELDS) a.sum[f] += p[f];
      a.count += 1;
      return undefined;
    }
    if (bucket < a.bucket) return undefined; // late point of a finished bucket: never re-averaged
    const mean = { ...a.sum };
    for (const f of FIELDS) mean[f] = a.sum[f] / a.count;
    mean.t = a.bucket * width;
    this.acc.set(id, { bucket, count: 1, sum: { ...p, t: bucket * width } });
    return mean;
  }
}
