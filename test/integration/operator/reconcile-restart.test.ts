import { expect } from 'chai';
import type { HealthAction } from '../../../operator/src/crd-types.js';
import { RESTARTED_AT } from '../../../operator/src/reconcile/restart-executor.js';
import { controlPlaneStartTimeoutMs } from '../../support/control-plane.js';
import { eventually } from '../../support/service.js';
import type { Harness, HealthActionList } from './reconcile-harness.js';
import { deploymentManifest, startHarness } from './reconcile-harness.js';

/**
 * The sim's memory leak is diagnosed as a leak and recommended a rolling restart; approved with
 * kubectl, the operator annotates the real Deployment's pod template as `kubectl rollout restart`
 * does. A rollback of the restart is refused by the CRD (admission) and by the engine (409), both
 * with the reason. A bare control plane runs no controllers: the assertion is on the template.
 */
describe('operator: an approved restart sets kubectl.kubernetes.io/restartedAt on the pod template; its rollback is refused', function () {
  this.timeout(240_000);
  let h: Harness;
  before(async function () {
    this.timeout(controlPlaneStartTimeoutMs());
    h = await startHarness('rst', ['execution_mode: suggest']);
  });
  after(async () => {
    if (h !== undefined) {
      await h.cp.kubectl(['delete', 'hact', '--all', '-n', h.ns, '--wait=true', '--timeout=30s'], { timeoutMs: 40_000 });
      await h.stop();
    }
  });

  it('memory leak → restart HealthAction → kubectl approve → annotated template, event, result; rollback refused with the reason', async () => {
    const ns = h.ns;
    await h.cp.kubectlOk(['apply', '-f', '-'], { input: deploymentManifest(ns, 'payments', 2) });
    expect((await h.svc.post('/sim/inject', { pattern: 'memory-leak', host: `${ns}/payments`, duration_minutes: 3 })).status).to.equal(202);

    const mirrored = await eventually(async () => {
      const list = await h.kubectlJson<HealthActionList>(['get', 'healthactions', '-n', ns]);
      return list.items.find((a) => a.spec.workload === `${ns}/Deployment/payments` && a.spec.type === 'restart' && a.status?.state === 'Pending');
    }, 180_000, 'a Pending restart HealthAction for the workload');
    expect(mirrored.spec.params).to.deep.equal({ strategy: 'rolling' });
    expect(mirrored.spec.description).to.contain('rolling restart');
    const name = mirrored.metadata.name ?? '';
    const before = await h.cp.kubectlOk(['get', 'deployment', 'payments', '-n', ns, '-o', 'jsonpath={.metadata.generation}']);

    const approvedAt = Date.now();
    await h.cp.kubectlOk(['patch', 'hact', name, '-n', ns, '--type', 'merge', '-p', '{"spec":{"approved":true}}']);
    const executed = await eventually(async () => {
      const a = await h.kubectlJson<HealthAction>(['get', 'hact', name, '-n', ns]);
      return a.status?.state === 'Executed' ? a : undefined;
    }, 30_000, 'state Executed');
    const stamp = executed.status?.execution?.restartedAt ?? '';
    expect(stamp).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // whole seconds, so the stamp may read up to 1 s before the approval
    expect(Date.parse(stamp)).to.be.within(approvedAt - 1000, Date.now());
    expect(executed.status?.execution).to.include({ attempts: 1, reportedToEngine: true });
    expect(executed.status?.conditions?.find((c) => c.type === 'Executed')).to.include({ status: 'True', reason: 'Restarted' });

    const annotation = await h.cp.kubectlOk(['get', 'deployment', 'payments', '-n', ns, '-o', `jsonpath={.spec.template.metadata.annotations.${RESTARTED_AT.replace(/\./g, '\\.')}}`]);
    expect(annotation).to.equal(stamp);
    // a template change: a new generation the controller would roll out; replicas untouched
    const after = await h.cp.kubectlOk(['get', 'deployment', 'payments', '-n', ns, '-o', 'jsonpath={.metadata.generation} {.spec.replicas}']);
    expect(after).to.equal(`${Number(before) + 1} 2`);
    const engine = await h.sidecar.getAction(executed.spec.actionId);
    expect(engine?.state).to.equal('executed');
    const events = await h.cp.kubectlOk(['get', 'events.events.k8s.io', '-n', ns, '-o', 'jsonpath={range .items[*]}{.reason} {.regarding.kind}/{.regarding.name}{"\\n"}{end}']);
    expect(events).to.contain('FaultlineRestarted Deployment/payments');

    // rollback: the CRD refuses the switch, the engine answers 409 with the reason
    const patch = await h.cp.kubectl(['patch', 'hact', name, '-n', ns, '--type', 'merge', '-p', '{"spec":{"rollbackRequested":true}}']);
    expect(patch.code).to.not.equal(0);
    expect(patch.stderr).to.contain('only scale actions can be rolled back');
    const refused = await h.svc.post(`/actions/${executed.spec.actionId}/rollback`, {});
    expect(refused.status).to.equal(409);
    expect(JSON.stringify(refused.body)).to.contain('a restart cannot be rolled back');
    expect((await h.sidecar.getAction(executed.spec.actionId))?.state).to.equal('executed');
  });
});
