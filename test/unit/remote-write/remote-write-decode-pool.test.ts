import { expect } from 'chai';
import fc from 'fast-check';
import { compressSync } from 'snappy';
import { DecodeError } from '../../../api-server/src/model/records.js';
import { RemoteWriteDecodePool } from '../../../api-server/src/ingest/remote-write/remote-write-decode-pool.js';
import { identifyBody } from '../../../api-server/src/ingest/remote-write/remote-write-identify.js';
import type { IdentifiedSamples } from '../../../api-server/src/ingest/remote-write/remote-write-samples.js';
import { doubleField, lengthDelimited, varintField } from '../../support/protobuf-wire.js';

const T = 1_700_000_000_000;
const window = { oldestMs: T - 7 * 86_400_000, newestMs: T + 300_000 };

/** a snappy 1.0 WriteRequest of series [labels, [value, timestamp][]] */
function v1(series: [Record<string, string>, [number, number][]][]): Buffer {
  const label = (n: string, v: string) => lengthDelimited(1, Buffer.concat([lengthDelimited(1, n), lengthDelimited(2, v)]));
  const ts = series.map(([labels, samples]) =>
    lengthDelimited(1, Buffer.concat([...Object.entries(labels).map(([n, v]) => label(n, v)), ...samples.map(([v, t]) => lengthDelimited(2, Buffer.concat([doubleField(1, v), varintField(2, t)])))])),
  );
  return compressSync(Buffer.concat(ts));
}

/** the identified samples as plain arrays, sample by sample */
function plain(ids: IdentifiedSamples): unknown {
  const samples = Array.from({ length: ids.count }, (_, i) => [...[...ids.refs.subarray(i * 4, i * 4 + 4)].map((r) => (r < 0 ? null : ids.strings[r])), ids.values[i], ids.times[i], ids.starts[i]]);
  return { samples, written: ids.written, invalid: [ids.invalidValues, ids.invalidTimestamps], rejected: ids.rejected };
}

describe('remote-write decode pool: worker threads answer what the event loop would', () => {
  let pool: RemoteWriteDecodePool;
  before(() => {
    pool = new RemoteWriteDecodePool(2);
  });
  after(async () => {
    await pool.close();
  });

  it('hand-checked request: the workload, pod, name and series key of each stored sample, the counts', async () => {
    const body = v1([
      [{ __name__: 'process_open_fds', namespace: 'ns', deployment: 'api', pod: 'api-0' }, [[3, T], [Number.POSITIVE_INFINITY, T + 1]]],
      [{ __name__: 'http_requests_total', namespace: 'ns', deployment: 'api', instance: 'i:1' }, [[10, T], [12, T * 1000]]],
      [{ job: 'nameless' }, [[1, T]]],
    ]);
    const ids = await pool.identify(body, 'v1', window);
    expect(plain(ids)).to.deep.equal({
      samples: [
        ['ns/Deployment/api', 'api-0', 'process_open_fds', 'ns/Deployment/api|api-0|process_open_fds||', 3, T, 0],
        ['ns/Deployment/api', null, 'http_requests_total', 'ns/Deployment/api||http_requests_total|i:1|', 10, T, 0],
      ],
      written: { samples: 3, histograms: 0, exemplars: 0 }, // 3, 10 and the nameless series' 1 (filtered, not failed)
      invalid: [1, 1], // +Inf; a time in microseconds
      rejected: 3, // the two invalid and the nameless one
    });
  });

  it('a body that is not snappy protobuf is a DecodeError, as on the event loop', async () => {
    let caught: unknown;
    await pool.identify(Buffer.from('not snappy at all'), 'v1', window).catch((e: unknown) => (caught = e));
    expect(caught).to.be.instanceOf(DecodeError);
    expect(() => identifyBody(Buffer.from('not snappy at all'), 'v1', window)).to.throw(DecodeError, (caught as Error).message);
  });

  it('any request: the workers give exactly the event loop`s identified samples (property)', async () => {
    const labels = fc.record({ __name__: fc.constantFrom('process_open_fds', 'node_load1', 'custom', ''), namespace: fc.constantFrom('a', 'b'), deployment: fc.constantFrom('x', 'y'), pod: fc.constantFrom('p0', 'p1') }, { requiredKeys: ['__name__'] });
    const value = fc.oneof(fc.double(), fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY));
    const time = fc.integer({ min: window.oldestMs - 1000, max: window.newestMs + 1000 });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(labels, fc.array(fc.tuple(value, time), { maxLength: 5 })), { maxLength: 8 }), async (series) => {
        const body = v1(series);
        expect(plain(await pool.identify(body, 'v1', window))).to.deep.equal(plain(identifyBody(body, 'v1', window)));
      }),
      { numRuns: 100 },
    );
  });

  it('the jobs of a worker that is gone are decoded on the event loop; none is lost', async () => {
    const small = new RemoteWriteDecodePool(1);
    const body = v1([[{ __name__: 'node_load1', namespace: 'ns', deployment: 'api' }, [[1, T]]]]);
    const jobs = Array.from({ length: 5 }, () => small.identify(body, 'v1', window));
    await small.close();
    const results = await Promise.all(jobs);
    expect(results.map((r) => r.count)).to.deep.equal([1, 1, 1, 1, 1]);
    expect(small.liveWorkers).to.equal(0);
    expect((await small.identify(body, 'v1', window)).count).to.equal(1);
  });
});
