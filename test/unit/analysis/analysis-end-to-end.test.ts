import { expect } from 'chai';
import { AnalysisCoreImpl } from '../../../api-server/src/analysis/analysis-core.js';
import type { BandEvent, WorkloadSnapshot } from '../../../api-server/src/analysis/contract.js';
import { bucketTelemetry, type GeneratorOptions } from './workload-generator.js';

const ORIGIN = 1_700_000_000_000 - (1_700_000_000_000 % 15_000);

function hexIds(): () => string {
  let n = 0;
  return () => (n++).toString(16).padStart(12, '0');
}

describe('analysis end to end: 70 min of a steady and a rupturing workload', function () {
  this.timeout(120_000);
  const steady: GeneratorOptions = { key: 'shop/Deployment/steady', withLogs: true, withTraces: true };
  const rupturing: GeneratorOptions = { key: 'shop/Deployment/rupture', withLogs: true, withTraces: true, ruptureFromBucket: 200 };
  const metricsOnly: GeneratorOptions = { key: 'shop/Deployment/metrics-only', withLogs: false, withTraces: false, ruptureFromBucket: 200 };
  const buckets = 280;

  const core = new AnalysisCoreImpl({ newHexId: hexIds() });
  const maxCalibratedR = new Map<string, number>();
  const states = new Map<string, Set<string>>();
  const bandEvents: BandEvent[] = [];
  let lastSnapshots = new Map<string, WorkloadSnapshot>();
  let calibratedAtBucket = -1;

  before(() => {
    for (let b = 0; b < buckets; b++) {
      for (const o of [steady, rupturing, metricsOnly]) {
        const t = bucketTelemetry(o, b, ORIGIN);
        t.metrics.forEach((m) => core.observeMetric(m));
        t.logs.forEach((l) => core.observeLog(l));
        t.spans.forEach((s) => core.observeSpan(s));
      }
      const out = core.step(ORIGIN + (b + 1) * 15_000 + 15_000);
      bandEvents.push(...out.bandEvents);
      lastSnapshots = new Map(out.snapshots.map((s) => [s.key, s]));
      for (const s of out.snapshots) {
        if (s.status === 'active') {
          if (calibratedAtBucket < 0) calibratedAtBucket = b;
          maxCalibratedR.set(s.key, Math.max(maxCalibratedR.get(s.key) ?? 0, s.fusedR));
          if (!states.has(s.key)) states.set(s.key, new Set());
          states.get(s.key)!.add(s.state);
        }
      }
    }
  });

  it('calibrates after 96 steps (24 min)', () => {
    // bucket b is stepped at the tick after it closes: the 96th step belongs to bucket 95
    expect(calibratedAtBucket).to.be.within(94, 96);
    expect(lastSnapshots.get(steady.key)!.calibrationProgress).to.equal(100);
    expect(lastSnapshots.get(steady.key)!.calibrationEtaMinutes).to.equal(0);
  });

  it('the rupturing workload reaches warning or worse after calibration; the steady one stays below 1.5', () => {
    expect(maxCalibratedR.get(rupturing.key)!).to.be.at.least(1.5);
    const worst = [...states.get(rupturing.key)!];
    expect(worst.some((s) => s === 'warning' || s === 'critical' || s === 'emergency')).to.equal(true);
    expect(maxCalibratedR.get(steady.key)!).to.be.below(1.5);
    expect(bandEvents.some((e) => e.workload === rupturing.key && e.type !== 'recovered')).to.equal(true);
    expect(bandEvents.filter((e) => e.workload === steady.key)).to.have.length(0);
  });

  it('a metrics-only workload has FusedR 0', () => {
    expect(maxCalibratedR.get(metricsOnly.key)).to.equal(0);
    expect(lastSnapshots.get(metricsOnly.key)!.sources.logR).to.equal(null);
    expect(lastSnapshots.get(metricsOnly.key)!.sources.traceR).to.equal(null);
  });

  it('the rupture has an explain record with narrative, and signals with state names', () => {
    const record = core.explain(rupturing.key);
    expect(record).to.not.equal(undefined);
    expect(record!.ruptureId).to.match(/^r_[0-9a-f]{12}$/);
    expect(record!.narrative).to.contain('rupture is in');
    expect(core.explain(record!.ruptureId)).to.equal(record);
    const snap = core.snapshot(steady.key)!;
    expect(snap.signals.stress.state).to.be.oneOf(['calm', 'nervous', 'stressed', 'panic']);
    expect(snap.status).to.equal('active');
    expect(snap.phase).to.equal('Active');
  });

  it('forecasts a metric series and the fused series', () => {
    const f = core.forecast(steady.key, 'process.cpu.utilization', 30);
    expect(f).to.not.equal(undefined);
    expect(f!.metric).to.equal('cpu');
    expect(f!.points.length).to.be.greaterThan(0);
    expect(core.forecast(steady.key, 'fused_rupture_index', 10)).to.not.equal(undefined);
    expect(core.forecast(steady.key, 'no_such_series', 10)).to.equal(undefined);
  });
});
