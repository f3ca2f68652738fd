/**
 * The OTLP JSON decoders' envelope: a request of another signal on a path (an OTLP metrics body
 * posted to /v1/logs) is a 400 naming the envelope and the right path, not an empty request
 * answered 200 with nothing stored. An empty object stays a valid empty request.
 */
import { expect } from 'chai';
import {
  decodeLogsDocument,
  decodeMetricsDocument,
  decodeTracesDocument,
} from '../../../api-server/src/ingest/otlp-json/otlp-json-decoders.js';
import { DecodeError } from '../../../api-server/src/model/records.js';

const METRICS = { resourceMetrics: [{ scopeMetrics: [] }] };
const LOGS = { resourceLogs: [{ scopeLogs: [] }] };
const SPANS = { resourceSpans: [{ scopeSpans: [] }] };

function refusal(decode: () => unknown): DecodeError {
  try {
    decode();
  } catch (e) {
    if (e instanceof DecodeError) return e;
    throw e;
  }
  throw new Error('decoded without an error');
}

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
