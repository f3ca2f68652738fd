import { expect } from 'chai';
import { PodKpi } from '../../../api-server/src/analysis/signals/pod-kpi.js';
import type { PodStepContext } from '../../../api-server/src/analysis/signals/pod-signals.js';
import { PodInputs } from '../../../api-server/src/analysis/buckets/workload-buckets.js';
import { DEFAULT_HEALTH_WEIGHTS } from '../../../api-server/src/analysis/weights/health-weights.js';
import { aggregatePods } from '../../../api-server/src/analysis/signals/aggregate.js';

/** one pod's inputs of a bucket, one sample each */
function inputs(values: Record<string, number>, timeMs: number): PodInputs {
  const p = new PodInputs();
  for (const [k, v] of Object.entries(values)) p.add(k, v, 0, timeMs);
  return p;
}

const ctx = (tMs: number, over: Partial<PodStepContext> = {}): PodStepContext => ({
  tMs,
  dtSeconds: 15,
  absenceMs: 300_000,
  cores: 1,
  logMoodTerm: 0,
  recentLogs: false,
  logErrorShare: 0,
  graphContagion: 0,
  weights: DEFAULT_HEALTH_WEIGHTS,
  calibrationSteps: 96,
  fatigueThreshold: 0.3,
  fatigueRecovery: 0.05,
  ...over,
});

describe('analysis pod KPI step (analytics.md §3.1)', () => {
  it('first step of cpu 0.5, memory 0.4: hand-checked signals', () => {
    const p = new PodKpi();
    p.absorb(inputs({ cpu: 0.5, memory: 0.4 }, 14_000));
    const s = p.step(ctx(15_000, { dtSeconds: 1 }));
    expect(s.values.stress).to.be.closeTo(0.23, 1e-12);
    expect(s.values.fatigue).to.equal(0);
    expect(s.values.mood).to.equal(1);
    const pressure = (0.5 * Math.sqrt(10) + 3) / 6;
    expect(s.values.pressure).to.be.closeTo(pressure, 1e-9);
    expect(s.values.humidity).to.equal(0);
    expect(s.values.contagion).to.equal(0);
    expect(s.values.resilience).to.equal(1);
    expect(s.values.health_score).to.be.closeTo(1 - 0.25 * 0.23 - 0.15 * pressure, 1e-9);
    expect(s.values.entropy).to.equal(0);
    expect(s.values.velocity).to.equal(0);
    expect(s.calibrated).to.equal(false);
  });

  it('latency falls back to load per core in stress; inputs older than 5 min are absent', () => {
    const p = new PodKpi();
    p.absorb(inputs({ load: 2 }, 0));
    expect(p.step(ctx(15_000, { cores: 4 })).values.stress).to.be.closeTo(0.2 * 0.5, 1e-12);
    p.absorb(inputs({ latency: 0.25 }, 15_000));
    expect(p.step(ctx(30_000, { cores: 4 })).values.stress).to.be.closeTo(0.2 * 0.25, 1e-12);
    expect(p.step(ctx(15_000 + 300_001)).values.stress).to.equal(0);
  });

  it('restarts count the counter delta of the last hour in mood', () => {
    const p = new PodKpi();
    p.absorb(inputs({ restarts: 5 }, 0));
    expect(p.step(ctx(15_000)).values.mood).to.equal(1);
    p.absorb(inputs({ restarts: 6 }, 20_000));
    expect(p.step(ctx(30_000)).values.mood).to.be.closeTo(2 / 3, 1e-12);
    p.absorb(inputs({ restarts: 6 }, 3_700_000));
    expect(p.step(ctx(3_715_000)).values.mood).to.equal(1);
  });

  it('after N_cal steps penalties become adaptive scores (fatigue stays absolute)', () => {
    const p = new PodKpi();
    let last = p.step(ctx(0, { calibrationSteps: 5 }));
    for (let i = 1; i <= 3; i++) {
      p.absorb(inputs({ cpu: 0.4 }, i * 15_000));
      last = p.step(ctx(i * 15_000 + 1, { calibrationSteps: 5 }));
    }
    expect(last.calibrated).to.equal(false);
    p.absorb(inputs({ cpu: 0.4 }, 75_000));
    last = p.step(ctx(75_001, { calibrationSteps: 5 }));
    expect(last.calibrated).to.equal(true);
    expect(last.penalties.stress).to.be.within(0, 1);
    expect(last.penalties.fatigue).to.equal(last.values.fatigue);
  });

  it('aggregates pods: max stress, min health, mean humidity', () => {
    const a = new PodKpi();
    const b = new PodKpi();
    a.absorb(inputs({ cpu: 1, error_rate: 0.2 }, 0));
    b.absorb(inputs({ cpu: 0.2 }, 0));
    const sa = a.step(ctx(15_000));
    const sb = b.step(ctx(15_000));
    const agg = aggregatePods([sa, sb]);
    expect(agg.values.stress).to.equal(Math.max(sa.values.stress, sb.values.stress));
    expect(agg.values.health_score).to.equal(Math.min(sa.values.health_score, sb.values.health_score));
    expect(agg.values.humidity).to.be.closeTo((sa.values.humidity + sb.values.humidity) / 2, 1e-12);
    expect(agg.values.mood).to.equal(Math.min(sa.values.mood, sb.values.mood));
  });

  it('round-trips through JSON', () => {
    const p = new PodKpi();
    p.absorb(inputs({ cpu: 0.7, open_fds: 100 }, 0));
    p.step(ctx(15_000));
    const q = PodKpi.fromJSON(JSON.parse(JSON.stringify(p.toJSON())));
    expect(q.toJSON()).to.deep.equal(p.toJSON());
    q.absorb(inputs({ cpu: 0.7 }, 20_000));
    p.absorb(inputs({ cpu: 0.7 }, 20_000));
    expect(q.step(ctx(30_000))).to.deep.equal(p.step(ctx(30_000)));
  });
});
