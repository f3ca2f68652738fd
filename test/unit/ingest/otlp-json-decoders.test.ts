/**
 * The OTLP JSON decoders (ingest/otlp-json/otlp-json-decoders.ts): each signal's records with
 * hand-checked times and values, and the envelope: a request of another signal on a path (an OTLP
 * metrics body posted to /v1/logs) is a 400 naming the envelope and the right path, not an empty
 * request answered 200 with nothing stored. An empty object stays a valid empty request.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import {
  decodeLogsDocument,
  decodeMetricsDocument,
  decodeTracesDocument,
} from '../../../api-server/src/ingest/otlp-json/otlp-json-decoders.js';
import { DecodeError } from '../../../api-server/src/model/records.js';
import { decodeRefusal } from '../../support/decode-refusal.js';

const METRICS = { resourceMetrics: [{ scopeMetrics: [] }] };
const LOGS = { resourceLogs: [{ scopeLogs: [] }] };
const SPANS = { resourceSpans: [{ scopeSpans: [] }] };

const refusal = decodeRefusal;

describe('OTLP JSON envelope: a body of another signal', () => {
  it('metrics posted to /v1/logs: 400 naming resourceLogs and /v1/metrics', () => {
    const e = refusal(() => decodeLogsDocument(METRICS));
    expect(e.message).to.equal('body holds resourceMetrics, not resourceLogs: send it to /v1/metrics');
    expect(e.field).to.equal('resourceLogs');
  });

  it('logs posted to /v1/traces and spans posted to /v1/metrics name their own paths', () => {
    expect(refusal(() => decodeTracesDocument(LOGS)).message).to.contain('send it to /v1/logs');
    expect(refusal(() => decodeMetricsDocument(SPANS)).message).to.contain('send it to /v1/traces');
  });

  it('an empty object is still an empty request of every signal', () => {
    expect(decodeMetricsDocument({}).metrics).to.have.length(0);
    expect(decodeLogsDocument({}).logs).to.have.length(0);
    expect(decodeTracesDocument({}).spans).to.have.length(0);
  });

  it('each signal on its own path decodes', () => {
    expect(() => decodeMetricsDocument(METRICS)).to.not.throw();
    expect(() => decodeLogsDocument(LOGS)).to.not.throw();
    expect(() => decodeTracesDocument(SPANS)).to.not.throw();
  });
});

const RESOURCE = {
  attributes: [
    { key: 'k8s.namespace.name', value: { stringValue: 'shop' } },
    { key: 'k8s.deployment.name', value: { stringValue: 'cart' } },
    { key: 'k8s.pod.name', value: { stringValue: 'cart-1' } },
  ],
};
// 1795755600 s = 2026-11-27T05:00:00Z; + 250 ms
const T_NS = '1795755600250000000';
const T_MS = 1795755600250;

describe('OTLP JSON decoders: records', () => {
  it('metrics: gauge and sum values, a histogram as its mean (sum / count), time from nanoseconds', () => {
    const batch = decodeMetricsDocument({
      resourceMetrics: [
        {
          resource: RESOURCE,
          scopeMetrics: [
            {
              metrics: [
                { name: 'cpu', gauge: { dataPoints: [{ timeUnixNano: T_NS, asDouble: 0.42 }] } },
                { name: 'requests', sum: { dataPoints: [{ timeUnixNano: T_NS, asInt: 17 }] } },
                { name: 'latency', histogram: { dataPoints: [{ timeUnixNano: T_NS, sum: 9, count: 4 }] } },
                { name: 'empty', histogram: { dataPoints: [{ timeUnixNano: T_NS, sum: 0, count: 0 }] } },
              ],
            },
          ],
        },
      ],
    });
    expect(batch.metrics.map((m) => [m.workload, m.pod, m.name, m.value, m.timeMs])).to.deep.equal([
      ['shop/Deployment/cart', 'cart-1', 'cpu', 0.42, T_MS],
      ['shop/Deployment/cart', 'cart-1', 'requests', 17, T_MS],
      ['shop/Deployment/cart', 'cart-1', 'latency', 2.25, T_MS],
    ]);
    expect(batch.rejected).to.equal(0);
  });

  it('metrics: a point value that is not a number is refused naming its path', () => {
    const e = refusal(() =>
      decodeMetricsDocument({ resourceMetrics: [{ resource: RESOURCE, scopeMetrics: [{ metrics: [{ name: 'cpu', gauge: { dataPoints: [{ timeUnixNano: T_NS, asDouble: 'high' }] } }] }] }] }),
    );
    expect(e.field).to.equal('resourceMetrics[0].scopeMetrics[0].metrics[0].gauge.dataPoints[0].asDouble');
  });

  it('logs: severity, text and body; a record without a time is refused naming it', () => {
    const batch = decodeLogsDocument({
      resourceLogs: [{ resource: RESOURCE, scopeLogs: [{ logRecords: [{ timeUnixNano: T_NS, severityNumber: 17, severityText: 'ERROR', body: { stringValue: 'payment failed' } }] }] }],
    });
    expect(batch.logs).to.deep.equal([{ workload: 'shop/Deployment/cart', pod: 'cart-1', timeMs: T_MS, severityNumber: 17, severityText: 'ERROR', body: 'payment failed' }]);
    const e = refusal(() => decodeLogsDocument({ resourceLogs: [{ resource: RESOURCE, scopeLogs: [{ logRecords: [{ body: { stringValue: 'x' } }] }] }] }));
    expect(e.field).to.equal('resourceLogs[0].scopeLogs[0].logRecords[0].timeUnixNano');
  });

  it('traces: ids, parent, kind, status and times; the service is the workload name without service.name', () => {
    const batch = decodeTracesDocument({
      resourceSpans: [
        {
          resource: RESOURCE,
          scopeSpans: [
            {
              spans: [
                {
                  traceId: '0af7651916cd43dd8448eb211c80319c',
                  spanId: 'b7ad6b7169203331',
                  parentSpanId: '',
                  name: 'POST /checkout',
                  kind: 2,
                  startTimeUnixNano: T_NS,
                  endTimeUnixNano: '1795755600500000000',
                  status: { code: 2 },
                },
              ],
            },
          ],
        },
      ],
    });
    expect(batch.spans).to.have.length(1);
    expect(batch.spans[0]).to.include({ workload: 'shop/Deployment/cart', service: 'cart', traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', parentSpanId: '', name: 'POST /checkout', kind: 2, startMs: T_MS, endMs: 1795755600500, statusCode: 2 });
    const e = refusal(() =>
      decodeTracesDocument({ resourceSpans: [{ resource: RESOURCE, scopeSpans: [{ spans: [{ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', startTimeUnixNano: T_NS, endTimeUnixNano: T_NS, status: { code: 3 } }] }] }] }),
    );
    expect(e.field).to.equal('resourceSpans[0].scopeSpans[0].spans[0].status.code');
  });

  it('any JSON document decodes or is refused with a DecodeError, for every signal (property)', () => {
    const shaped = fc.jsonValue().map((v) => ({ resourceMetrics: [{ resource: RESOURCE, scopeMetrics: [{ metrics: [v] }] }], resourceLogs: [{ scopeLogs: [{ logRecords: [v] }] }], resourceSpans: [{ scopeSpans: [{ spans: [v] }] }] }));
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), shaped), (doc) => {
        for (const decode of [decodeMetricsDocument, decodeLogsDocument, decodeTracesDocument]) {
          try {
            decode(doc as Parameters<typeof decode>[0]);
          } catch (e) {
            if (!(e instanceof DecodeError)) throw e;
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});
