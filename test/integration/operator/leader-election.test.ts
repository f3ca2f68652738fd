import { expect } from 'chai';
import { CoordinationV1Api, KubeConfig } from '@kubernetes/client-node';
import { LeaderElector } from '../../../operator/src/kube/leader-election.js';
import type { ControlPlane } from '../../support/control-plane.js';
import { controlPlaneStartTimeoutMs, createNamespace, ensureControlPlane } from '../../support/control-plane.js';
import { eventually } from '../../support/service.js';

describe('operator leader election on a real kube-apiserver Lease', function () {
  this.timeout(120_000);
  let cp: ControlPlane;
  let api: CoordinationV1Api;

  before(async function () {
    this.timeout(controlPlaneStartTimeoutMs());
    cp = await ensureControlPlane();
    const kc = new KubeConfig();
    kc.loadFromFile(cp.kubeconfig);
    api = kc.makeApiClient(CoordinationV1Api);
  });

  const candidate = (namespace: string, identity: string, log: string[]): LeaderElector =>
    new LeaderElector(
      api,
      { namespace, name: 'faultline-operator', identity, leaseDurationSeconds: 4, renewDeadlineMs: 3_000, retryPeriodMs: 500 },
      { startedLeading: () => log.push(`${identity} leads`), stoppedLeading: (r) => log.push(`${identity} stopped: ${r}`) },
    );

  it('a second replica waits while the first renews, and takes over once the first stops renewing', async () => {
    const ns = await createNamespace(cp, 'lease');
    const log: string[] = [];
    const a = candidate(ns, 'a', log);
    const b = candidate(ns, 'b', log);
    a.start();
    await eventually(async () => (a.state === 'leader' ? true : undefined), 10_000, 'a to lead');
    b.start();
    // b sees the record move on every renew of a: it must stay standby across several lease durations
    await new Promise((r) => setTimeout(r, 9_000));
    expect(b.state).to.equal('standby');
    const holder = await cp.kubectlOk(['get', 'lease', 'faultline-operator', '-n', ns, '-o', 'jsonpath={.spec.holderIdentity}']);
    expect(holder).to.equal('a');
    // a "crashes": it stops renewing without releasing (kill -9 of the process)
    (a as unknown as { stopping: boolean }).stopping = true;
    await eventually(async () => (b.state === 'leader' ? true : undefined), 20_000, 'b to take over');
    const after = await cp.kubectlOk(['get', 'lease', 'faultline-operator', '-n', ns, '-o', 'jsonpath={.spec.holderIdentity} {.spec.leaseTransitions}']);
    expect(after).to.equal('b 1');
    await b.stop();
    expect(log).to.deep.equal(['a leads', 'b leads']);
  });

  it('stop() releases the Lease so the standby takes over at once', async () => {
    const ns = await createNamespace(cp, 'lease');
    const log: string[] = [];
    const a = candidate(ns, 'a', log);
    const b = candidate(ns, 'b', log);
    a.start();
    await eventually(async () => (a.state === 'leader' ? true : undefined), 10_000, 'a to lead');
    b.start();
    await a.stop();
    expect(await cp.kubectlOk(['get', 'lease', 'faultline-operator', '-n', ns, '-o', 'jsonpath={.spec.holderIdentity}'])).to.equal('');
    // released: holder empty, so b acquires on its next retry, well inside one lease duration
    await eventually(async () => (b.state === 'leader' ? true : undefined), 3_000, 'b to take over after release');
    await b.stop();
  });
});
