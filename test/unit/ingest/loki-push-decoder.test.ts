/**
 * The Loki push decoder (ingest/loki/loki-push-decoder.ts): streams' labels give the workload and
 * the level, each value's decimal nanoseconds give its time (hand-checked below), a stream with no
 * workload counts its lines as rejected, and a malformed body is a DecodeError naming the field.
 * Property: any body decodes or is refused with a DecodeError, never another exception.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { LokiPushDecoder } from '../../../api-server/src/ingest/loki/loki-push-decoder.js';
import { DecodeError } from '../../../api-server/src/model/records.js';
import { decodeRefusal } from '../../support/decode-refusal.js';

const decoder = new LokiPushDecoder();
const decode = (body: unknown) =>
  decoder.decode({ body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)), contentType: 'application/json', contentEncoding: '', params: {} });

const refusal = (body: unknown): DecodeError => decodeRefusal(() => decode(body));

describe('Loki push decoder', () => {
  it('turns each value into a log record of the stream workload, time from nanoseconds, level from the labels or the metadata', () => {
    const result = decode({
      streams: [
        {
          stream: { namespace: 'shop', app: 'cart', pod: 'cart-7d9f-x2', level: 'warn' },
          values: [
            ['1700000000123456789', 'slow checkout'],
            ['1700000000500000000', 'payment failed', { level: 'error' }],
          ],
        },
      ],
    });
    expect(result.status).to.equal(204);
    expect(result.batch.rejected).to.equal(0);
    const logs = result.batch.logs;
    expect(logs).to.have.length(2);
    // 1700000000123456789 ns = 1700000000123 ms + 456789 ns = 1700000000123.456789 ms
    expect(logs[0]!.timeMs).to.be.closeTo(1700000000123.456789, 1e-3);
    expect(logs[0]).to.include({ severityText: 'warn', body: 'slow checkout' });
    expect(logs[1]).to.include({ timeMs: 1700000000500, severityText: 'error', body: 'payment failed' });
    // no controller label: the app names a host-kind workload in the stream's namespace
    expect(logs.map((l) => [l.workload, l.pod])).to.deep.equal([
      ['shop/host/cart', 'cart-7d9f-x2'],
      ['shop/host/cart', 'cart-7d9f-x2'],
    ]);
  });

  it('counts the lines of a stream whose host is no workload key as rejected, keeping the others', () => {
    const result = decode({
      streams: [
        { stream: { host: 'a/b/c/d' }, values: [['1', 'a'], ['2', 'b']] },
        { stream: { namespace: 'shop', app: 'cart' }, values: [['3', 'c']] },
      ],
    });
    expect(result.batch.rejected).to.equal(2);
    expect(result.batch.logs.map((l) => l.body)).to.deep.equal(['c']);
  });

  it('refuses a time that is not decimal nanoseconds, naming the value', () => {
    const e = refusal({ streams: [{ stream: { namespace: 'shop', app: 'cart' }, values: [['12.5', 'x']] }] });
    expect(e.field).to.equal('streams[0].values[0][0]');
    expect(e.message).to.contain('decimal string of Unix nanoseconds');
  });

  it('refuses a body without streams, naming the field', () => {
    expect(refusal({}).field).to.equal('streams');
    expect(refusal({ streams: [{ values: [['1', 2]] }] }).field).to.match(/^streams\[0\]\.values\[0\]/);
  });

  it('refuses a body that is not JSON with a DecodeError', () => {
    expect(refusal('{"streams": [')).to.be.instanceOf(DecodeError);
  });

  it('any body decodes or is refused with a DecodeError (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify({ streams: [{ stream: { namespace: 'a', app: 'b' }, values: [v] }] }))), (body) => {
        try {
          decode(body);
        } catch (e) {
          if (!(e instanceof DecodeError)) throw e;
        }
      }),
      { numRuns: 500 },
    );
  });
});
