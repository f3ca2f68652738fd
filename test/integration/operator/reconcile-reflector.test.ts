import { expect } from 'chai';
import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import type { Suppression } from '../../../operator/src/crd-types.js';
import { FaultlineObjects } from '../../../operator/src/kube/custom-objects.js';
import type { ReflectorEvent } from '../../../operator/src/kube/reflector.js';
import { Reflector } from '../../../operator/src/kube/reflector.js';
import type { ControlPlane } from '../../support/control-plane.js';
import { controlPlaneStartTimeoutMs, createNamespace, ensureControlPlane } from '../../support/control-plane.js';
import { eventually } from '../../support/service.js';
import { installCrds } from './reconcile-harness.js';

const sup = (ns: string, name: string): string =>
  JSON.stringify({
    apiVersion: 'health.faultline.io/v1alpha1',
    kind: 'Suppression',
    metadata: { name, namespace: ns },
    spec: { workload: `${ns}/Deployment/${name}`, start: '2030-01-01T00:00:00Z', end: '2030-01-02T00:00:00Z' },
  });

describe('operator reflector against the real kube-apiserver (operator.md §12.2)', function () {
  this.timeout(90_000);
  let cp: ControlPlane;
  let kc: KubeConfig;
  let objects: FaultlineObjects;
  before(async function () {
    this.timeout(controlPlaneStartTimeoutMs());
    cp = await ensureControlPlane();
    await installCrds(cp);
    kc = new KubeConfig();
    kc.loadFromFile(cp.kubeconfig);
    objects = new FaultlineObjects(kc.makeApiClient(CustomObjectsApi));
  });

  it('lists in pages, follows the watch, and after a 410 relists and synthesizes the delete it missed', async () => {
    const ns = await createNamespace(cp, 'refl');
    await cp.kubectlOk(['apply', '-f', '-'], { input: ['a', 'b', 'c', 'd', 'e'].map((n) => sup(ns, n)).join('\n---\n') });
    const seen: [ReflectorEvent, string][] = [];
    const restarts: string[] = [];
    let relists = 0;
    const reflector = new Reflector<Suppression>(kc, {
      path: objects.path('Suppression', ns),
      pageSize: 2,
      listPage: (limit, cont) => objects.listPage<Suppression>('Suppression', ns, limit, cont),
      onEvent: (type, o) => seen.push([type, o.metadata.name ?? '']),
      hooks: { restart: (r) => restarts.push(r), relist: () => (relists += 1) },
    });
    reflector.start();
    await reflector.hasSynced();
    expect(reflector.list().map((o) => o.metadata.name).sort()).to.deep.equal(['a', 'b', 'c', 'd', 'e']);
    expect(relists).to.equal(1);

    await cp.kubectlOk(['apply', '-f', '-'], { input: sup(ns, 'f') });
    await cp.kubectlOk(['delete', 'sup', 'a', '-n', ns]);
    await eventually(async () => (reflector.get(ns, 'f') !== undefined && reflector.get(ns, 'a') === undefined ? true : undefined), 20_000, 'watch add of f and delete of a');
    expect(seen).to.deep.include.members([['add', 'f'], ['delete', 'a']]);

    // stopped while b is deleted; resumed from a version the API server no longer holds → 410
    reflector.stop();
    await cp.kubectlOk(['delete', 'sup', 'b', '-n', ns]);
    seen.length = 0;
    reflector.resume('1');
    await eventually(async () => (reflector.get(ns, 'b') === undefined ? true : undefined), 30_000, 'the missed delete of b');
    reflector.stop();
    expect(restarts).to.include('gone');
    expect(relists).to.equal(2);
    expect(seen).to.deep.equal([['delete', 'b']]);
    expect(reflector.list().map((o) => o.metadata.name).sort()).to.deep.equal(['c', 'd', 'e', 'f']);
  });
});
