import { expect } from 'chai';
import { legacyHostOf, parseWorkloadKey, workloadKeyFromHost } from '../../api-server/src/model/workload-key.js';

describe('workload keys', () => {
  it('parses a three-segment key and refuses anything else', () => {
    expect(parseWorkloadKey('shop/Deployment/cart')).to.deep.equal({ namespace: 'shop', kind: 'Deployment', name: 'cart' });
    expect(parseWorkloadKey('shop/cart')).to.equal(undefined);
    expect(parseWorkloadKey('shop//cart')).to.equal(undefined);
  });
  it('maps host strings per H(s)', () => {
    expect(workloadKeyFromHost('web-01')).to.equal('default/host/web-01');
    expect(workloadKeyFromHost('shop/cart')).to.equal('shop/Deployment/cart');
    expect(workloadKeyFromHost('a/b/c/d')).to.equal(undefined);
  });
  it('gives the legacy host id', () => {
    expect(legacyHostOf('default/host/web-01')).to.equal('web-01');
    expect(legacyHostOf('shop/Deployment/cart')).to.equal('shop/Deployment/cart');
  });
});
