import { expect } from 'chai';
import { AnalysisCoreImpl } from '../../../api-server/src/analysis/analysis-core.js';
import type { DecodedBatch, LogRecord, MetricRecord, SpanRecord } from '../../../api-server/src/model/records.js';
import { FUTURE_TOLERANCE_MS, IngestPipeline, RAW_RETENTION_MS, type IngestCounters } from '../../../api-server/src/pipeline/ingest-pipeline.js';

const NOW = 1_700_000_000_000;
const W = 'shop/Deployment/cart';

/** the real analysis core, noting what reaches it */
class ObservedCore extends AnalysisCoreImpl {
  readonly seen: string[] = [];
  constructor() {
    let n = 0;
    super({ newHexId: () => (n++).toString(16).padStart(12, '0') });
  }
  override observeMetric(r: MetricRecord): void {
    this.seen.push(`metric ${r.name} ${r.timeMs - NOW}`);
    super.observeMetric(r);
  }
  override observeLog(r: LogRecord): void {
    this.seen.push(`log ${r.body} ${r.timeMs - NOW}`);
    super.observeLog(r);
  }
  override observeSpan(r: SpanRecord): void {
    this.seen.push(`span ${r.name} ${r.startMs - NOW}`);
    super.observeSpan(r);
  }
}

class CountingCounters implements IngestCounters {
  readonly counts = new Map<string, number>();
  accepted(source: string, n: number): void {
    this.counts.set(`accepted ${source}`, (this.counts.get(`accepted ${source}`) ?? 0) + n);
  }
  dropped(reason: string, n: number): void {
    this.counts.set(`dropped ${reason}`, (this.counts.get(`dropped ${reason}`) ?? 0) + n);
  }
}

const metric = (name: string, offsetMs: number): MetricRecord => ({ workload: W, pod: undefined, name, value: 1, timeMs: NOW + offsetMs });
const log = (body: string, offsetMs: number): LogRecord => ({ workload: W, pod: undefined, timeMs: NOW + offsetMs, severityNumber: 9, severityText: 'INFO', body });
const span = (name: string, offsetMs: number): SpanRecord => ({
  workload: W,
  service: 'cart',
  traceId: '0af7651916cd43dd8448eb211c80319c',
  spanId: 'b7ad6b7169203331',
  parentSpanId: '',
  name,
  kind: 2,
  startMs: NOW + offsetMs,
  endMs: NOW + offsetMs + 5,
  statusCode: 1,
});
const batch = (part: Partial<DecodedBatch>): DecodedBatch => ({ metrics: [], logs: [], spans: [], rejected: 0, ...part });

function setUp(maxPending?: number): { core: ObservedCore; counters: CountingCounters; pipeline: IngestPipeline } {
  const core = new ObservedCore();
  const counters = new CountingCounters();
  return { core, counters, pipeline: new IngestPipeline(core, counters, () => NOW, maxPending) };
}

describe('pipeline/ingest-pipeline: time range, counters, bounded queue, drain in arrival order', () => {
  it('accepts samples from 7 days back to 5 min ahead, inclusive, and drops the rest by reason', () => {
    const { core, counters, pipeline } = setUp();
    expect(RAW_RETENTION_MS).to.equal(604_800_000);
    expect(FUTURE_TOLERANCE_MS).to.equal(300_000);
    pipeline.offer(
      batch({
        metrics: [metric('oldest', -RAW_RETENTION_MS), metric('too_old', -RAW_RETENTION_MS - 1), metric('newest', FUTURE_TOLERANCE_MS), metric('future', FUTURE_TOLERANCE_MS + 1)],
        logs: [log('old', -RAW_RETENTION_MS - 1), log('ok', 0)],
        spans: [span('ahead', FUTURE_TOLERANCE_MS + 1), span('ok', -1000)],
      }),
    );
    pipeline.drain();
    expect(core.seen).to.deep.equal([`metric oldest ${-RAW_RETENTION_MS}`, `metric newest ${FUTURE_TOLERANCE_MS}`, 'log ok 0', 'span ok -1000']);
    expect(Object.fromEntries(counters.counts)).to.deep.equal({
      'accepted metrics': 2,
      'accepted logs': 1,
      'accepted traces': 1,
      'dropped too_old': 2,
      'dropped in_future': 2,
    });
    expect(pipeline.totals).to.deep.equal({ metrics: 2, logs: 1, traces: 1 });
    expect(core.workloadKeys()).to.include(W);
  });

  it('feeds accepted metric points (and only those) to the raw 15-s buckets', () => {
    const { pipeline } = setUp();
    pipeline.offer(batch({ metrics: [metric('cpu', -20_000), metric('cpu', -RAW_RETENTION_MS - 1)] }));
    pipeline.drain();
    const raw = pipeline.rawPoints.take(true);
    expect(raw.map((p) => [p.metric, p.count])).to.deep.equal([['cpu', 1]]);
  });

  it('counts rejected records as invalid, even in a batch with nothing else', () => {
    const { counters, pipeline } = setUp();
    expect(pipeline.offer(batch({ rejected: 3 }))).to.equal(true);
    expect(pipeline.waiting).to.equal(0);
    expect(counters.counts.get('dropped invalid')).to.equal(3);
  });

  it('refuses a whole batch that would pass maxPendingRecords, takes nothing of it, and counts it', () => {
    const { core, counters, pipeline } = setUp(5);
    expect(pipeline.offer(batch({ metrics: [metric('a', 0), metric('b', 0), metric('c', 0)] }))).to.equal(true);
    expect(pipeline.waiting).to.equal(3);
    expect(pipeline.offer(batch({ logs: [log('x', 0), log('y', 0)] }))).to.equal(true); // 5: at the limit
    expect(pipeline.offer(batch({ spans: [span('s', 0)], rejected: 2 }))).to.equal(false); // 6 > 5
    expect(pipeline.waiting).to.equal(5);
    expect(counters.counts.get('dropped queue_full')).to.equal(1);
    expect(counters.counts.get('dropped invalid')).to.equal(undefined); // the refused batch counts once, as queue_full
    pipeline.drain();
    expect(pipeline.waiting).to.equal(0);
    expect(core.seen).to.deep.equal(['metric a 0', 'metric b 0', 'metric c 0', 'log x 0', 'log y 0']);
    expect(pipeline.offer(batch({ spans: [span('s', 0)] }))).to.equal(true);
    // the tick's slicer sees every request and its records, taken or refused: 4 requests, 3 + 2 + 1 + 1 records
    expect(pipeline.offers).to.equal(4);
    expect(pipeline.offeredRecords).to.equal(7);
  });

  it('drains by itself on the next turn of the event loop, in arrival order', async () => {
    const { core, pipeline } = setUp();
    pipeline.offer(batch({ metrics: [metric('first', 0)] }));
    pipeline.offer(batch({ logs: [log('second', 0)] }));
    expect(core.seen).to.deep.equal([]);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(core.seen).to.deep.equal(['metric first 0', 'log second 0']);
    expect(pipeline.waiting).to.equal(0);
  });
});
