import { expect } from 'chai';
import { AnalysisCoreImpl } from '../../../api-server/src/analysis/analysis-core.js';
import { IngestPipeline, type IngestCounters } from '../../../api-server/src/pipeline/ingest-pipeline.js';
import { LocalIngestSink } from '../../../api-server/src/pipeline/ingest-sink.js';

const NOW = 1_700_000_000_000;
const noCounters: IngestCounters = { accepted: () => undefined, dropped: () => undefined };
const metrics = (n: number) => ({
  metrics: Array.from({ length: n }, (_, i) => ({ workload: 'ns/Deployment/a', pod: undefined, name: `m${i}`, value: i, timeMs: NOW })),
  logs: [],
  spans: [],
  rejected: 0,
});

describe('pipeline/ingest-sink: the standalone sink answers from the local pipeline', () => {
  it('answers accepted while the pipeline takes the batch, busy once its queue is full', async () => {
    const pipeline = new IngestPipeline(new AnalysisCoreImpl({ newHexId: () => '000000000000' }), noCounters, () => NOW, 4);
    const sink = new LocalIngestSink(pipeline);
    expect(await sink.accept(metrics(3))).to.equal('accepted');
    expect(await sink.accept(metrics(2))).to.equal('busy');
    expect(pipeline.waiting).to.equal(3);
    pipeline.drain();
    expect(await sink.accept(metrics(4))).to.equal('accepted');
    expect(pipeline.totals.metrics).to.equal(3);
  });
});

describe('pipeline/ingest-sink: the analysis backlog bound', () => {
  const at = (workload: string, bucket: number) => ({ workload, pod: undefined, name: 'cpu_percent', value: 0.5, timeMs: NOW - (NOW % 15_000) - 100 * 15_000 + bucket * 15_000 + 1_000 });
  const batch = (...records: ReturnType<typeof at>[]) => ({ metrics: records, logs: [], spans: [], rejected: 0 });

  it('counts the workload-buckets no step has run (hand-counted through observe, a step in parts, a removal) and refuses whole batches at the bound', async () => {
    const core = new AnalysisCoreImpl({ newHexId: () => '000000000000' });
    const drops: string[] = [];
    const pipeline = new IngestPipeline(core, { accepted: () => undefined, dropped: (r, n) => drops.push(`${r} ${n}`) }, () => NOW, 1_000, 5);
    const sink = new LocalIngestSink(pipeline);
    // a: buckets 0, 1, 2 (two samples in bucket 1); b: buckets 0, 1
    expect(await sink.accept(batch(at('ns/Deployment/a', 0), at('ns/Deployment/a', 1), at('ns/Deployment/a', 1), at('ns/Deployment/a', 2), at('ns/Deployment/b', 0)))).to.equal('accepted');
    pipeline.drain();
    expect(core.waitingBuckets()).to.equal(4);
    expect(await sink.accept(batch(at('ns/Deployment/b', 1)))).to.equal('accepted');
    pipeline.drain();
    expect(core.waitingBuckets()).to.equal(5);
    // at the bound: refused whole, nothing taken, counted once
    expect(await sink.accept(batch(at('ns/Deployment/a', 2), at('ns/Deployment/c', 0)))).to.equal('analysis_backlog');
    expect(pipeline.waiting).to.equal(0);
    expect(drops).to.deep.equal(['analysis_backlog 2']);
    expect(core.workloadKeys()).to.deep.equal(['ns/Deployment/a', 'ns/Deployment/b']);
    // a step in parts: each bucket run leaves the count
    const run = core.beginStep(NOW);
    expect(core.waitingBuckets()).to.equal(5);
    run.advance(2);
    expect(core.waitingBuckets()).to.equal(3);
    expect(await sink.accept(batch(at('ns/Deployment/c', 0)))).to.equal('accepted');
    pipeline.drain();
    expect(core.waitingBuckets()).to.equal(4);
    run.output();
    expect(core.waitingBuckets()).to.equal(1);
    core.removeWorkload('ns/Deployment/c');
    expect(core.waitingBuckets()).to.equal(0);
  });
});
