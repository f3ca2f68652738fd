import { expect } from 'chai';
import fc from 'fast-check';
import { KpiRollup } from '../../../api-server/src/engine/kpi-rollup.js';
import { HISTORY_TIERS, type HistoryTier } from '../../../api-server/src/model/retention.js';
import { KPI_HISTORY_SIGNALS } from '../../../api-server/src/model/signals.js';
import type { KpiPoint } from '../../../api-server/src/storage/analysis-store.js';

/** KpiRollup as it was before its accumulators became one row of doubles per workload (main 7445a8b) */
class ReferenceRollup {
  private static readonly TIERS: [HistoryTier, number][] = HISTORY_TIERS.flatMap((spec) => (spec.bucketMs === undefined ? [] : [[spec.tier, spec.bucketMs] as [HistoryTier, number]]));
  private static readonly FIELDS: readonly (keyof KpiPoint)[] = ['fused_r', 'health', ...KPI_HISTORY_SIGNALS];
  private readonly acc = new Map<string, { bucket: number; count: number; sum: KpiPoint }>();

  add(key: string, point: KpiPoint): { tier: HistoryTier; key: string; point: KpiPoint }[] {
    const out: { tier: HistoryTier; key: string; point: KpiPoint }[] = [{ tier: 'raw', key, point }];
    let carry: KpiPoint | undefined = point;
    for (const [tier, width] of ReferenceRollup.TIERS) {
      if (carry === undefined) break;
      carry = this.accumulate(`${tier}|${key}`, width, carry);
      if (carry !== undefined) out.push({ tier, key, point: carry });
    }
    return out;
  }

  private accumulate(id: string, width: number, p: KpiPoint): KpiPoint | undefined {
    const bucket = Math.floor(p.t / width);
    const a = this.acc.get(id);
    if (a === undefined) {
      this.acc.set(id, { bucket, count: 1, sum: { ...p, t: bucket * width } });
      return undefined;
    }
    if (bucket === a.bucket) {
      for (const f of ReferenceRollup.FIELDS) a.sum[f] += p[f];
      a.count += 1;
      return undefined;
    }
    if (bucket < a.bucket) return undefined;
    const mean = { ...a.sum };
    for (const f of ReferenceRollup.FIELDS) mean[f] = a.sum[f] / a.count;
    mean.t = a.bucket * width;
    this.acc.set(id, { bucket, count: 1, sum: { ...p, t: bucket * width } });
    return mean;
  }
}

/** a point as analyzer-loop.ts builds it (this key order) */
const point = (t: number, v: readonly number[]): KpiPoint => ({ t, fused_r: v[0]!, health: v[1]!, stress: v[2]!, fatigue: v[3]!, mood: v[4]!, pressure: v[5]!, humidity: v[6]!, contagion: v[7]!, resilience: v[8]!, entropy: v[9]!, velocity: v[10]! });

describe('KpiRollup: one row of doubles per workload', () => {
  it('emits the 1-minute mean of four 15-s points once the next minute starts (hand-checked)', () => {
    const r = new KpiRollup();
    const v = (x: number): number[] => Array.from({ length: 11 }, (_, i) => x + i);
    expect(r.add('a/Deployment/b', point(60_000, v(1)))).to.have.length(1);
    r.add('a/Deployment/b', point(75_000, v(2)));
    r.add('a/Deployment/b', point(90_000, v(4)));
    r.add('other/Deployment/c', point(95_000, v(100))); // another workload's accumulators are its own
    r.add('a/Deployment/b', point(105_000, v(9)));
    const out = r.add('a/Deployment/b', point(120_000, v(0)));
    expect(out.map((x) => x.tier)).to.deep.equal(['raw', '1m']);
    // (1 + 2 + 4 + 9) / 4 = 4, field i adds i
    expect(out[1]!.point).to.deep.equal(point(60_000, v(4)));
    expect(Object.keys(out[1]!.point)).to.deep.equal(['t', 'fused_r', 'health', 'stress', 'fatigue', 'mood', 'pressure', 'humidity', 'contagion', 'resilience', 'entropy', 'velocity']);
    expect(r.add('a/Deployment/b', point(110_000, v(50)))).to.have.length(1); // late for a finished minute: raw only
  });

  it('gives what the per-tier accumulator objects gave, bit for bit and in key order, for any points of any workloads', () => {
    const value = fc.oneof(fc.double(), fc.constantFrom(Number.NaN, -0, 0.1, 1e300));
    const step = fc.record({ key: fc.constantFrom('a/Deployment/b', 'c/StatefulSet/d', 'default/host/h'), dt: fc.oneof(fc.constant(15_000), fc.integer({ min: -400_000, max: 4_000_000 })), values: fc.array(value, { minLength: 11, maxLength: 11, size: 'max' }) });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2e12 }), fc.array(step, { maxLength: 300, size: 'max' }), (t0, steps) => {
        const r = new KpiRollup();
        const ref = new ReferenceRollup();
        const t = new Map<string, number>();
        for (const s of steps) {
          const at = (t.get(s.key) ?? t0) + s.dt;
          t.set(s.key, at);
          const p = point(at, s.values);
          const got = r.add(s.key, p);
          const want = ref.add(s.key, p);
          expect(JSON.stringify(got)).to.equal(JSON.stringify(want));
          expect(got.map((x) => Object.values(x.point).map((n) => Object.is(n, -0) ? '-0' : String(n)))).to.deep.equal(want.map((x) => Object.values(x.point).map((n) => Object.is(n, -0) ? '-0' : String(n))));
        }
      }),
      { numRuns: 300 },
    );
  });
});
