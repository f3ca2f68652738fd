import { expect } from 'chai';
import fc from 'fast-check';
import type { WorkloadWeight } from '../../../operator/src/crd-types.js';
import { normaliseEntry, planWeights, sameLists } from '../../../operator/src/reconcile/weights-order.js';

const ww = (ns: string, name: string, selector: string, extra: Partial<WorkloadWeight['spec']> = {}, created = '2026-01-01T00:00:00Z'): WorkloadWeight => ({
  apiVersion: 'health.faultline.io/v1alpha1',
  kind: 'WorkloadWeight',
  metadata: { namespace: ns, name, creationTimestamp: created },
  spec: { selector, stress: 1, ...extra },
});

describe('operator: order of the weights list (operator.md §4)', () => {
  it('specificity, then priority, then age, then namespace/name; duplicates Shadowed; scope refusals', () => {
    const objects = [
      ww('ops', 'star', '*'),
      ww('shop', 'wide', 'shop/*', { priority: 100 }),
      ww('shop', 'cart-new', 'shop/Deployment/cart', {}, '2026-01-02T00:00:00Z'),
      ww('shop', 'cart-old', 'shop/Deployment/cart', {}, '2026-01-01T00:00:00Z'),
      ww('shop', 'api', 'shop/Deployment/api', { priority: -5 }),
      ww('shop', 'b-web', 'shop/Deployment/web'),
      ww('shop', 'a-web2', 'shop/Deployment/web2'),
      ww('shop', 'star', '*'),
      ww('shop', 'other', 'pay/Deployment/x'),
    ];
    const { list, placements } = planWeights(objects, 'ops');
    // equal priority and age among a-web2, b-web, cart-old: namespace/name decides; cart-new is younger
    expect(list.map((e) => e.selector)).to.deep.equal(['shop/Deployment/web2', 'shop/Deployment/web', 'shop/Deployment/cart', 'shop/Deployment/api', 'shop/*', '*']);
    const by = (name: string, ns = 'shop') => placements.find((p) => p.object.metadata.name === name && p.object.metadata.namespace === ns);
    expect(by('cart-old')?.position).to.equal(3);
    expect(by('cart-new')?.refusal).to.deep.include({ reason: 'Shadowed' });
    expect(by('cart-new')?.refusal?.message).to.contain('shop/cart-old');
    expect(by('star')?.refusal?.reason).to.equal('ClusterScopeNotAllowed');
    expect(by('star', 'ops')?.position).to.equal(6);
    expect(by('other')?.refusal?.reason).to.equal('NamespaceMismatch');
    expect(list[2]).to.deep.equal({ selector: 'shop/Deployment/cart', stress: 1, fatigue: 0, mood: 0, pressure: 0, humidity: 0, contagion: 0 });
  });

  it('more than 1000 entries: the tail is ListFull', () => {
    const objects = Array.from({ length: 1002 }, (_, i) => ww('shop', `w${String(i).padStart(4, '0')}`, `shop/Deployment/w${i}`));
    const { list, placements } = planWeights(objects, 'ops');
    expect(list).to.have.length(1000);
    expect(placements.filter((p) => p.refusal?.reason === 'ListFull')).to.have.length(2);
  });

  it('the list does not depend on the order the cache returns objects in', () => {
    const pool = [
      ww('shop', 'a', 'shop/Deployment/a', { priority: 3 }),
      ww('shop', 'b', 'shop/Deployment/a', { priority: 3 }),
      ww('shop', 'c', 'shop/*'),
      ww('shop', 'd', 'shop/Deployment/d', {}, '2025-12-31T00:00:00Z'),
      ww('ops', 'e', '*'),
    ];
    const expected = JSON.stringify(planWeights(pool, 'ops').list);
    fc.assert(fc.property(fc.shuffledSubarray(pool, { minLength: pool.length }), (shuffled) => JSON.stringify(planWeights(shuffled, 'ops').list) === expected));
  });

  it('compares against the engine after the engine normalisation: {stress 3, mood 1} equals {0.75, 0.25}', () => {
    const desired = [{ selector: 's/*', stress: 3, fatigue: 0, mood: 1, pressure: 0, humidity: 0, contagion: 0 }];
    expect(normaliseEntry(desired[0]!)).to.include({ stress: 0.75, mood: 0.25 });
    expect(sameLists(desired, [{ selector: 's/*', stress: 0.75, fatigue: 0, mood: 0.25, pressure: 0, humidity: 0, contagion: 0 }])).to.equal(true);
    expect(sameLists(desired, [{ selector: 's/*', stress: 0.5, fatigue: 0, mood: 0.5, pressure: 0, humidity: 0, contagion: 0 }])).to.equal(false);
    expect(sameLists(desired, [])).to.equal(false);
  });
});
