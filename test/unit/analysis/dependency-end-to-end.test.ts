import { expect } from 'chai';
import { AnalysisCoreImpl } from '../../../api-server/src/analysis/analysis-core.js';
import type { ExplainRecord } from '../../../api-server/src/analysis/contract.js';
import type { SpanRecord } from '../../../api-server/src/model/records.js';
import { bucketTelemetry, type GeneratorOptions } from './workload-generator.js';

const ORIGIN = 1_700_000_000_000 - (1_700_000_000_000 % 15_000);
const FAIL_FROM = 240;
const BUCKETS = 300;

function hexIds(): () => string {
  let n = 0;
  return () => (n++).toString(16).padStart(12, '0');
}

/**
 * Each root span of the workload calls `checkout-store` once; from FAIL_FROM those calls fail as
 * the roots do (the generator's rupture: ceil(k/3) of 10 per bucket, at most 8), before it none.
 */
function storeCalls(roots: readonly SpanRecord[], b: number): SpanRecord[] {
  const k = b < FAIL_FROM ? 0 : b - FAIL_FROM + 1;
  return roots.map((r, i) => ({
    ...r,
    service: 'checkout-store',
    spanId: `${r.spanId}ff`,
    parentSpanId: r.spanId,
    name: 'SELECT',
    kind: 3,
    startMs: r.startMs + 5,
    endMs: r.endMs - 5,
    statusCode: k > 0 && i < Math.min(8, Math.ceil(k / 3)) ? 2 : 1,
  }));
}

describe('diagnosis end to end: a failing dependency through the analysis core', function () {
  this.timeout(120_000);
  const w: GeneratorOptions = { key: 'shop/Deployment/checkout', withLogs: true, withTraces: true, ruptureFromBucket: FAIL_FROM };
  const core = new AnalysisCoreImpl({ newHexId: hexIds() });
  let open: ExplainRecord | null = null;
  /** the first step that named the dependency, and its bucket */
  let first: { record: ExplainRecord; bucket: number } | null = null;

  before(() => {
    for (let b = 0; b < BUCKETS; b++) {
      const t = bucketTelemetry(w, b, ORIGIN);
      t.metrics.forEach((m) => core.observeMetric(m));
      t.logs.forEach((l) => core.observeLog(l));
      [...t.spans, ...storeCalls(t.spans, b)].forEach((s) => core.observeSpan(s));
      const out = core.step(ORIGIN + (b + 1) * 15_000 + 15_000);
      const r = out.ruptures.find((x) => x.workload === w.key && x.closedAtMs === null);
      if (r !== undefined) open = r;
      if (r !== undefined && first === null && r.diagnosis?.kind === 'failing-dependency') first = { record: r, bucket: b };
    }
  });

  it('names the downstream service whose calls started failing, against the hour of its calls that did not, and recommends no scale', () => {
    expect(open, 'an open rupture').to.not.equal(null);
    const record = open!;
    expect(record.topFactor).to.equal('dependency:checkout-store');
    expect(record.diagnosis?.kind).to.equal('failing-dependency');
    // 10 calls a bucket, 20 buckets in the last 5 min; none failed before the failure began
    // now: 8 of every 10 calls fail, 20 buckets of 10 calls in the last 5 min
    expect(record.diagnosis?.summary).to.match(/^calls to checkout-store fail at 80 % \(200 calls in 5 min; \d+(\.\d)? % before\)$/);
    expect(record.recommendation?.type).to.equal('alert');
    expect(record.recommendation?.params).to.deep.include({ reason: 'dependency', dependency: 'checkout-store' });
  });

  it('is named as soon as the calls fail clearly more than they did, against a baseline of none failing', () => {
    expect(first, 'a step naming the dependency').to.not.equal(null);
    expect(first!.record.diagnosis?.summary).to.match(/; 0 % before\)$/);
    // within 5 min of the first failed call
    expect(first!.bucket - FAIL_FROM).to.be.below(20);
  });
});
