/**
 * gRPC ingest messages to records (ingest/grpc/grpc-records.ts): the OTLP/gRPC messages converted
 * to the OTLP/JSON shape (bytes → hex, int64 strings → numbers only for intValue), and Faultline's
 * own IngestService points, lines and spans with their identity, times and validation.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { logsFromIngest, metricsFromIngest, spansFromIngest, toOtlpJsonShape } from '../../../../api-server/src/ingest/grpc/grpc-records.js';
import { DecodeError } from '../../../../api-server/src/model/records.js';
import { decodeRefusal } from '../../../support/decode-refusal.js';

const refusal = decodeRefusal;

describe('gRPC ingest messages to records', () => {
  it('converts proto-loader output to the OTLP/JSON shape: bytes to hex, an intValue string to a number, other longs kept', () => {
    const shaped = toOtlpJsonShape({
      traceId: Buffer.from([0x0a, 0xf7, 0x65, 0x19]),
      attributes: [{ key: 'pid', value: { intValue: '23640' } }],
      timeUnixNano: '1795755600250000000',
    });
    expect(shaped).to.deep.equal({ traceId: '0af76519', attributes: [{ key: 'pid', value: { intValue: 23640 } }], timeUnixNano: '1795755600250000000' });
  });

  it('points: the workload key of the source, a pod label, the value and time; a source whose key is no workload key is rejected', () => {
    const batch = metricsFromIngest([
      { source: { workload: 'shop/Deployment/cart', labels: { pod: 'cart-1' } }, name: 'cpu', value: 0.42, timeUnixMs: '1795755600250' },
      { source: { labels: { namespace: 'shop', deployment: 'api' } }, name: 'memory', value: 0.5, timeUnixMs: 1795755600000 },
      { source: { workload: 'a/b/c/d' }, name: 'cpu', value: 1, timeUnixMs: 1 },
    ]);
    expect(batch.metrics.map((m) => [m.workload, m.pod, m.name, m.value, m.timeMs])).to.deep.equal([
      ['shop/Deployment/cart', 'cart-1', 'cpu', 0.42, 1795755600250],
      ['shop/Deployment/api', undefined, 'memory', 0.5, 1795755600000],
    ]);
    expect(batch.rejected).to.equal(1);
  });

  it('points: a missing name or a value that is not finite is refused naming the point', () => {
    expect(refusal(() => metricsFromIngest([{ source: { workload: 'a/Deployment/b' }, value: 1 }])).field).to.equal('points[0].name');
    expect(refusal(() => metricsFromIngest([{ source: { workload: 'a/Deployment/b' }, name: 'x', value: 1 }, { source: { workload: 'a/Deployment/b' }, name: 'x', value: 'NaN' }])).field).to.equal('points[1].value');
  });

  it('lines: severity, text and body kept', () => {
    const batch = logsFromIngest([{ source: { workload: 'shop/Deployment/cart' }, timeUnixMs: '1795755600250', severityNumber: 17, severityText: 'ERROR', body: 'payment failed' }]);
    expect(batch.logs).to.deep.equal([{ workload: 'shop/Deployment/cart', pod: undefined, timeMs: 1795755600250, severityNumber: 17, severityText: 'ERROR', body: 'payment failed' }]);
  });

  it('spans: ids lower-cased, the service defaulting to the workload name; bad ids and status codes refused by field', () => {
    const batch = spansFromIngest([
      { source: { workload: 'shop/Deployment/cart' }, traceId: '0AF7651916CD43DD8448EB211C80319C', spanId: 'B7AD6B7169203331', name: 'GET /', kind: 2, startUnixMs: '1795755600250', endUnixMs: '1795755600500', statusCode: 2 },
    ]);
    expect(batch.spans[0]).to.include({ workload: 'shop/Deployment/cart', service: 'cart', traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', parentSpanId: '', startMs: 1795755600250, endMs: 1795755600500, statusCode: 2 });
    const ok = { source: { workload: 'a/Deployment/b' }, traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' };
    expect(refusal(() => spansFromIngest([{ ...ok, traceId: 'xyz' }])).field).to.equal('spans[0].trace_id');
    expect(refusal(() => spansFromIngest([{ ...ok, spanId: '12' }])).field).to.equal('spans[0].span_id');
    expect(refusal(() => spansFromIngest([{ ...ok, parentSpanId: 'zz' }])).field).to.equal('spans[0].parent_span_id');
    expect(refusal(() => spansFromIngest([{ ...ok, statusCode: 3 }])).field).to.equal('spans[0].status_code');
  });

  it('any message list decodes or is refused with a DecodeError (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 5 }), (items) => {
        for (const decode of [metricsFromIngest, logsFromIngest, spansFromIngest]) {
          try {
            decode(items.map((v) => (typeof v === 'object' && v !== null ? v : { source: { workload: 'a/Deployment/b' }, name: 'x', value: v })));
          } catch (e) {
            if (!(e instanceof DecodeError)) throw e;
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
