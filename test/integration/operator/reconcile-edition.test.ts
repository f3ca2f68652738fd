import { expect } from 'chai';
import type { HealthAction } from '../../../operator/src/crd-types.js';
import { controlPlaneStartTimeoutMs } from '../../support/control-plane.js';
import { eventually } from '../../support/service.js';
import type { Harness, HealthActionList } from './reconcile-harness.js';
import { deploymentManifest, startHarness } from './reconcile-harness.js';


describe('operator: community edition refuses kubectl approval with EditionRequiresAutopilot; rejection removes the action', function () {
  this.timeout(240_000);
  let h: Harness;
  before(async function () {
    this.timeout(controlPlaneStartTimeoutMs());
    h = await startHarness('com', [], 'community');
  });
  after(async () => {
    await h?.stop();
  });

  it('approved:true → Approved=False/EditionRequiresAutopilot, a Warning Event, no scale; rejected:true → Rejected; delete releases the finalizer', async () => {
    const ns = h.ns;
    await h.cp.kubectlOk(['apply', '-f', '-'], { input: deploymentManifest(ns, 'shop', 3) });
    expect((await h.svc.post('/sim/inject', { pattern: 'traffic-surge', host: `${ns}/shop`, duration_minutes: 3 })).status).to.equal(202);
    const mirrored = await eventually(async () => {
      const list = await h.kubectlJson<HealthActionList>(['get', 'healthactions', '-n', ns]);
      return list.items.find((a) => a.spec.workload === `${ns}/Deployment/shop` && a.status?.state === 'Pending');
    }, 180_000, 'a Pending HealthAction');
    const name = mirrored.metadata.name ?? '';

    await h.cp.kubectlOk(['patch', 'hact', name, '-n', ns, '--type', 'merge', '-p', '{"spec":{"approved":true}}']);
    const refused = await eventually(async () => {
      const a = await h.kubectlJson<HealthAction>(['get', 'hact', name, '-n', ns]);
      const c = a.status?.conditions?.find((x) => x.type === 'Approved');
      return c?.reason === 'EditionRequiresAutopilot' ? a : undefined;
    }, 30_000, 'Approved=False/EditionRequiresAutopilot');
    expect(refused.status?.conditions?.find((c) => c.type === 'Approved')).to.include({ status: 'False', message: 'approval needs the autopilot edition (SVC_EDITION=autopilot)' });
    expect(refused.status?.state).to.equal('Pending');
    expect((await h.sidecar.getAction(refused.spec.actionId))?.state).to.equal('pending');
    expect(await h.cp.kubectlOk(['get', 'deployment', 'shop', '-n', ns, '-o', 'jsonpath={.spec.replicas}'])).to.equal('3');
    const events = await h.cp.kubectlOk(['get', 'events.events.k8s.io', '-n', ns, '-o', 'jsonpath={range .items[*]}{.type} {.reason} {.regarding.name}{"\\n"}{end}']);
    expect(events).to.contain(`Warning ApprovalRefused ${name}`);

    await h.cp.kubectlOk(['patch', 'hact', name, '-n', ns, '--type', 'merge', '-p', '{"spec":{"rejected":true}}']);
    await eventually(async () => ((await h.kubectlJson<HealthAction>(['get', 'hact', name, '-n', ns])).status?.state === 'Rejected' ? true : undefined), 30_000, 'state Rejected');
    expect(await h.sidecar.getAction(refused.spec.actionId)).to.equal(undefined);

    await h.cp.kubectlOk(['delete', 'hact', name, '-n', ns, '--wait=true', '--timeout=30s'], { timeoutMs: 40_000 });
    expect((await h.cp.kubectl(['get', 'hact', name, '-n', ns])).code).to.not.equal(0);
  });
});
