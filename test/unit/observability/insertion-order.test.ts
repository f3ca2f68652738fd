import { expect } from 'chai';
import fc from 'fast-check';
import { InsertionOrder } from '../../../api-server/src/observability/insertion-order.js';

describe('InsertionOrder: the order of an object\'s string keys over integer ids', () => {
  it("keeps the order an object keyed as prom-client's Gauge.hashMap lists its keys (any adds and deletes)", () => {
    const op = fc.record({ add: fc.boolean(), id: fc.nat({ max: 40 }) });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200, size: 'max' }), (ops) => {
        const order = new InsertionOrder();
        const object: Record<string, true> = {};
        for (const { add, id } of ops) {
          // prom-client's set assigns the key (an existing one keeps its place), its remove deletes it
          if (add) {
            order.add(id);
            object[`id:${id},`] = true;
          } else {
            order.delete(id);
            delete object[`id:${id},`];
          }
        }
        expect([...order.ids()].map((id) => `id:${id},`)).to.deep.equal(Object.keys(object));
        expect(order.size).to.equal(Object.keys(object).length);
        for (let id = 0; id <= 41; id++) expect(order.has(id)).to.equal(`id:${id},` in object);
      }),
      { numRuns: 500 },
    );
  });
});
