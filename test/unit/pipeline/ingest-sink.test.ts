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
