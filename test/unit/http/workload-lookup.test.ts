import { expect } from 'chai';
import fc from 'fast-check';
import type { WorkloadSnapshot } from '../../../api-server/src/analysis/contract.js';
import { resolveWorkload, type KnownWorkloads } from '../../../api-server/src/http/workload-lookup.js';
import { snapshotOf } from '../../support/analysis-fixtures.js';

/** workloads by key, each updated at the given time */
function known(entries: Record<string, number>): KnownWorkloads {
  const snapshots = new Map<string, WorkloadSnapshot>(Object.entries(entries).map(([key, timeMs]) => [key, snapshotOf(key, { timeMs })]));
  return { snapshot: (key) => snapshots.get(key), workloadKeys: () => [...snapshots.keys()] };
}

describe('http/workload-lookup: {ns}/{kind}/{name}, {ns}/{name}, legacy {host}', () => {
  const core = known({
    'shop/Deployment/cart': 100,
    'shop/StatefulSet/cart': 300,
    'shop/StatefulSet/db': 100,
    'shop/CronJob/report': 100,
    'shop/Argo/report': 100,
    'default/host/node-1': 100,
    'dev/Deployment/api': 100,
    'prod/Deployment/api': 200,
  });

  it('three segments: the key exactly, or nothing', () => {
    expect(resolveWorkload(core, ['shop', 'StatefulSet', 'cart'])).to.equal('shop/StatefulSet/cart');
    expect(resolveWorkload(core, ['shop', 'Job', 'cart'])).to.equal(undefined);
  });

  it('two segments: Deployment, StatefulSet, DaemonSet, Job, host in that order, then other kinds alphabetically', () => {
    expect(resolveWorkload(core, ['shop', 'cart'])).to.equal('shop/Deployment/cart'); // not the newer StatefulSet
    expect(resolveWorkload(core, ['shop', 'db'])).to.equal('shop/StatefulSet/db');
    expect(resolveWorkload(core, ['shop', 'report'])).to.equal('shop/Argo/report');
    expect(resolveWorkload(core, ['shop', 'api'])).to.equal(undefined);
  });

  it('one segment: default/host/{host}, then a key form, then the most recently updated workload of that name', () => {
    expect(resolveWorkload(core, ['node-1'])).to.equal('default/host/node-1');
    expect(resolveWorkload(core, ['shop/cart'])).to.equal('shop/Deployment/cart');
    expect(resolveWorkload(core, ['shop/CronJob/report'])).to.equal('shop/CronJob/report');
    expect(resolveWorkload(core, ['api'])).to.equal('prod/Deployment/api'); // updated at 200, dev at 100
    expect(resolveWorkload(core, ['db'])).to.equal('shop/StatefulSet/db');
    expect(resolveWorkload(core, ['nothing'])).to.equal(undefined);
  });

  it('four segments or none: nothing', () => {
    expect(resolveWorkload(core, ['a', 'b', 'c', 'd'])).to.equal(undefined);
    expect(resolveWorkload(core, [])).to.equal(undefined);
  });

  it('only ever answers a known workload (property)', () => {
    const segment = fc.constantFrom('shop', 'dev', 'cart', 'api', 'Deployment', 'host', 'default', 'x/y', 'shop/cart', '');
    const key = fc.tuple(fc.constantFrom('shop', 'dev', 'default'), fc.constantFrom('Deployment', 'Job', 'host', 'Rollout'), fc.constantFrom('cart', 'api', 'x'));
    fc.assert(
      fc.property(fc.dictionary(key.map((k) => k.join('/')), fc.nat()), fc.array(segment, { maxLength: 4 }), (entries, segments) => {
        const workloads = known(entries);
        const found = resolveWorkload(workloads, segments);
        if (found !== undefined) expect(workloads.snapshot(found), `${segments.join('|')} → ${found}`).to.not.equal(undefined);
      }),
      { numRuns: 500 },
    );
  });
});
