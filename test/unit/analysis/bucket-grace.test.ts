import { expect } from 'chai';
import fc from 'fast-check';
import { AnalysisCoreImpl } from '../../../api-server/src/analysis/analysis-core.js';
import { WorkloadBuckets } from '../../../api-server/src/analysis/buckets/workload-buckets.js';
import { bucketTelemetry } from './workload-generator.js';

const STEP = 15_000;
const ORIGIN = 1_700_000_000_000 - (1_700_000_000_000 % STEP);
const hexIds = (): (() => string) => {
  let n = 0;
  return () => (n++).toString(16).padStart(12, '0');
};

describe('bucket grace: a closed bucket waits for its other sources (AnalysisConfig.bucketGraceMs)', () => {
  it('keeps a backfill open for the grace, so logs posted after the metrics still count', () => {
    const b = new WorkloadBuckets(STEP, 1000, 2_000);
    for (let i = 0; i < 240; i++) expect(b.addMetric('', 'cpu', 0.1, 0, i * STEP + 5)).to.equal('ok');
    const now = 250 * STEP;
    expect(b.takeClosed(now), 'found closed, not yet due').to.have.length(0);
    for (let i = 0; i < 240; i++) expect(b.addLog(i * STEP + 6)).to.equal('ok');
    expect(b.takeClosed(now + 1_999)).to.have.length(0);
    const taken = b.takeClosed(now + 2_000);
    expect(taken.map((x) => x.index)).to.deep.equal(Array.from({ length: 240 }, (_, i) => i));
    expect(taken.every((x) => x.metricSamples === 1 && x.logLines === 1)).to.equal(true);
    expect(b.addLog(239 * STEP)).to.equal('late');
  });

  it('without a grace (the default) the same logs come too late: analytics.md §0.1 as written', () => {
    const b = new WorkloadBuckets(STEP, 1000);
    for (let i = 0; i < 240; i++) b.addMetric('', 'cpu', 0.1, 0, i * STEP + 5);
    expect(b.takeClosed(250 * STEP)).to.have.length(240);
    expect(b.addLog(5 * STEP)).to.equal('late');
  });

  it('counts the grace from the first takeClosed that found the bucket closed, not from its sample time', () => {
    const b = new WorkloadBuckets(STEP, 100, 1_000);
    b.addMetric('', 'cpu', 0.1, 0, 1_000); // bucket 0
    expect(b.takeClosed(20_000), 'open: no later sample, server time before 30 s').to.have.length(0);
    b.addMetric('', 'cpu', 0.2, 0, 16_000); // bucket 1 closes bucket 0
    expect(b.takeClosed(20_500)).to.have.length(0);
    expect(b.takeClosed(21_400)).to.have.length(0);
    expect(b.takeClosed(21_500).map((x) => x.index)).to.deep.equal([0]);
    expect(b.openCount).to.equal(1);
  });

  it('a bucket opened below a due one goes with it, so the order holds', () => {
    const b = new WorkloadBuckets(STEP, 100, 1_000);
    b.addMetric('', 'cpu', 0.1, 0, 2 * STEP + 1); // bucket 2
    b.addMetric('', 'cpu', 0.1, 0, 3 * STEP + 1); // bucket 3 closes 2
    expect(b.takeClosed(3 * STEP + 100)).to.have.length(0);
    b.addMetric('', 'cpu', 0.1, 0, 1 * STEP + 1); // bucket 1: closed, its grace starts later
    expect(b.takeClosed(3 * STEP + 600)).to.have.length(0);
    expect(b.takeClosed(3 * STEP + 1_100).map((x) => x.index)).to.deep.equal([1, 2]);
    expect(b.addMetric('', 'cpu', 0.1, 0, 1 * STEP + 2)).to.equal('late');
  });

  it('property: handed over in strictly ascending order, each bucket once, no accepted sample lost', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('sample' as const), bucket: fc.integer({ min: 0, max: 30 }) }),
      fc.record({ kind: fc.constant('take' as const), advanceMs: fc.integer({ min: 0, max: 20_000 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5_000 }), fc.array(op, { maxLength: 80, size: 'max' }), (grace, ops) => {
        const b = new WorkloadBuckets(STEP, 1000, grace);
        let now = 0;
        let accepted = 0;
        const taken: number[] = [];
        let counted = 0;
        const take = (): void => {
          for (const x of b.takeClosed(now)) {
            taken.push(x.index);
            counted += x.metricSamples;
          }
        };
        for (const o of ops) {
          if (o.kind === 'sample') {
            if (b.addMetric('', 'cpu', 0.5, 0, o.bucket * STEP + 7) === 'ok') accepted += 1;
          } else {
            now += o.advanceMs;
            take();
          }
        }
        // everything closes by server time, then waits out the grace
        now += 40 * STEP;
        take();
        now += grace;
        take();
        for (let i = 1; i < taken.length; i++) if (!((taken[i - 1] as number) < (taken[i] as number))) return false;
        return counted === accepted && b.openCount === 0;
      }),
      { numRuns: 300 },
    );
  });

  it('the core with a grace gives, for metrics then logs and spans in separate rounds, what one round gives', () => {
    const key = 'a/Deployment/b';
    const feed = (core: AnalysisCoreImpl, part: 'metrics' | 'rest' | 'all'): void => {
      for (let b = 0; b < 240; b++) {
        const t = bucketTelemetry({ key, withLogs: true, withTraces: true }, b, ORIGIN);
        if (part !== 'rest') t.metrics.forEach((m) => core.observeMetric(m));
        if (part !== 'metrics') {
          t.logs.forEach((l) => core.observeLog(l));
          t.spans.forEach((s) => core.observeSpan(s));
        }
      }
    };
    const now = ORIGIN + 250 * STEP;
    const together = new AnalysisCoreImpl({ newHexId: hexIds() });
    feed(together, 'all');
    const expected = together.step(now).snapshots;

    const graced = new AnalysisCoreImpl({ newHexId: hexIds(), config: { bucketGraceMs: 2_000 } });
    feed(graced, 'metrics');
    expect(graced.step(now).snapshots, 'metrics alone: not yet due').to.have.length(0);
    feed(graced, 'rest');
    expect(graced.step(now + 1_000).snapshots).to.have.length(0);
    const got = graced.step(now + 2_000).snapshots;
    expect(got).to.have.length(1);
    expect(JSON.stringify(got)).to.equal(JSON.stringify(expected));
    expect(graced.ingestStats().lateSamples).to.equal(0);

    const strict = new AnalysisCoreImpl({ newHexId: hexIds() });
    feed(strict, 'metrics');
    expect(strict.step(now).snapshots).to.have.length(1);
    feed(strict, 'rest');
    expect(strict.ingestStats().lateSamples, 'without a grace the logs and spans are refused').to.be.greaterThan(0);
  });
});
