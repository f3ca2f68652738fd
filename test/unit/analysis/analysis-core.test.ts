import { expect } from 'chai';
import { AnalysisCoreImpl } from '../../../api-server/src/analysis/analysis-core.js';
import { bucketTelemetry } from './workload-generator.js';

const ORIGIN = 1_700_000_000_000 - (1_700_000_000_000 % 15_000);
const hexIds = (): (() => string) => {
  let n = 0;
  return () => (n++).toString(16).padStart(12, '0');
};

function backfill(core: AnalysisCoreImpl, key: string, buckets: number, withLogs = true): void {
  for (let b = 0; b < buckets; b++) {
    const t = bucketTelemetry({ key, withLogs, withTraces: withLogs }, b, ORIGIN);
    t.metrics.forEach((m) => core.observeMetric(m));
    t.logs.forEach((l) => core.observeLog(l));
    t.spans.forEach((s) => core.observeSpan(s));
  }
}

describe('AnalysisCoreImpl facade', function () {
  this.timeout(60_000);

  it('a known workload without a step has a provisional snapshot', () => {
    const core = new AnalysisCoreImpl({ newHexId: hexIds() });
    core.observeMetric({ workload: 'a/Deployment/b', pod: undefined, name: 'cpu_percent', value: 40, timeMs: ORIGIN });
    const s = core.snapshot('a/Deployment/b')!;
    expect(s.status).to.equal('pending_telemetry');
    expect(s.calibrationEtaMinutes).to.equal(24);
    expect(s.calibrationProgress).to.equal(0);
    expect(s.signals.health_score.state).to.equal('pending');
    expect(core.snapshot('x/Deployment/y')).to.equal(undefined);
    expect(core.workloadKeys()).to.deep.equal(['a/Deployment/b']);
  });

  it('rejects and counts non-finite values and times, late samples', () => {
    const core = new AnalysisCoreImpl({ newHexId: hexIds() });
    core.observeMetric({ workload: 'a/Deployment/b', pod: undefined, name: 'cpu', value: NaN, timeMs: ORIGIN });
    core.observeMetric({ workload: 'a/Deployment/b', pod: undefined, name: 'cpu', value: 1, timeMs: Infinity });
    core.observeLog({ workload: 'a/Deployment/b', pod: undefined, timeMs: NaN, severityNumber: 9, severityText: '', body: '' });
    core.observeMetric({ workload: 'a/Deployment/b', pod: undefined, name: 'cpu', value: 0.5, timeMs: ORIGIN });
    core.step(ORIGIN + 60_000);
    core.observeMetric({ workload: 'a/Deployment/b', pod: undefined, name: 'cpu', value: 0.5, timeMs: ORIGIN + 1 });
    expect(core.ingestStats()).to.deep.equal({ acceptedSamples: 1, rejectedInvalid: 3, lateSamples: 1, overflowSamples: 0 });
  });

  it('lastProcessedBucket: undefined for a workload it does not hold, −Infinity while every bucket is open, then the index', () => {
    const core = new AnalysisCoreImpl({ newHexId: hexIds() });
    expect(core.lastProcessedBucket('a/Deployment/b')).to.equal(undefined);
    core.observeMetric({ workload: 'a/Deployment/b', pod: undefined, name: 'cpu', value: 0.5, timeMs: ORIGIN + 1_000 });
    expect(core.lastProcessedBucket('a/Deployment/b')).to.equal(Number.NEGATIVE_INFINITY);
    core.step(ORIGIN + 60_000);
    expect(core.lastProcessedBucket('a/Deployment/b')).to.equal(ORIGIN / 15_000);
    core.removeWorkload('a/Deployment/b');
    expect(core.lastProcessedBucket('a/Deployment/b')).to.equal(undefined);
  });

  it('a one-hour backfill runs 240 steps in one call and finishes calibration', () => {
    const core = new AnalysisCoreImpl({ newHexId: hexIds() });
    backfill(core, 'a/Deployment/b', 240);
    const out = core.step(ORIGIN + 241 * 15_000 + 15_000);
    expect(out.snapshots).to.have.length(1);
    const s = out.snapshots[0]!;
    expect(s.timeMs).to.equal(ORIGIN + 240 * 15_000);
    expect(s.status).to.equal('active');
    expect(s.calibrationProgress).to.equal(100);
    expect(core.step(ORIGIN + 242 * 15_000).snapshots).to.have.length(0);
  });

  it('export/import keeps calibration and continues identically', () => {
    const a = new AnalysisCoreImpl({ newHexId: hexIds() });
    backfill(a, 'a/Deployment/b', 120);
    a.step(ORIGIN + 121 * 15_000 + 15_000);
    const state = JSON.parse(JSON.stringify(a.exportWorkload('a/Deployment/b')));
    const b = new AnalysisCoreImpl({ newHexId: hexIds() });
    b.importWorkload('a/Deployment/b', state);
    expect(b.snapshot('a/Deployment/b')!.status).to.equal('active');
    for (let i = 120; i < 130; i++) {
      for (const core of [a, b]) {
        const t = bucketTelemetry({ key: 'a/Deployment/b', withLogs: true, withTraces: true }, i, ORIGIN);
        t.metrics.forEach((m) => core.observeMetric(m));
        t.logs.forEach((l) => core.observeLog(l));
        t.spans.forEach((s) => core.observeSpan(s));
      }
    }
    const now = ORIGIN + 131 * 15_000 + 15_000;
    expect(b.step(now).snapshots).to.deep.equal(a.step(now).snapshots);
    expect(() => b.importWorkload('x/Deployment/y', { version: 2 })).to.throw(/workload state: version/);
  });

  it('a metric without logs or traces keeps FusedR at 0', () => {
    const core = new AnalysisCoreImpl({ newHexId: hexIds() });
    backfill(core, 'a/Deployment/m', 130, false);
    const out = core.step(ORIGIN + 131 * 15_000 + 15_000);
    expect(out.snapshots[0]!.fusedR).to.equal(0);
    expect(out.snapshots[0]!.sources.metricR).to.not.equal(null);
  });
});
