import { expect } from 'chai';
import fc from 'fast-check';
import { AnalysisCoreImpl } from '../../../api-server/src/analysis/analysis-core.js';
import type { StepOutput } from '../../../api-server/src/analysis/contract.js';
import { bucketTelemetry } from './workload-generator.js';

const ORIGIN = 1_700_000_000_000 - (1_700_000_000_000 % 15_000);
const hexIds = (): (() => string) => {
  let n = 0;
  return () => (n++).toString(16).padStart(12, '0');
};

/** three workloads (one rupturing from bucket 40, with logs and spans) fed `buckets` buckets each */
function fed(buckets: number): AnalysisCoreImpl {
  const core = new AnalysisCoreImpl({ newHexId: hexIds(), config: { calibrationSteps: 20 } });
  const workloads = [
    { key: 'shop/Deployment/cart', withLogs: true, withTraces: true, ruptureFromBucket: 40 },
    { key: 'shop/Deployment/api', withLogs: true, withTraces: true },
    { key: 'ops/StatefulSet/db', withLogs: false, withTraces: false },
  ];
  for (let b = 0; b < buckets; b++) {
    for (const w of workloads) {
      const t = bucketTelemetry(w, b, ORIGIN);
      t.metrics.forEach((m) => core.observeMetric(m));
      t.logs.forEach((l) => core.observeLog(l));
      t.spans.forEach((s) => core.observeSpan(s));
    }
  }
  return core;
}

/** the step's output as data (JSON drops nothing of these plain records) */
const asData = (o: StepOutput): unknown => JSON.parse(JSON.stringify(o));

describe('AnalysisCore.beginStep: a step run in parts', function () {
  this.timeout(120_000);
  const buckets = 70;
  const nowMs = ORIGIN + (buckets + 2) * 15_000;

  it('produces exactly what the whole step produces, for any split into parts', () => {
    const whole = asData(fed(buckets).step(nowMs));
    const w = whole as { snapshots: unknown[]; ruptures: unknown[]; anomalies: unknown[] };
    // the comparison has something to compare: every workload stepped, the rupturing one opened an episode
    expect(w.snapshots).to.have.length(3);
    expect(w.ruptures.length).to.be.greaterThan(0);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 30, size: 'max' }), (parts) => {
        const core = fed(buckets);
        const run = core.beginStep(nowMs);
        expect(run.remaining).to.equal(3 * buckets);
        let done = false;
        for (const n of parts) {
          const before = run.remaining;
          done = run.advance(n);
          expect(run.remaining).to.equal(Math.max(0, before - n));
          if (done) break;
        }
        expect(done).to.equal(run.remaining === 0);
        expect(asData(run.output())).to.deep.equal(whole);
      }),
      { numRuns: 8 },
    );
  });

  it('a sample for a bucket the running step took is late; one for a later bucket waits for the next step', () => {
    const core = fed(10);
    const run = core.beginStep(ORIGIN + 12 * 15_000);
    run.advance(5);
    core.observeMetric({ workload: 'shop/Deployment/api', pod: undefined, name: 'cpu_percent', value: 0.5, timeMs: ORIGIN + 3 * 15_000 });
    core.observeMetric({ workload: 'shop/Deployment/api', pod: undefined, name: 'cpu_percent', value: 0.5, timeMs: ORIGIN + 10 * 15_000 });
    expect(core.ingestStats().lateSamples).to.equal(1);
    expect(run.output().snapshots.map((s) => s.timeMs)).to.have.length(3);
    const next = core.step(ORIGIN + 13 * 15_000);
    expect(next.snapshots.map((s) => s.key)).to.deep.equal(['shop/Deployment/api']);
    expect(next.snapshots[0]!.timeMs).to.be.at.least(ORIGIN + 10 * 15_000);
  });
});
