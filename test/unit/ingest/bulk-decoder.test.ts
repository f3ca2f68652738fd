/**
 * The Elasticsearch-style bulk decoder (ingest/bulk/bulk-decoder.ts): action and document pairs
 * become log records with Elasticsearch's per-item answer; an unusable document fails its own item
 * (400) while the others are kept; a line that is not JSON refuses the whole body naming the line.
 * Property: any body decodes or is refused with a DecodeError, never another exception, and the
 * answer has one item per action line.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { BulkDecoder } from '../../../api-server/src/ingest/bulk/bulk-decoder.js';
import { DecodeError } from '../../../api-server/src/model/records.js';
import { decodeRefusal } from '../../support/decode-refusal.js';

const decoder = new BulkDecoder();
const decode = (text: string, params: Record<string, string> = {}) =>
  decoder.decode({ body: Buffer.from(text), contentType: 'application/x-ndjson', contentEncoding: '', params });
const ndjson = (...lines: unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

interface Item {
  status: number;
  _index: string;
  error?: { reason: string };
}
const itemsOf = (body: unknown): Item[] =>
  (body as { items: Record<string, Item>[] }).items.map((i) => Object.values(i)[0]!);

const refusal = (text: string): DecodeError => decodeRefusal(() => decode(text));

describe('bulk decoder', () => {
  it('reads ECS documents, nested or dotted, into log records with a 201 item each', () => {
    const result = decode(
      ndjson(
        { index: { _index: 'logs-shop' } },
        { '@timestamp': '2026-11-27T05:00:00.250Z', message: 'cart emptied', 'log.level': 'warn', kubernetes: { namespace: 'shop', deployment: { name: 'cart' }, pod: { name: 'cart-1' } } },
        { create: {} },
        { '@timestamp': 1795755600000, log: 'paid', level: 'info', 'kubernetes.namespace': 'shop', 'kubernetes.deployment.name': 'cart' },
      ),
      { index: 'from-path' },
    );
    expect(result.status).to.equal(200);
    expect((result.responseBody as { errors: boolean }).errors).to.equal(false);
    expect(itemsOf(result.responseBody).map((i) => [i.status, i._index])).to.deep.equal([
      [201, 'logs-shop'],
      [201, 'from-path'],
    ]);
    // 2026-11-27T05:00:00.250Z = 1 795 755 600 250 ms (2025-11-27T05:00Z is 1 764 219 600 s, plus 365 days of 86 400 s)
    expect(result.batch.logs.map((l) => [l.workload, l.pod, l.timeMs, l.severityText, l.body])).to.deep.equal([
      ['shop/Deployment/cart', 'cart-1', 1795755600250, 'warn', 'cart emptied'],
      ['shop/Deployment/cart', undefined, 1795755600000, 'info', 'paid'],
    ]);
  });

  it('fails only the item whose document is unusable (not an object, a bad @timestamp, a host that is no key)', () => {
    const result = decode(
      ndjson(
        { index: {} },
        [1, 2],
        { index: {} },
        { '@timestamp': 'yesterday', message: 'x', 'kubernetes.namespace': 'shop', 'kubernetes.deployment.name': 'cart' },
        { index: {} },
        { message: 'y', host: 'a/b/c/d' },
        { index: {} },
        { '@timestamp': 0, message: 'kept', 'kubernetes.namespace': 'shop', 'kubernetes.deployment.name': 'cart' },
      ),
    );
    expect((result.responseBody as { errors: boolean }).errors).to.equal(true);
    expect(itemsOf(result.responseBody).map((i) => [i.status, i.error?.reason])).to.deep.equal([
      [400, 'the document must be a JSON object'],
      [400, '@timestamp is not a date'],
      [400, 'host is not a workload key or host name'],
      [201, undefined],
    ]);
    expect(result.batch.rejected).to.equal(3);
    expect(result.batch.logs.map((l) => l.body)).to.deep.equal(['kept']);
  });

  it('refuses the whole body when a line is not JSON, naming the line', () => {
    expect(refusal('{"index":{}}\n{"message": "x",}\n').field).to.equal('line 2');
    expect(refusal('{"index":{}\n{}\n').field).to.equal('line 1');
    expect(refusal('{"delete":{}}\n{}\n').message).to.equal('line 1: the action must be index or create');
    expect(refusal('\n\n').message).to.contain('body is empty');
  });

  it('any body decodes or is refused with a DecodeError, with one item per action (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.json(), fc.constant('{"index":{}}')), { maxLength: 8 }), (lines) => {
        const text = lines.join('\n');
        try {
          const result = decode(text);
          const actions = text.split('\n').filter((l) => l.trim() !== '').filter((_, i) => i % 2 === 0).length;
          expect(itemsOf(result.responseBody)).to.have.length(actions);
        } catch (e) {
          if (!(e instanceof DecodeError)) throw e;
        }
      }),
      { numRuns: 500 },
    );
  });
});
