import { expect } from 'chai';
import fc from 'fast-check';
import { DecodeError } from '../../../api-server/src/model/records.js';
import { readRequestV2 } from '../../../api-server/src/ingest/remote-write/remote-write-v2-reader.js';
import { toMs, V2_REQUEST } from '../../../api-server/src/ingest/remote-write/remote-write-series.js';

type Int64 = number | { toNumber(): number };
interface Decoded {
  symbols?: string[];
  timeseries?: { labelsRefs: number[]; samples: { value: number; timestamp: Int64; startTimestamp?: Int64 }[]; histograms: unknown[]; exemplars: unknown[]; createdTimestamp?: Int64 }[];
}
type Outcome = { series: { labels: [string, string][]; samples: [number, number, number][]; histograms: number; exemplars: number; createdMs: number }[] } | { error: string; field: string | undefined };

/** protobufjs's decode of the message, resolved as the service resolved it before the reader */
function reference(bytes: Uint8Array): Outcome {
  const message = V2_REQUEST.decode(bytes) as unknown as Decoded;
  const symbols = message.symbols ?? [];
  const out = [];
  for (const [i, s] of (message.timeseries ?? []).entries()) {
    const refs = s.labelsRefs;
    const field = `timeseries[${i}].labels_refs`;
    if (refs.length % 2 !== 0) return { error: `${field} has ${refs.length} references; name/value pairs need an even number`, field };
    const labels = new Map<string, string>();
    for (let r = 0; r < refs.length; r += 2) {
      const name = symbols[refs[r]!];
      const value = symbols[refs[r + 1]!];
      if (name === undefined || value === undefined) {
        const at = name === undefined ? r : r + 1;
        return { error: `${field}[${at}] is ${refs[at]}, outside the symbols table of ${symbols.length}`, field };
      }
      labels.set(name, value);
    }
    out.push({ labels: [...labels], samples: s.samples.map((x) => [x.value, toMs(x.timestamp), toMs(x.startTimestamp)] as [number, number, number]), histograms: s.histograms.length, exemplars: s.exemplars.length, createdMs: toMs(s.createdTimestamp) });
  }
  return { series: out };
}

function read(bytes: Uint8Array): Outcome {
  try {
    return {
      series: readRequestV2(bytes).map((s) => ({
        labels: [...s.labels],
        samples: s.samples.map((x) => [x.value, toMs(x.timestamp), toMs(x.startTimestamp)] as [number, number, number]),
        histograms: s.histograms,
        exemplars: s.exemplars,
        createdMs: s.createdMs,
      })),
    };
  } catch (error) {
    if (!(error instanceof DecodeError)) throw error;
    return { error: error.message, field: error.field };
  }
}

const time = fc.oneof(fc.integer({ min: 0, max: 2 ** 45 }), fc.integer({ min: -(2 ** 31), max: -1 }));
const sample = fc.record({ value: fc.double(), timestamp: time, startTimestamp: time });
// references mostly inside a table of up to 8 symbols, sometimes outside it, sometimes an odd count
const series = fc.record({
  labelsRefs: fc.array(fc.nat(9), { maxLength: 7 }),
  samples: fc.array(sample, { maxLength: 4 }),
  histograms: fc.array(fc.record({ timestamp: fc.integer({ min: 0, max: 2 ** 40 }) }), { maxLength: 2 }),
  exemplars: fc.array(fc.record({ labelsRefs: fc.array(fc.nat(5), { maxLength: 2 }), value: fc.double({ noNaN: true }), timestamp: fc.nat() }), { maxLength: 2 }),
  metadata: fc.option(fc.record({ type: fc.nat(7), helpRef: fc.nat(5), unitRef: fc.nat(5) }), { nil: undefined }),
  createdTimestamp: time,
});
const request = fc.record({ symbols: fc.array(fc.string({ maxLength: 10 }), { maxLength: 8 }), timeseries: fc.array(series, { maxLength: 4 }) });
const encode = (message: object): Uint8Array => V2_REQUEST.encode(V2_REQUEST.fromObject(message)).finish();

describe('Remote-Write 2.0 read field by field', () => {
  it('gives what protobufjs decodes, resolved against the symbols, and the same DecodeError for a bad reference (property)', () => {
    fc.assert(
      fc.property(request, (message) => {
        const bytes = encode(message);
        expect(read(bytes)).to.deep.equal(reference(bytes));
      }),
      { numRuns: 500 },
    );
  });

  it('hand-checked: symbols after the series still resolve; unpacked references count as packed ones', () => {
    // timeseries { labels_refs 1 (unpacked), labels_refs 2 (unpacked), sample { value 2, timestamp 1000, start 500 } }, then symbols "", "__name__", "up"
    const sampleBody = [0x09, ...new Uint8Array(new Float64Array([2]).buffer), 0x10, 0xe8, 0x07, 0x18, 0xf4, 0x03];
    const seriesBody = [0x08, 1, 0x08, 2, 0x12, sampleBody.length, ...sampleBody];
    const symbol = (s: string): number[] => [0x22, s.length, ...Buffer.from(s)];
    const bytes = new Uint8Array([0x2a, seriesBody.length, ...seriesBody, ...symbol(''), ...symbol('__name__'), ...symbol('up')]);
    const [s] = readRequestV2(bytes);
    expect([...s!.labels]).to.deep.equal([['__name__', 'up']]);
    expect(s!.samples).to.deep.equal([{ value: 2, timestamp: 1000, startTimestamp: 500 }]);
  });

  it('a body cut inside a field and random bytes are a DecodeError, never another error (property)', () => {
    const bytes = encode({ symbols: ['', '__name__', 'up'], timeseries: [{ labelsRefs: [1, 2], samples: [{ value: 1, timestamp: 5 }] }] });
    // the symbols (2 + 10 + 4 bytes) come first; a cut between two of them is a valid shorter request, a cut inside the series is not
    const seriesAt = 16;
    expect(bytes[seriesAt]).to.equal(0x2a);
    for (let cut = seriesAt + 1; cut < bytes.length; cut++) expect(() => readRequestV2(bytes.subarray(0, cut)), `cut at ${cut}`).to.throw(DecodeError, 'io.prometheus.write.v2.Request');
    expect(() => readRequestV2(bytes.subarray(0, 5)), 'inside the second symbol').to.throw(DecodeError);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200, size: 'max' }), (random) => {
        try {
          readRequestV2(random);
        } catch (error) {
          expect(error).to.be.instanceOf(DecodeError);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
