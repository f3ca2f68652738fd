import { expect } from 'chai';
import type { WorkloadWeight } from '../../../operator/src/crd-types.js';
import { controlPlaneStartTimeoutMs } from '../../support/control-plane.js';
import { eventually } from '../../support/service.js';
import type { Harness } from './reconcile-harness.js';
import { startHarness } from './reconcile-harness.js';

const ww = (ns: string, name: string, spec: Record<string, unknown>): string =>
  JSON.stringify({ apiVersion: 'health.faultline.io/v1alpha1', kind: 'WorkloadWeight', metadata: { name, namespace: ns }, spec });

describe('operator: WorkloadWeight CRs become the engine weights list in the order of operator.md §4', function () {
  this.timeout(120_000);
  let h: Harness;
  before(async function () {
    this.timeout(controlPlaneStartTimeoutMs());
    h = await startHarness('ww');
  });
  after(async () => {
    await h?.stop();
  });

  it('exact keys before ns/* before *, then priority; a duplicate selector is Shadowed, a foreign one refused; deleting re-posts', async () => {
    const ns = h.ns;
    const docs = [
      ww(ns, 'star', { selector: '*', stress: 1 }),
      ww(ns, 'ns-wide', { selector: `${ns}/*`, priority: 5, fatigue: 1 }),
      ww(ns, 'cart-a', { selector: `${ns}/Deployment/cart`, stress: 3, mood: 1 }),
      ww(ns, 'cart-b', { selector: `${ns}/Deployment/cart`, stress: 1 }),
      ww(ns, 'api', { selector: `${ns}/Deployment/api`, priority: 10, pressure: 2 }),
      ww(ns, 'foreign', { selector: 'elsewhere/Deployment/x', stress: 1 }),
    ];
    await h.cp.kubectlOk(['apply', '-f', '-'], { input: docs.join('\n---\n') });
    const list = await eventually(async () => {
      const l = await h.sidecar.getWeights();
      return l.length === 4 ? l : undefined;
    }, 30_000, 'four entries in the engine');
    expect(list.map((e) => e.selector)).to.deep.equal([`${ns}/Deployment/api`, `${ns}/Deployment/cart`, `${ns}/*`, '*']);
    // engine normalisation: cart-a {stress 3, mood 1} → 0.75 / 0.25
    expect(list[1]).to.include({ stress: 0.75, mood: 0.25, fatigue: 0 });

    const get = (name: string) => h.kubectlJson<WorkloadWeight>(['get', 'ww', name, '-n', ns]);
    const positions = await eventually(async () => {
      const objs = await Promise.all(['api', 'cart-a', 'ns-wide', 'star', 'cart-b', 'foreign'].map(get));
      return objs.every((o) => o.status?.conditions?.some((c) => c.type === 'Applied')) ? objs : undefined;
    }, 30_000, 'Applied conditions on every object');
    expect(positions.map((o) => o.status?.position)).to.deep.equal([1, 2, 3, 4, 0, 0]);
    expect(positions[1]?.status?.normalized).to.include({ stress: 0.75, mood: 0.25 });
    const cond = (o: WorkloadWeight | undefined) => o?.status?.conditions?.find((c) => c.type === 'Applied');
    expect(cond(positions[4])).to.include({ status: 'False', reason: 'Shadowed' });
    expect(cond(positions[4])?.message).to.contain(`${ns}/cart-a`);
    expect(cond(positions[5])).to.include({ status: 'False', reason: 'NamespaceMismatch' });

    await h.cp.kubectlOk(['delete', 'ww', 'api', 'cart-a', '-n', ns]);
    const after = await eventually(async () => {
      const l = await h.sidecar.getWeights();
      return l.length === 3 && l[0]?.selector === `${ns}/Deployment/cart` ? l : undefined;
    }, 30_000, 'the list without api and with cart-b promoted');
    expect(after.map((e) => e.selector)).to.deep.equal([`${ns}/Deployment/cart`, `${ns}/*`, '*']);
    expect(after[0]).to.include({ stress: 1 });
  });

  it('drift made over REST is overwritten with the list the CRs define', async () => {
    const before = await h.sidecar.getWeights();
    expect((await h.svc.post('/config/weights', [{ selector: 'rogue/*', stress: 1 }])).status).to.equal(200);
    // the drift check runs after each change and on resync; ask for one now
    h.operator.resyncNow();
    const repaired = await eventually(async () => {
      const l = await h.sidecar.getWeights();
      return l.length === before.length && l.every((e, i) => e.selector === before[i]?.selector) ? l : undefined;
    }, 30_000, 'the CR list back in the engine');
    expect(repaired.map((e) => e.selector)).to.not.include('rogue/*');
  });
});
