import { expect } from 'chai';
import type { HealthAction } from '../../../operator/src/crd-types.js';
import { controlPlaneStartTimeoutMs } from '../../support/control-plane.js';
import { eventually } from '../../support/service.js';
import type { Harness, HealthActionList } from './reconcile-harness.js';
import { deploymentManifest, startHarness } from './reconcile-harness.js';

/**
 * A bare control plane runs no controllers (operator.md §17.6): the Deployment object exists and
 * its /scale subresource reads and writes spec.replicas, but no pods appear and status stays empty,
 * so the assertions are on spec.replicas and the rollout gate must treat a missing status as "no rollout".
 */
describe('operator: a sidecar rupture becomes a HealthAction; kubectl approval scales a real Deployment; rollback restores it', function () {
  this.timeout(240_000);
  let h: Harness;
  before(async function () {
    this.timeout(controlPlaneStartTimeoutMs());
    // execution_mode suggest: Tier 1 waits for a person like Tier 2 (operator.md §8)
    h = await startHarness('act', ['execution_mode: suggest']);
  });
  after(async () => {
    if (h !== undefined) {
      await h.cp.kubectl(['delete', 'hact', '--all', '-n', h.ns, '--wait=true', '--timeout=30s'], { timeoutMs: 40_000 });
      await h.stop();
    }
  });

  it('mirror → kubectl patch approved → /scale of the Deployment → result reported; rollbackRequested restores previousReplicas', async () => {
    const ns = h.ns;
    await h.cp.kubectlOk(['apply', '-f', '-'], { input: deploymentManifest(ns, 'cart', 2) });
    expect((await h.svc.post('/sim/inject', { pattern: 'traffic-surge', host: `${ns}/cart`, duration_minutes: 3 })).status).to.equal(202);

    const mirrored = await eventually(async () => {
      const list = await h.kubectlJson<HealthActionList>(['get', 'healthactions', '-n', ns]);
      return list.items.find((a) => a.spec.workload === `${ns}/Deployment/cart` && a.spec.type === 'scale' && a.status?.state === 'Pending');
    }, 180_000, 'a Pending scale HealthAction for the workload');
    const name = mirrored.metadata.name ?? '';
    expect(name).to.equal(mirrored.spec.actionId.replace('_', '-'));
    expect(mirrored.metadata.labels).to.include({ 'app.kubernetes.io/managed-by': 'faultline-operator', 'health.faultline.io/action-id': mirrored.spec.actionId });
    expect(mirrored.metadata.finalizers).to.include('health.faultline.io/reject-on-delete');
    expect(mirrored.status?.conditions?.find((c) => c.type === 'Approved')).to.include({ status: 'False', reason: 'AwaitingApproval' });
    const printed = await h.cp.kubectlOk(['get', 'healthactions', '-n', ns]);
    expect(printed).to.contain(name).and.to.contain('Pending');

    await h.cp.kubectlOk(['patch', 'hact', name, '-n', ns, '--type', 'merge', '-p', '{"spec":{"approved":true}}']);
    const executed = await eventually(async () => {
      const a = await h.kubectlJson<HealthAction>(['get', 'hact', name, '-n', ns]);
      return a.status?.state === 'Executed' ? a : undefined;
    }, 30_000, 'state Executed');
    const target = executed.status?.execution?.targetReplicas ?? 0;
    // one attempt: the action key is never synced twice at once, so the same action scales once
    expect(executed.status?.execution).to.include({ previousReplicas: 2, reportedToEngine: true, attempts: 1 });
    expect(target).to.be.greaterThan(2);
    expect(executed.status?.conditions?.find((c) => c.type === 'Executed')).to.include({ status: 'True', reason: 'Scaled' });
    expect(executed.status?.conditions?.find((c) => c.type === 'Approved')).to.include({ status: 'True', reason: 'ApprovedByUser' });
    const replicas = Number(await h.cp.kubectlOk(['get', 'deployment', 'cart', '-n', ns, '-o', 'jsonpath={.spec.replicas}']));
    expect(replicas).to.equal(target);
    const engine = await h.sidecar.getAction(executed.spec.actionId);
    expect(engine?.state).to.equal('executed');
    expect(engine?.execution).to.include({ previous_replicas: 2, replicas: target });
    const events = await h.cp.kubectlOk(['get', 'events.events.k8s.io', '-n', ns, '-o', 'jsonpath={range .items[*]}{.reason} {.regarding.kind}/{.regarding.name}{"\\n"}{end}']);
    expect(events).to.contain('FaultlineScaled Deployment/cart');

    await h.cp.kubectlOk(['patch', 'hact', name, '-n', ns, '--type', 'merge', '-p', '{"spec":{"rollbackRequested":true}}']);
    const rolledBack = await eventually(async () => {
      const a = await h.kubectlJson<HealthAction>(['get', 'hact', name, '-n', ns]);
      return a.status?.state === 'RolledBack' ? a : undefined;
    }, 30_000, 'state RolledBack');
    expect(rolledBack.status?.conditions?.find((c) => c.type === 'RolledBack')).to.include({ status: 'True', reason: 'Restored' });
    expect(await h.cp.kubectlOk(['get', 'deployment', 'cart', '-n', ns, '-o', 'jsonpath={.spec.replicas}'])).to.equal('2');
    expect((await h.sidecar.getAction(executed.spec.actionId))?.state).to.equal('rolled_back');
  });
});
