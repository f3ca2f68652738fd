import { expect } from 'chai';
import fc from 'fast-check';
import { decodeOtlpExport } from '../../../api-server/src/ingest/otlp-proto/otlp-export-decoder.js';
import { decodeExportResponse, decodeOtlpProtobuf, decodeStatus, encodeExportResponse, encodeStatus } from '../../../api-server/src/ingest/otlp-proto/otlp-proto-messages.js';
import { DecodeError } from '../../../api-server/src/model/records.js';
import { doubleField, lengthDelimited, varintField } from '../../support/protobuf-wire.js';

const fixed64 = (field: number, n: bigint): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(n, 0);
  return Buffer.concat([Buffer.from([(field << 3) | 1]), b]);
};
const keyValue = (key: string, value: Buffer) => lengthDelimited(1, Buffer.concat([lengthDelimited(1, key), lengthDelimited(2, value)]));
const resource = (ns: string, deployment: string) =>
  lengthDelimited(1, Buffer.concat([keyValue('k8s.namespace.name', lengthDelimited(1, ns)), keyValue('k8s.deployment.name', lengthDelimited(1, deployment)), keyValue('process.pid', varintField(3, 23640))]));

describe('OTLP protobuf messages (field numbers of the published protocol, encoded by hand)', () => {
  it('a metrics request: fixed64 times as decimal strings, int attributes as numbers, records as from JSON', () => {
    const t = 1_700_000_000_123_456_789n;
    // NumberDataPoint: time_unix_nano = 3 (fixed64), as_double = 4; Gauge.data_points = 1; Metric.name = 1, gauge = 5
    const metric = lengthDelimited(2, Buffer.concat([lengthDelimited(1, 'cpu_percent'), lengthDelimited(5, lengthDelimited(1, Buffer.concat([fixed64(3, t), doubleField(4, 0.25)])))]));
    const request = lengthDelimited(1, Buffer.concat([resource('shop', 'cart'), lengthDelimited(2, metric)]));
    const doc = decodeOtlpProtobuf('metrics', request) as { resourceMetrics: { resource: { attributes: { value: unknown }[] }; scopeMetrics: { metrics: { gauge: { dataPoints: { timeUnixNano: string }[] } }[] }[] }[] };
    expect(doc.resourceMetrics[0]!.resource.attributes[2]!.value).to.deep.equal({ intValue: 23640 });
    expect(doc.resourceMetrics[0]!.scopeMetrics[0]!.metrics[0]!.gauge.dataPoints[0]!.timeUnixNano).to.equal('1700000000123456789');
    const batch = decodeOtlpExport('metrics', 'protobuf', request);
    expect(batch.metrics).to.deep.equal([{ workload: 'shop/Deployment/cart', pod: undefined, name: 'cpu_percent', value: 0.25, timeMs: 1_700_000_000_123.4568 }]);
  });

  it('a span: bytes ids become lower-case hex', () => {
    // Span: trace_id = 1, span_id = 2, name = 5, kind = 6, start = 7, end = 8 (fixed64)
    const span = Buffer.concat([lengthDelimited(1, Buffer.alloc(16, 0xab)), lengthDelimited(2, Buffer.alloc(8, 0x0c)), lengthDelimited(5, 'GET /'), varintField(6, 2), fixed64(7, 1_000_000n), fixed64(8, 3_000_000n)]);
    const request = lengthDelimited(1, Buffer.concat([resource('shop', 'cart'), lengthDelimited(2, lengthDelimited(2, span))]));
    const [s] = decodeOtlpExport('traces', 'protobuf', request).spans;
    expect([s!.traceId, s!.spanId, s!.kind, s!.startMs, s!.endMs]).to.deep.equal(['ab'.repeat(16), '0c'.repeat(8), 2, 1, 3]);
  });

  it('responses: partial_success unset when nothing was rejected; Status round-trips', () => {
    expect(encodeExportResponse('logs', undefined)).to.have.length(0);
    expect(decodeExportResponse('logs', encodeExportResponse('logs', { rejected: 3, errorMessage: 'why' }))).to.deep.equal({ partialSuccess: { rejectedLogRecords: 3, errorMessage: 'why' } });
    expect(decodeStatus(encodeStatus(3, 'bad'))).to.deep.equal({ code: 3, message: 'bad' });
  });

  it('random bytes either decode or are a DecodeError, never another error (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300, size: 'max' }), fc.constantFrom('metrics', 'logs', 'traces' as const), (bytes, signal) => {
        try {
          decodeOtlpExport(signal, 'protobuf', Buffer.from(bytes));
        } catch (error) {
          expect(error).to.be.instanceOf(DecodeError);
        }
      }),
      { numRuns: 500 },
    );
  });
});
