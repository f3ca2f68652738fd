import { expect } from 'chai';
import fc from 'fast-check';
import { DecodeError } from '../../../api-server/src/model/records.js';
import { readWriteRequestV1 } from '../../../api-server/src/ingest/remote-write/remote-write-v1-reader.js';
import { toMs, V1_REQUEST } from '../../../api-server/src/ingest/remote-write/remote-write-series.js';

interface Decoded {
  timeseries?: { labels: { name: string; value: string }[]; samples: { value: number; timestamp: number | { toNumber(): number } }[]; exemplars: unknown[]; histograms: unknown[] }[];
}

/** what protobufjs's own decode of the message gives, in the reader's shape */
function reference(bytes: Uint8Array): { labels: [string, string][]; samples: [number, number][]; exemplars: number; histograms: number }[] {
  const message = V1_REQUEST.decode(bytes) as unknown as Decoded;
  return (message.timeseries ?? []).map((s) => ({
    labels: [...new Map(s.labels.map((l) => [l.name, l.value] as const))],
    samples: s.samples.map((x) => [x.value, toMs(x.timestamp)] as [number, number]),
    exemplars: s.exemplars.length,
    histograms: s.histograms.length,
  }));
}

function read(bytes: Uint8Array): ReturnType<typeof reference> {
  return readWriteRequestV1(bytes).map((s) => ({ labels: [...s.labels], samples: s.samples.map((x) => [x.value, toMs(x.timestamp)] as [number, number]), exemplars: s.exemplars, histograms: s.histograms }));
}

const label = fc.record({ name: fc.string({ maxLength: 12 }), value: fc.string({ maxLength: 24 }) });
// timestamps within ±2^53 are read exactly; negative ones are two's complement 10-byte varints
const sample = fc.record({ value: fc.double(), timestamp: fc.oneof(fc.integer({ min: 0, max: 2 ** 45 }), fc.integer({ min: -(2 ** 31), max: -1 }), fc.constant(Number.MAX_SAFE_INTEGER)) });
const exemplar = fc.record({ labels: fc.array(label, { maxLength: 2 }), value: fc.double({ noNaN: true }), timestamp: fc.integer({ min: 0, max: 2 ** 40 }) });
const series = fc.record({
  labels: fc.array(label, { maxLength: 6 }),
  samples: fc.array(sample, { maxLength: 5 }),
  exemplars: fc.array(exemplar, { maxLength: 2 }),
  histograms: fc.array(fc.uint8Array({ maxLength: 6 }), { maxLength: 2 }),
});
const request = fc.record({ timeseries: fc.array(series, { maxLength: 5 }), metadata: fc.array(fc.record({ type: fc.nat(7), metricFamilyName: fc.string({ maxLength: 8 }), help: fc.string({ maxLength: 8 }), unit: fc.string({ maxLength: 4 }) }), { maxLength: 2 }) });

const encode = (message: object): Uint8Array => V1_REQUEST.encode(V1_REQUEST.fromObject(message)).finish();

describe('Remote-Write 1.0 read field by field', () => {
  it('gives what protobufjs decodes, for any WriteRequest it encodes (property)', () => {
    fc.assert(
      fc.property(request, (message) => {
        const bytes = encode(message);
        expect(read(bytes)).to.deep.equal(reference(bytes));
      }),
      { numRuns: 400 },
    );
  });

  it('hand-checked: a label repeated keeps its last value, unknown fields are skipped, timestamps are numbers', () => {
    // series { label{__name__=a}, label{__name__=b}, sample{1.5, 1700000000000}, field 9 varint 7 }
    const lab = (n: string, v: string): number[] => {
      const body = [0x0a, n.length, ...Buffer.from(n), 0x12, v.length, ...Buffer.from(v)];
      return [0x0a, body.length, ...body];
    };
    const ts = 1_700_000_000_000;
    const varint = (n: number): number[] => {
      const out: number[] = [];
      while (n >= 128) {
        out.push((n % 128) | 0x80);
        n = Math.floor(n / 128);
      }
      return [...out, n];
    };
    const sampleBody = [0x09, ...new Uint8Array(new Float64Array([1.5]).buffer), 0x10, ...varint(ts)];
    const seriesBody = [...lab('__name__', 'a'), ...lab('__name__', 'b'), 0x12, sampleBody.length, ...sampleBody, 0x48, 7];
    const [s] = readWriteRequestV1(new Uint8Array([0x0a, seriesBody.length, ...seriesBody]));
    expect([...s!.labels]).to.deep.equal([['__name__', 'b']]);
    expect(s!.samples).to.deep.equal([{ value: 1.5, timestamp: ts }]);
    expect(typeof s!.samples[0]!.timestamp).to.equal('number');
  });

  it('a truncated or overlong body is a DecodeError naming the message; random bytes never throw anything else (property)', () => {
    const bytes = encode({ timeseries: [{ labels: [{ name: '__name__', value: 'cpu' }], samples: [{ value: 1, timestamp: 5 }] }] });
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(() => readWriteRequestV1(bytes.subarray(0, cut)), `cut at ${cut}`).to.throw(DecodeError, 'prometheus.WriteRequest');
    }
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200, size: 'max' }), (random) => {
        try {
          readWriteRequestV1(random);
        } catch (error) {
          expect(error).to.be.instanceOf(DecodeError);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
