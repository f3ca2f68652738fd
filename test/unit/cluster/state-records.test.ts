/** Keys of the state topic, the read position among them. */
import { expect } from 'chai';
import { parseStateKey, positionKey, stateKey, viewKey } from '../../../api-server/src/cluster/state-records.js';

describe('cluster state records', () => {
  it('reads back every key it writes, the read position of a partition included', () => {
    expect(parseStateKey(stateKey('shop/Deployment/w0'))).to.deep.equal({ kind: 'state', workload: 'shop/Deployment/w0' });
    expect(parseStateKey(viewKey('a/b/c'))).to.deep.equal({ kind: 'view', workload: 'a/b/c' });
    expect(positionKey(11)).to.equal('r|11');
    expect(parseStateKey(positionKey(11))).to.deep.equal({ kind: 'position', partition: 11 });
  });

  it('knows no key of another shape', () => {
    for (const key of [undefined, '', 'r|', 'r|x1', 'r|-1', 'r|1.5', 'x|w', 'sw']) expect(parseStateKey(key), String(key)).to.equal(undefined);
  });
});
