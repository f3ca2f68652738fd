import { expect } from 'chai';
import fc from 'fast-check';
import { seriesOfV1, seriesOfV2, toMs } from '../../../api-server/src/ingest/remote-write/remote-write-series.js';
import { DecodeError } from '../../../api-server/src/model/records.js';
import { doubleField, lengthDelimited, packedField, varintField } from '../../support/protobuf-wire.js';

/** a 2.0 request from a symbols table and series of [label refs, [value, timestamp, start?][]] */
function v2(symbols: string[], series: [number[], [number, number, number?][]][]): Buffer {
  return Buffer.concat([
    ...symbols.map((s) => lengthDelimited(4, s)),
    ...series.map(([refs, samples]) =>
      lengthDelimited(5, Buffer.concat([packedField(1, refs), ...samples.map(([v, t, st]) => lengthDelimited(2, Buffer.concat([doubleField(1, v), varintField(2, t), ...(st === undefined ? [] : [varintField(3, st)])])))])),
    ),
  ]);
}

describe('remote-write series: 1.0 and 2.0 wire messages to one shape', () => {
  it('2.0: label references resolve through the symbols table; samples keep value, timestamp and start timestamp', () => {
    const bytes = v2(['', '__name__', 'up', 'job', 'node'], [[[1, 2, 3, 4], [[1, 1_700_000_000_000, 1_699_999_000_000], [0, 1_700_000_015_000]]]]);
    const [s] = seriesOfV2(bytes);
    expect([...s!.labels]).to.deep.equal([['__name__', 'up'], ['job', 'node']]);
    expect(s!.samples.map((x) => [x.value, toMs(x.timestamp), toMs(x.startTimestamp)])).to.deep.equal([
      [1, 1_700_000_000_000, 1_699_999_000_000],
      [0, 1_700_000_015_000, 0],
    ]);
    expect([s!.histograms, s!.exemplars, s!.createdMs]).to.deep.equal([0, 0, 0]);
  });

  it('2.0: an odd number of references or one outside the table is a DecodeError naming labels_refs', () => {
    for (const refs of [[1, 2, 3], [1, 9]]) {
      const decode = () => seriesOfV2(v2(['', '__name__', 'up', 'job'], [[refs, []]]));
      expect(decode).to.throw(DecodeError).with.property('field', 'timeseries[0].labels_refs');
    }
  });

  it('1.0: labels as name/value messages, exemplars and histograms counted', () => {
    const label = (n: string, v: string) => lengthDelimited(1, Buffer.concat([lengthDelimited(1, n), lengthDelimited(2, v)]));
    const series = lengthDelimited(1, Buffer.concat([label('__name__', 'x'), lengthDelimited(2, Buffer.concat([doubleField(1, 2.5), varintField(2, 42)])), lengthDelimited(3, doubleField(2, 1)), lengthDelimited(4, Buffer.alloc(0))]));
    const [s] = seriesOfV1(series);
    expect(s!.labels.get('__name__')).to.equal('x');
    expect([s!.samples[0]!.value, toMs(s!.samples[0]!.timestamp), s!.exemplars, s!.histograms]).to.deep.equal([2.5, 42, 1, 1]);
  });

  it('2.0: any label set and samples encoded by hand come back exactly (property)', () => {
    const label = fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ minLength: 1, maxLength: 8 }));
    const sample = fc.tuple(fc.double({ noNaN: true }), fc.integer({ min: 0, max: 2 ** 52 }), fc.option(fc.integer({ min: 1, max: 2 ** 52 }), { nil: undefined }));
    fc.assert(
      fc.property(fc.uniqueArray(label, { selector: ([n]) => n, maxLength: 6 }), fc.array(sample, { maxLength: 5 }), (labels, samples) => {
        const symbols = [''];
        const ref = (s: string) => (symbols.includes(s) ? symbols.indexOf(s) : symbols.push(s) - 1);
        const refs = labels.flatMap(([n, v]) => [ref(n), ref(v)]);
        const [s] = seriesOfV2(v2(symbols, [[refs, samples]]));
        expect([...s!.labels]).to.deep.equal(labels);
        expect(s!.samples.map((x) => [x.value, toMs(x.timestamp), toMs(x.startTimestamp) || undefined])).to.deep.equal(samples.map(([v, t, st]) => [v, t, st]));
      }),
      { numRuns: 300 },
    );
  });

  it('random bytes either decode or are a DecodeError, never another error (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200, size: 'max' }), (bytes) => {
        for (const decode of [seriesOfV1, seriesOfV2]) {
          try {
            decode(Buffer.from(bytes));
          } catch (error) {
            expect(error).to.be.instanceOf(DecodeError);
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});
