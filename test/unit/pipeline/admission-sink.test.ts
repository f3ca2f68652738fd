import { expect } from 'chai';
import { AdmissionSink, type Refusal } from '../../../api-server/src/pipeline/admission-sink.js';
import type { IngestOutcome, IngestSink } from '../../../api-server/src/pipeline/ingest-sink.js';
import type { DecodedBatch, MetricRecord } from '../../../api-server/src/model/records.js';

const metric = (workload: string, value: number): MetricRecord => ({ workload, pod: undefined, name: 'cpu', value, timeMs: 1000 });

class Recorder implements IngestSink {
  readonly batches: DecodedBatch[] = [];
  constructor(private readonly outcome: IngestOutcome = 'accepted') {}
  accept(batch: DecodedBatch): Promise<IngestOutcome> {
    this.batches.push(batch);
    return Promise.resolve(this.outcome);
  }
}

describe('AdmissionSink (the high-water guard on ingest)', () => {
  const known = new Set(['ns/Deployment/a']);

  it('below the mark passes the batch untouched', async () => {
    const inner = new Recorder();
    const sink = new AdmissionSink(inner, { refusingNewWorkloads: () => false }, { known: (w) => known.has(w), refused: () => expect.fail('nothing is refused') });
    const batch: DecodedBatch = { metrics: [metric('ns/Deployment/b', 1)], logs: [], spans: [], rejected: 0 };
    expect(await sink.accept(batch)).to.equal('accepted');
    expect(inner.batches[0]).to.equal(batch);
  });

  it('above it takes the known workloads records, refuses the new ones and names them', async () => {
    const inner = new Recorder();
    const refusals: Refusal[] = [];
    const sink = new AdmissionSink(inner, { refusingNewWorkloads: () => true }, { known: (w) => known.has(w), refused: (r) => refusals.push(r) });
    const batch: DecodedBatch = { metrics: [metric('ns/Deployment/a', 1), metric('ns/Deployment/b', 2), metric('ns/Deployment/c', 3), metric('ns/Deployment/b', 4)], logs: [], spans: [], rejected: 1 };
    expect(await sink.accept(batch)).to.equal('memory_high_water');
    expect(inner.batches).to.have.length(1);
    expect(inner.batches[0]!.metrics.map((m) => m.value)).to.deep.equal([1]);
    expect(inner.batches[0]!.rejected).to.equal(1);
    expect(refusals).to.deep.equal([{ workloads: ['ns/Deployment/b', 'ns/Deployment/c'], records: 3 }]);
  });

  it('above it, a batch of known workloads only is accepted; a full queue stays busy and refuses nothing', async () => {
    const sink = new AdmissionSink(new Recorder(), { refusingNewWorkloads: () => true }, { known: (w) => known.has(w), refused: () => expect.fail('nothing is refused') });
    expect(await sink.accept({ metrics: [metric('ns/Deployment/a', 1)], logs: [], spans: [], rejected: 0 })).to.equal('accepted');
    const busy = new AdmissionSink(new Recorder('busy'), { refusingNewWorkloads: () => true }, { known: (w) => known.has(w), refused: () => expect.fail('busy: nothing counted') });
    expect(await busy.accept({ metrics: [metric('ns/Deployment/a', 1), metric('ns/Deployment/b', 1)], logs: [], spans: [], rejected: 0 })).to.equal('busy');
  });
});
