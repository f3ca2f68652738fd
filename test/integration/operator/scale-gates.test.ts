import { AppsV1Api, AutoscalingV2Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { expect } from 'chai';
import type { GateContext } from '../../../operator/src/reconcile/scale-executor.js';
import { ScaleExecutor } from '../../../operator/src/reconcile/scale-executor.js';
import type { SidecarAction } from '../../../operator/src/sidecar/sidecar-client.js';
import type { ControlPlane } from '../../support/control-plane.js';
import { controlPlaneStartTimeoutMs, createNamespace, ensureControlPlane } from '../../support/control-plane.js';

function deployment(ns: string, name: string, annotations: Record<string, string> = {}): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: ns, annotations },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'registry.invalid/app:1' }] } },
    },
  });
}

function action(workload: string, overrides: Partial<SidecarAction> = {}): SidecarAction {
  return {
    id: 'act_000000000001',
    workload,
    type: 'scale',
    params: { delta: 2 },
    tier: 1,
    state: 'approved',
    rupture_id: 'r_000000000001',
    created_at: new Date().toISOString(),
    description: 'scale',
    confidence: 0.9,
    fused_rupture_index: 5,
    approved_by: 'engine',
    blocked_by: null,
    rollback_requested: false,
    reason: null,
    execution: null,
    ...overrides,
  };
}

describe('operator scale gates (operator.md §9.3) against a real kube-apiserver', function () {
  this.timeout(120_000);
  let cp: ControlPlane;
  let executor: ScaleExecutor;
  let ns: string;
  let clear: GateContext;
  beforeEach(() => {
    // the clock of each test, not of the moment mocha loaded this file
    clear = { emergencyStop: false, activeSuppression: () => false, nowMs: Date.now() };
  });

  before(async function () {
    this.timeout(controlPlaneStartTimeoutMs());
    cp = await ensureControlPlane();
    const kc = new KubeConfig();
    kc.loadFromFile(cp.kubeconfig);
    executor = new ScaleExecutor(kc.makeApiClient(AppsV1Api), kc.makeApiClient(AutoscalingV2Api), kc.makeApiClient(CoreV1Api), {
      maxReplicas: 50,
      maxActionAgeMs: 30 * 60_000,
      dryRun: false,
    });
    ns = await createNamespace(cp, 'gates');
    await cp.kubectlOk(['apply', '-f', '-'], { input: deployment(ns, 'api') });
    await cp.kubectlOk(['apply', '-f', '-'], { input: deployment(ns, 'optout', { 'health.faultline.io/automation': 'disabled' }) });
    await cp.kubectlOk(['apply', '-f', '-'], { input: deployment(ns, 'scaled') });
    await cp.kubectlOk(['apply', '-f', '-'], {
      input: JSON.stringify({
        apiVersion: 'autoscaling/v2',
        kind: 'HorizontalPodAutoscaler',
        metadata: { name: 'scaled', namespace: ns },
        spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'scaled' }, minReplicas: 1, maxReplicas: 5, metrics: [] },
      }),
    });
  });

  it('lets an action run when every gate holds', async () => {
    expect(await executor.gate(action(`${ns}/Deployment/api`), clear)).to.equal(undefined);
  });

  it('refuses engine-approved executions during an emergency stop and under an active suppression; manual approvals still run', async () => {
    expect(await executor.gate(action(`${ns}/Deployment/api`), { ...clear, emergencyStop: true })).to.include({ kind: 'refused', reason: 'GateEmergencyStop' });
    expect(await executor.gate(action(`${ns}/Deployment/api`), { ...clear, activeSuppression: (w) => w === `${ns}/Deployment/api` })).to.include({
      kind: 'refused',
      reason: 'GateSuppression',
    });
    const manual = action(`${ns}/Deployment/api`, { approved_by: 'api' });
    expect(await executor.gate(manual, { ...clear, emergencyStop: true, activeSuppression: () => true })).to.equal(undefined);
  });

  it('refuses other types and kinds, opted-out targets, autoscaled scale targets, stale automation; defers a missing target', async () => {
    expect(await executor.gate(action(`${ns}/Deployment/api`, { type: 'alert', params: { reason: 'investigate' } }), clear)).to.include({ reason: 'UnsupportedActionType' });
    expect(await executor.gate(action(`${ns}/StatefulSet/db`), clear)).to.include({ reason: 'UnsupportedTargetKind' });
    expect(await executor.gate(action(`${ns}/Deployment/optout`), clear)).to.include({ reason: 'OptedOut' });
    expect(await executor.gate(action(`${ns}/Deployment/scaled`), clear)).to.include({ reason: 'ManagedByAutoscaler' });
    // a restart goes through the same gates but the autoscaler's: an HPA owns the count, not the pods
    expect(await executor.gate(action(`${ns}/Deployment/scaled`, { type: 'restart', params: { strategy: 'rolling' } }), clear)).to.equal(undefined);
    expect(await executor.gate(action(`${ns}/Deployment/optout`, { type: 'restart', params: { strategy: 'rolling' } }), clear)).to.include({ reason: 'OptedOut' });
    expect(await executor.gate(action(`${ns}/Deployment/missing`), clear)).to.include({ kind: 'defer', reason: 'TargetNotFound' });
    const old = action(`${ns}/Deployment/api`, { created_at: new Date(Date.now() - 31 * 60_000).toISOString() });
    expect(await executor.gate(old, clear)).to.include({ reason: 'Stale' });
  });
});
