/**
 * Shared set-up of the reconcile tests: the real control plane with the CRDs, the real api-server
 * in-process (autopilot, external executor, short tick), and the Operator in-process watching one
 * fresh namespace (also its own namespace, so leases and `*` scope stay per test).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { pino } from 'pino';
import type { HealthAction } from '../../../operator/src/crd-types.js';
import { Operator } from '../../../operator/src/operator.js';
import { OperatorMetrics } from '../../../operator/src/ops/operator-metrics.js';
import type { OperatorSettings } from '../../../operator/src/settings.js';
import { SidecarClient } from '../../../operator/src/sidecar/sidecar-client.js';
import type { ControlPlane } from '../../support/control-plane.js';
import { createNamespace, ensureControlPlane } from '../../support/control-plane.js';
import type { TestService } from '../../support/service.js';
import { eventually, startTestService } from '../../support/service.js';
import { makeTempDir } from '../../support/temp-dir.js';

/** what `kubectl get healthactions -o json` returns */
export interface HealthActionList {
  items: HealthAction[];
}

/** a Deployment of `replicas` as `kubectl apply -f -` takes it (its pods never start: a bare control plane runs no controllers) */
export function deploymentManifest(ns: string, name: string, replicas: number): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: ns },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'registry.invalid/app:1' }] } },
    },
  });
}

export const CRD_NAMES = ['suppressions', 'workloadweights', 'healthactions'].map((p) => `crd/${p}.health.faultline.io`);

export interface Harness {
  cp: ControlPlane;
  svc: TestService;
  ns: string;
  operator: Operator;
  sidecar: SidecarClient;
  kubectlJson<T>(args: string[]): Promise<T>;
  stop(): Promise<void>;
}

export async function installCrds(cp: ControlPlane): Promise<void> {
  await cp.kubectlOk(['apply', '--server-side', '--field-manager=faultline-tests', '-f', 'crds/'], { timeoutMs: 120_000 });
  await cp.kubectlOk(['wait', '--for=condition=Established', '--timeout=90s', ...CRD_NAMES], { timeoutMs: 120_000 });
}

export function operatorSettings(ns: string, engineUrl: string, apiKey: string | undefined, identity = `test-${ns}`): OperatorSettings {
  return {
    engineUrl,
    apiKey,
    namespace: ns,
    identity,
    opsPort: 0,
    weightsSource: 'crd',
    actionPollSeconds: 0.5,
    maxReplicas: 50,
    maxStep: undefined,
    maxActionAgeMinutes: 30,
    executionNamespaces: undefined,
    watchNamespaces: [ns],
    dryRun: false,
    resyncMinutes: 10,
    leaseDurationSeconds: 15,
    renewDeadlineMs: 10_000,
    retryPeriodMs: 500,
    logLevel: 'silent',
  };
}

export async function startHarness(prefix: string, engineYaml: string[] = [], edition: 'autopilot' | 'community' = 'autopilot'): Promise<Harness> {
  const cp = await ensureControlPlane();
  await installCrds(cp);
  const ns = await createNamespace(cp, prefix);
  const configDir = await makeTempDir('opcfg');
  const config = join(configDir.path, 'faultline.yaml');
  await writeFile(config, ['actions:', '  executor: external', '  sustain_seconds: 0', 'alerts:', '  single_source_emergency_minutes: 0', 'simulation:', '  baseline_minutes: 30', ...engineYaml].join('\n'));
  const key = 'operator-test-key';
  const svc = await startTestService({ args: ['--edition', edition, '--config', config], key });
  const kc = new KubeConfig();
  kc.loadFromFile(cp.kubeconfig);
  const sidecar = new SidecarClient(svc.api, key);
  const logger = pino({ level: process.env['FAULTLINE_TEST_LOG'] ?? 'silent' });
  const operator = new Operator(kc, operatorSettings(ns, svc.api, key), sidecar, logger, new OperatorMetrics(), (reason) => {
    throw new Error(`test operator lost leadership: ${reason}`);
  });
  await operator.start();
  await eventually(async () => (operator.isLeader ? true : undefined), 30_000, 'the operator to lead');
  return {
    cp,
    svc,
    ns,
    operator,
    sidecar,
    async kubectlJson<T>(args: string[]): Promise<T> {
      return JSON.parse(await cp.kubectlOk([...args, '-o', 'json'])) as T;
    },
    async stop() {
      await operator.stop();
      await svc.stop();
      await svc.remove();
      await configDir.remove();
    },
  };
}
