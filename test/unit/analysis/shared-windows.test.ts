import { expect } from 'chai';
import { AnalysisCoreImpl } from '../../../api-server/src/analysis/analysis-core.js';
import { bucketTelemetry } from './workload-generator.js';

const ORIGIN = 1_700_000_000_000 - (1_700_000_000_000 % 15_000);
const KEY = 'a/Deployment/b';
const hexIds = (): (() => string) => {
  let n = 0;
  return () => (n++).toString(16).padStart(12, '0');
};

function feed(core: AnalysisCoreImpl, from: number, to: number): void {
  for (let b = from; b < to; b++) {
    const t = bucketTelemetry({ key: KEY, withLogs: true, withTraces: true }, b, ORIGIN);
    t.metrics.forEach((m) => core.observeMetric(m));
    t.logs.forEach((l) => core.observeLog(l));
    t.spans.forEach((s) => core.observeSpan(s));
    core.step(ORIGIN + (b + 1) * 15_000 + 1);
  }
}

describe('metricR windows shared with the input series', function () {
  this.timeout(60_000);

  it('give the same metricR as windows of their own (inputs not tracked as series)', () => {
    const shared = new AnalysisCoreImpl({ newHexId: hexIds() });
    // only the four derived series are tracked: every input keeps windows of its own
    const own = new AnalysisCoreImpl({ newHexId: hexIds(), maxSeriesPerWorkload: 4 });
    let compared = 0;
    for (let b = 0; b < 330; b++) {
      feed(shared, b, b + 1);
      feed(own, b, b + 1);
      const a = shared.snapshot(KEY)!;
      const o = own.snapshot(KEY)!;
      expect(a.sources.metricR).to.equal(o.sources.metricR);
      expect(a.sources.primaryMetric).to.equal(o.sources.primaryMetric);
      if (a.sources.metricR !== null) compared += 1;
    }
    expect(compared).to.be.greaterThan(200);
  });

  it('restored after 400 steps (more than the 300 replayed points), a workload continues bit for bit', () => {
    const a = new AnalysisCoreImpl({ newHexId: hexIds() });
    feed(a, 0, 400);
    // close every open bucket first: an export holds processed state, not open buckets
    a.step(ORIGIN + 402 * 15_000);
    const b = new AnalysisCoreImpl({ newHexId: hexIds() });
    b.importWorkload(KEY, JSON.parse(JSON.stringify(a.exportWorkload(KEY))));
    for (let i = 402; i < 430; i++) {
      feed(a, i, i + 1);
      feed(b, i, i + 1);
      expect(b.snapshot(KEY)!.sources).to.deep.equal(a.snapshot(KEY)!.sources);
    }
  });

  it('windows of their own (inputs not tracked as series), restored after 400 steps, continue bit for bit', () => {
    const a = new AnalysisCoreImpl({ newHexId: hexIds(), maxSeriesPerWorkload: 4 });
    feed(a, 0, 400);
    a.step(ORIGIN + 402 * 15_000);
    const b = new AnalysisCoreImpl({ newHexId: hexIds(), maxSeriesPerWorkload: 4 });
    b.importWorkload(KEY, JSON.parse(JSON.stringify(a.exportWorkload(KEY))));
    let compared = 0;
    for (let i = 402; i < 430; i++) {
      feed(a, i, i + 1);
      feed(b, i, i + 1);
      expect(b.snapshot(KEY)!.sources).to.deep.equal(a.snapshot(KEY)!.sources, `step ${i}`);
      if (a.snapshot(KEY)!.sources.metricR !== null) compared += 1;
    }
    // the restored windows are read from the first step on (a fresh burst window would need 20)
    expect(compared).to.equal(28);
  });
});
