import { expect } from 'chai';
import type { Suppression } from '../../../operator/src/crd-types.js';
import { controlPlaneStartTimeoutMs } from '../../support/control-plane.js';
import { eventually } from '../../support/service.js';
import type { Harness } from './reconcile-harness.js';
import { startHarness } from './reconcile-harness.js';

const manifest = (ns: string, name: string, spec: Record<string, unknown>): string =>
  JSON.stringify({ apiVersion: 'health.faultline.io/v1alpha1', kind: 'Suppression', metadata: { name, namespace: ns }, spec });

describe('operator: Suppression CRs reach the sidecar and leave it on deletion (real kube-apiserver, real api-server)', function () {
  this.timeout(120_000);
  let h: Harness;
  before(async function () {
    this.timeout(controlPlaneStartTimeoutMs());
    h = await startHarness('sup');
  });
  after(async () => {
    await h?.stop();
  });

  it('kubectl apply creates an owner-marked window; a spec change replaces it (create, then delete); kubectl delete removes it and the finalizer', async () => {
    const start = new Date(Date.now() - 60_000).toISOString();
    const end = new Date(Date.now() + 3_600_000).toISOString();
    await h.cp.kubectlOk(['apply', '-f', '-'], { input: manifest(h.ns, 'maint', { workload: `${h.ns}/Deployment/cart`, start, end, reason: 'db upgrade' }) });
    const active = await eventually(async () => {
      const s = await h.kubectlJson<Suppression>(['get', 'sup', 'maint', '-n', h.ns]);
      return s.status?.phase === 'Active' && s.status.suppressionId !== undefined ? s : undefined;
    }, 30_000, 'status Active with the engine id');
    expect(active.metadata.finalizers).to.include('health.faultline.io/engine-cleanup');
    // settled: the operator's own status write does not wake it into another write (no write loop)
    const settledRv = (await h.kubectlJson<Suppression>(['get', 'sup', 'maint', '-n', h.ns])).metadata.resourceVersion;
    await new Promise((r) => setTimeout(r, 3_000));
    expect((await h.kubectlJson<Suppression>(['get', 'sup', 'maint', '-n', h.ns])).metadata.resourceVersion).to.equal(settledRv);
    expect(active.status?.conditions?.find((c) => c.type === 'Synced')).to.include({ status: 'True', reason: 'InEngine' });
    const windows = await h.sidecar.listSuppressions();
    const mine = windows.filter((w) => w.owner === `k8s:${h.ns}/maint/${active.metadata.uid ?? ''}`);
    expect(mine.map((w) => w.id)).to.deep.equal([active.status?.suppressionId]);
    expect(mine[0]).to.include({ workload: `${h.ns}/Deployment/cart`, reason: 'db upgrade', active: true });

    // spec change: a new window replaces the old one
    await h.cp.kubectlOk(['patch', 'sup', 'maint', '-n', h.ns, '--type', 'merge', '-p', JSON.stringify({ spec: { reason: 'db upgrade, part 2' } })]);
    const changed = await eventually(async () => {
      const s = await h.kubectlJson<Suppression>(['get', 'sup', 'maint', '-n', h.ns]);
      return s.status?.suppressionId !== active.status?.suppressionId && s.status?.observedGeneration === 2 ? s : undefined;
    }, 30_000, 'a new window for generation 2');
    const after = (await h.sidecar.listSuppressions()).filter((w) => w.owner?.startsWith(`k8s:${h.ns}/maint/`));
    expect(after.map((w) => [w.id, w.reason])).to.deep.equal([[changed.status?.suppressionId, 'db upgrade, part 2']]);

    await h.cp.kubectlOk(['delete', 'sup', 'maint', '-n', h.ns, '--wait=true', '--timeout=30s'], { timeoutMs: 40_000 });
    const gone = (await h.sidecar.listSuppressions()).filter((w) => w.owner?.startsWith(`k8s:${h.ns}/`));
    expect(gone).to.have.length(0);
  });

  it('a window already over is Expired and never sent; a key outside the namespace is refused with NamespaceMismatch', async () => {
    const past = { workload: `${h.ns}/Deployment/old`, start: new Date(Date.now() - 7_200_000).toISOString(), end: new Date(Date.now() - 3_600_000).toISOString() };
    await h.cp.kubectlOk(['apply', '-f', '-'], { input: manifest(h.ns, 'past', past) });
    await h.cp.kubectlOk(['apply', '-f', '-'], {
      input: manifest(h.ns, 'foreign', { workload: 'other/Deployment/x', start: past.start, end: new Date(Date.now() + 3_600_000).toISOString() }),
    });
    const expired = await eventually(async () => {
      const s = await h.kubectlJson<Suppression>(['get', 'sup', 'past', '-n', h.ns]);
      return s.status?.phase === 'Expired' ? s : undefined;
    }, 30_000, 'phase Expired');
    expect(expired.status?.suppressionId).to.equal(undefined);
    expect(expired.status?.conditions?.find((c) => c.type === 'Synced')).to.include({ status: 'True', reason: 'Ended' });
    const foreign = await eventually(async () => {
      const s = await h.kubectlJson<Suppression>(['get', 'sup', 'foreign', '-n', h.ns]);
      return s.status?.phase === 'Failed' ? s : undefined;
    }, 30_000, 'phase Failed');
    expect(foreign.status?.conditions?.find((c) => c.type === 'Accepted')).to.include({ status: 'False', reason: 'NamespaceMismatch' });
    expect((await h.sidecar.listSuppressions()).filter((w) => w.owner?.startsWith(`k8s:${h.ns}/`))).to.have.length(0);
    await h.cp.kubectlOk(['delete', 'sup', 'past', 'foreign', '-n', h.ns, '--wait=true', '--timeout=30s'], { timeoutMs: 40_000 });
  });

  it('the orphan sweep deletes owner-marked windows that no CR claims and leaves REST-created ones alone', async () => {
    const start = new Date(Date.now() - 60_000).toISOString();
    const end = new Date(Date.now() + 3_600_000).toISOString();
    const orphan = await h.sidecar.createSuppression({ workload: `${h.ns}/Deployment/a`, start, end, owner: `k8s:${h.ns}/ghost/00000000-0000-0000-0000-000000000000` });
    const manual = await h.svc.post('/suppressions', { workload: `${h.ns}/Deployment/b`, start, end });
    expect(manual.status).to.equal(201);
    // the sweep runs on leadership start and every 60 s; run one now
    const removed = await h.operator.sweepNow();
    expect(removed).to.be.greaterThanOrEqual(1);
    const ids = (await h.sidecar.listSuppressions()).map((w) => w.id);
    expect(ids).to.not.include(orphan.id);
    expect(ids).to.include((manual.body as { id: string }).id);
  });
});
