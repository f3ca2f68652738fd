/**
 * Packaging checked against the real kube-apiserver: the kustomize base and the Helm chart render
 * and pass `kubectl apply --dry-run=server`; the RBAC really grants what the operator needs and
 * nothing more; the OLM CSV owns the three CRDs and carries the same RBAC and pod.
 */
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import {
  REPO_ROOT,
  controlPlaneStartTimeoutMs,
  ensureControlPlane,
  run,
  toolPath,
  uniqueNamespace,
  type ControlPlane,
} from '../../support/control-plane.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { loadSettings } from '../../../api-server/src/config/load-settings.js';

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [key: string]: unknown;
}
interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  verbs: string[];
}
interface Probe {
  httpGet: { path: string; port: string };
}
interface Container {
  name: string;
  command: string[];
  ports: { name: string; containerPort: number; protocol: string }[];
  env: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  securityContext: { readOnlyRootFilesystem: boolean; allowPrivilegeEscalation: boolean; capabilities: { drop: string[] } };
  volumeMounts: { name: string; mountPath: string }[];
}
interface PodSpec {
  automountServiceAccountToken: boolean;
  serviceAccountName: string;
  securityContext: { runAsNonRoot: boolean };
  containers: Container[];
  volumes: { name: string; persistentVolumeClaim?: { claimName: string }; ephemeral?: object }[];
}
interface Deployment extends K8sObject {
  spec: { replicas: number; strategy: { type: string }; template: { spec: PodSpec } };
}
interface Csv {
  spec: {
    customresourcedefinitions: { owned: { name: string; version: string; kind: string }[] };
    install: {
      strategy: string;
      spec: {
        clusterPermissions: { serviceAccountName: string; rules: PolicyRule[] }[];
        permissions: { serviceAccountName: string; rules: PolicyRule[] }[];
        deployments: { name: string; spec: Deployment['spec'] }[];
      };
    };
  };
}

const OPERATOR_NS = 'faultline-system';
const OPERATOR_SA = `system:serviceaccount:${OPERATOR_NS}:faultline-operator`;
const CRD_FILES = [
  'health.faultline.io_suppressions.yaml',
  'health.faultline.io_workloadweights.yaml',
  'health.faultline.io_healthactions.yaml',
];

function parseDocs(text: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((doc) => doc.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
}
function readYaml<T>(...path: string[]): T {
  return parseYaml(readFileSync(join(REPO_ROOT, ...path), 'utf8')) as T;
}
function one<T extends K8sObject>(objects: K8sObject[], kind: string, name?: string): T {
  const found = objects.filter((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
  expect(found, `${kind} ${name ?? ''}`).to.have.length(1);
  return found[0] as T;
}

function expectPodOfSection14(pod: PodSpec, claim: 'pvc' | 'ephemeral'): void {
  expect(pod.automountServiceAccountToken).to.equal(false);
  expect(pod.serviceAccountName).to.equal('faultline-operator');
  expect(pod.securityContext.runAsNonRoot).to.equal(true);
  const [api, operator] = pod.containers;
  expect(api.name).to.equal('api-server');
  expect(operator.name).to.equal('operator');
  expect(api.ports.map((p) => `${p.containerPort}/${p.protocol}`)).to.include.members(['8080/TCP', '4317/TCP', '4318/TCP', '8125/UDP', '9090/TCP']);
  expect(api.startupProbe?.httpGet.path).to.equal('/api/v2/health');
  expect(api.livenessProbe?.httpGet.path).to.equal('/api/v2/health');
  expect(api.readinessProbe?.httpGet.path).to.equal('/api/v2/ready');
  expect(operator.readinessProbe, 'operator has no readiness probe').to.equal(undefined);
  expect(operator.livenessProbe?.httpGet.path).to.equal('/healthz');
  for (const c of pod.containers) {
    expect(c.securityContext.readOnlyRootFilesystem, c.name).to.equal(true);
    expect(c.securityContext.allowPrivilegeEscalation, c.name).to.equal(false);
    expect(c.securityContext.capabilities.drop, c.name).to.deep.equal(['ALL']);
    const key = c.env.find((e) => e.name === 'SVC_API_KEY');
    expect(key?.valueFrom?.secretKeyRef?.key, c.name).to.equal('api-key');
  }
  expect(api.volumeMounts.find((m) => m.name === 'data')?.mountPath).to.equal('/var/lib/faultline');
  expect(operator.volumeMounts.find((m) => m.name === 'kube-api-access')?.mountPath).to.equal(
    '/var/run/secrets/kubernetes.io/serviceaccount',
  );
  expect(api.volumeMounts.map((m) => m.name), 'no credentials in the api-server').to.not.include('kube-api-access');
  const data = pod.volumes.find((v) => v.name === 'data');
  if (claim === 'pvc') expect(data?.persistentVolumeClaim?.claimName).to.be.a('string');
  else expect(data?.ephemeral).to.be.an('object');
}

describe('operator manifests (kustomize, Helm, OLM) against a real kube-apiserver', function () {
  let cp: ControlPlane;
  let base: K8sObject[];
  let helmHome: { path: string; remove: () => Promise<void> };

  // Every rendered object names its namespace (helm template --namespace sets it), so no -n here.
  const dryRunServer = async (yamlText: string): Promise<string> =>
    cp.kubectlOk(['apply', '--dry-run=server', '-f', '-'], {
      input: yamlText,
      timeoutMs: 120_000,
    });

  const helm = async (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    const env = {
      ...process.env,
      HELM_CACHE_HOME: join(helmHome.path, 'cache'),
      HELM_CONFIG_HOME: join(helmHome.path, 'config'),
      HELM_DATA_HOME: join(helmHome.path, 'data'),
    };
    return run(toolPath('helm'), args, { env, timeoutMs: 120_000 });
  };
  const helmTemplate = async (...set: string[]): Promise<string> => {
    const r = await helm([
      'template', 'faultline', 'manifests/helm/faultline', '--namespace', OPERATOR_NS, '--include-crds',
      '--kube-version', '1.34.10', ...set.flatMap((s) => ['--set', s]),
    ]);
    if (r.code !== 0) throw new Error(`helm template failed: ${r.stderr}`);
    return r.stdout;
  };

  before(async function () {
    const helmMissing = !existsSync(toolPath('helm'));
    this.timeout(controlPlaneStartTimeoutMs() + (helmMissing ? 30 * 60_000 : 0) + 120_000);
    cp = await ensureControlPlane();
    if (helmMissing) {
      const built = await run(join(REPO_ROOT, 'hack', 'build-control-plane.sh'), ['helm'], { timeoutMs: 30 * 60_000 });
      if (built.code !== 0) throw new Error(`building helm failed: ${built.stderr}`);
    }
    helmHome = await makeTempDir('helm-home');
    await cp.kubectlOk(['apply', '--server-side', '--field-manager=faultline-tests', '-f', 'crds/'], { timeoutMs: 120_000 });
    await cp.kubectlOk(['wait', '--for=condition=Established', '--timeout=90s', 'crd', '-l', 'app.kubernetes.io/part-of=faultline']);
    await cp.kubectlOk(['apply', '-f', '-'], {
      input: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: OPERATOR_NS } }),
    });
    base = parseDocs(await cp.kubectlOk(['kustomize', 'manifests/base']));
    // The operator's real RBAC, applied for real: the can-i and admission tests act as its ServiceAccount.
    const rbac = base.filter((o) => ['ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'].includes(o.kind));
    await cp.kubectlOk(['apply', '-f', '-'], { input: rbac.map((o) => JSON.stringify(o)).join('\n') });
  });

  after(async function () {
    await helmHome?.remove();
  });

  it('renders the kustomize base and the API server accepts it (--dry-run=server)', async function () {
    const out = await dryRunServer(await cp.kubectlOk(['kustomize', 'manifests/base']));
    expect(out).to.contain('deployment.apps/faultline created (server dry run)');
    expect(out).to.contain('customresourcedefinition.apiextensions.k8s.io/healthactions.health.faultline.io');
    const kinds = base.map((o) => o.kind);
    expect(kinds).to.include.members(['Deployment', 'Service', 'ServiceAccount', 'PersistentVolumeClaim', 'ConfigMap']);
    for (const o of base.filter((x) => !['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition'].includes(x.kind))) {
      expect(o.metadata.namespace, `${o.kind}/${o.metadata.name}`).to.equal(OPERATOR_NS);
    }
  });

  it('the base pod is the pod of operator.md §14', function () {
    const deployment = one<Deployment>(base, 'Deployment', 'faultline');
    expect(deployment.spec.replicas).to.equal(1);
    expect(deployment.spec.strategy.type).to.equal('Recreate');
    expectPodOfSection14(deployment.spec.template.spec, 'pvc');
    const service = one<K8sObject & { spec: { ports: { name: string; port: number; protocol: string }[] } }>(base, 'Service');
    expect(service.spec.ports.map((p) => `${p.name}:${p.port}/${p.protocol}`)).to.deep.equal([
      'http:8080/TCP', 'otlp:4317/TCP', 'otlp-http:4318/TCP', 'statsd:8125/UDP', 'grpc:9090/TCP',
    ]);
  });

  it('the operator ServiceAccount gets exactly the permissions it needs (kubectl auth can-i, real RBAC)', async function () {
    this.timeout(120_000);
    const workloadNs = uniqueNamespace('shop');
    const can = async (...args: string[]): Promise<string> => {
      const r = await cp.kubectl(['auth', 'can-i', `--as=${OPERATOR_SA}`, ...args]);
      return r.stdout.trim();
    };
    const allowed: string[][] = [
      ['update', 'deployments', '--subresource=scale', '-n', workloadNs],
      ['get', 'deployments', '-n', workloadNs],
      ['patch', 'deployments', '-n', workloadNs],
      ['watch', 'healthactions.health.faultline.io', '-n', workloadNs],
      ['create', 'healthactions.health.faultline.io', '-n', workloadNs],
      ['patch', 'suppressions.health.faultline.io', '--subresource=status', '-n', workloadNs],
      ['list', 'horizontalpodautoscalers.autoscaling', '-n', workloadNs],
      ['create', 'events.events.k8s.io', '-n', workloadNs],
      ['create', 'leases.coordination.k8s.io', '-n', OPERATOR_NS],
      ['update', 'leases.coordination.k8s.io/faultline-operator', '-n', OPERATOR_NS],
    ];
    const denied: string[][] = [
      ['get', 'secrets', '-n', OPERATOR_NS],
      ['update', 'deployments', '-n', workloadNs],
      ['delete', 'pods', '-n', workloadNs],
      ['create', 'suppressions.health.faultline.io', '-n', workloadNs],
      ['update', 'leases.coordination.k8s.io/kube-scheduler', '-n', OPERATOR_NS],
      ['create', 'leases.coordination.k8s.io', '-n', workloadNs],
      ['*', '*'],
    ];
    for (const a of allowed) expect(await can(...a), a.join(' ')).to.equal('yes');
    for (const d of denied) expect(await can(...d), d.join(' ')).to.equal('no');
  });

  it('the Helm chart passes helm lint and its values schema refuses an unknown edition', async function () {
    const lint = await helm(['lint', 'manifests/helm/faultline', '--strict']);
    expect(lint.code, lint.stdout + lint.stderr).to.equal(0);
    const bad = await helm(['template', 'faultline', 'manifests/helm/faultline', '--set', 'edition=enterprise']);
    expect(bad.code).to.not.equal(0);
    expect(bad.stderr).to.contain('edition');
  });

  it('renders the Helm chart with default values and the API server accepts it (--dry-run=server)', async function () {
    const rendered = await helmTemplate();
    const objects = parseDocs(rendered);
    const deployment = one<Deployment>(objects, 'Deployment', 'faultline');
    expectPodOfSection14(deployment.spec.template.spec, 'pvc');
    expect(objects.map((o) => o.kind)).to.include.members(['Secret', 'PersistentVolumeClaim', 'CustomResourceDefinition']);
    const out = await dryRunServer(rendered);
    expect(out).to.contain('deployment.apps/faultline created (server dry run)');
  });

  it('renders the Helm chart in cluster mode: a StatefulSet of N replicas with a claim each, the Kafka settings, accepted by the API server', async function () {
    const rendered = await helmTemplate('cluster.enabled=true', 'cluster.replicas=3', 'cluster.brokers={kafka-0.kafka:9092,kafka-1.kafka:9092}', 'cluster.partitions=24');
    const objects = parseDocs(rendered);
    expect(objects.map((o) => o.kind)).to.not.include.members(['Deployment', 'PersistentVolumeClaim']);
    const sts = one<K8sObject & { spec: { replicas: number; podManagementPolicy: string; volumeClaimTemplates: { metadata: { name: string } }[]; template: { spec: PodSpec } } }>(objects, 'StatefulSet', 'faultline');
    expect(sts.spec.replicas).to.equal(3);
    expect(sts.spec.podManagementPolicy).to.equal('Parallel');
    expect(sts.spec.volumeClaimTemplates.map((v) => v.metadata.name)).to.deep.equal(['data']);
    expect(sts.spec.template.spec.volumes.map((v) => v.name)).to.not.include('data');
    // the api-server itself accepts the rendered config file (its own loader, not a copy of its rules)
    const config = one<K8sObject & { data: Record<string, string> }>(objects, 'ConfigMap', 'faultline-config').data['config.yaml'] as string;
    const dir = await makeTempDir('helm-config');
    try {
      await writeFile(join(dir.path, 'config.yaml'), config);
      const settings = loadSettings(['--config', join(dir.path, 'config.yaml')], {});
      expect(settings.deployment.cluster).to.include({ enabled: true, partitions: 24, telemetryTopic: 'faultline.telemetry', historyTopic: 'faultline.history', actionTimeoutMs: 10_000 });
      const standalone = one<K8sObject & { data: Record<string, string> }>(parseDocs(await helmTemplate()), 'ConfigMap', 'faultline-config').data['config.yaml'] as string;
      await writeFile(join(dir.path, 'standalone.yaml'), standalone);
      expect(loadSettings(['--config', join(dir.path, 'standalone.yaml')], {}).deployment.cluster.enabled).to.equal(false);
    } finally {
      await dir.remove();
    }
    const out = await dryRunServer(rendered);
    expect(out).to.contain('statefulset.apps/faultline created (server dry run)');
  });

  it('renders the static cluster overlay: a StatefulSet of 3 base pods with a claim each, a headless Service, the Kafka settings, accepted by the API server', async function () {
    const rendered = await cp.kubectlOk(['kustomize', 'manifests/cluster']);
    const objects = parseDocs(rendered);
    expect(objects.map((o) => o.kind)).to.not.include.members(['Deployment', 'PersistentVolumeClaim']);
    const sts = one<K8sObject & { spec: { replicas: number; serviceName: string; podManagementPolicy: string; volumeClaimTemplates: { metadata: { name: string } }[]; template: { spec: PodSpec } } }>(
      objects,
      'StatefulSet',
      'faultline',
    );
    expect(sts.spec.replicas).to.equal(3);
    expect(sts.spec.podManagementPolicy).to.equal('Parallel');
    expect(sts.spec.volumeClaimTemplates.map((v) => v.metadata.name)).to.deep.equal(['data']);
    expect(sts.spec.template.spec.volumes.map((v) => v.name)).to.not.include('data');
    // the pod is the base's pod, the data claim aside
    const basePod = one<Deployment>(base, 'Deployment', 'faultline').spec.template.spec;
    expect(sts.spec.template.spec.containers).to.deep.equal(basePod.containers);
    expect(sts.spec.template.spec.volumes).to.deep.equal(basePod.volumes.filter((v) => v.name !== 'data'));
    const headless = one<K8sObject & { spec: { clusterIP: string } }>(objects, 'Service', sts.spec.serviceName);
    expect(headless.spec.clusterIP).to.equal('None');
    expect(headless.metadata.namespace).to.equal(OPERATOR_NS);
    // the api-server itself accepts the config file (its own loader)
    const config = one<K8sObject & { data: Record<string, string> }>(objects, 'ConfigMap', 'faultline-config').data['config.yaml'] as string;
    const dir = await makeTempDir('cluster-config');
    try {
      await writeFile(join(dir.path, 'config.yaml'), config);
      const settings = loadSettings(['--config', join(dir.path, 'config.yaml')], { HOSTNAME: 'faultline-1' });
      expect(settings.deployment.cluster).to.include({ enabled: true, replicaId: 'faultline-1', partitions: 12, historyTopic: 'faultline.history' });
      expect(settings.deployment.actionExecutor).to.equal('external');
    } finally {
      await dir.remove();
    }
    const out = await dryRunServer(rendered);
    expect(out).to.contain('statefulset.apps/faultline created (server dry run)');
    expect(out).to.contain('service/faultline-replicas created (server dry run)');
  });

  it('renders the Helm chart in namespaced mode with the admission policy and network policy, accepted by the API server', async function () {
    const [a, b] = [uniqueNamespace('team-a'), uniqueNamespace('team-b')];
    for (const name of [a, b]) await cp.kubectlOk(['create', 'namespace', name]);
    const rendered = await helmTemplate(
      'rbac.scope=namespaced',
      `rbac.namespaces={${a},${b}}`,
      'admissionPolicy.enabled=true',
      'networkPolicy.enabled=true',
      'apiKey.existingSecret=my-key',
      'persistence.existingClaim=my-claim',
    );
    const objects = parseDocs(rendered);
    expect(objects.filter((o) => o.kind === 'Role' && o.metadata.name === 'faultline-operator').map((o) => o.metadata.namespace))
      .to.deep.equal([a, b]);
    const clusterRole = one<K8sObject & { rules: PolicyRule[] }>(objects, 'ClusterRole', 'faultline-operator');
    expect(clusterRole.rules.flatMap((r) => r.resources ?? [])).to.deep.equal(['namespaces', 'events']);
    expect(objects.map((o) => o.kind)).to.include.members(['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding', 'NetworkPolicy']);
    expect(objects.map((o) => o.kind)).to.not.include.members(['Secret', 'PersistentVolumeClaim']);
    const out = await dryRunServer(rendered);
    expect(out).to.contain('validatingadmissionpolicy.admissionregistration.k8s.io/faultline-scoping created (server dry run)');
  });

  it("the chart's ValidatingAdmissionPolicy really confines Suppressions and WorkloadWeights to their namespace and HealthAction creation to the operator", async function () {
    this.timeout(120_000);
    const label = uniqueNamespace('vap');
    const policy = one<K8sObject>(parseDocs(await helmTemplate('admissionPolicy.enabled=true')), 'ValidatingAdmissionPolicy');
    policy.metadata.name = `faultline-scoping-${label}`;
    // Our own binding, limited to namespaces carrying this test's label, so other tests are unaffected.
    const binding = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: policy.metadata.name },
      spec: {
        policyName: policy.metadata.name,
        validationActions: ['Deny'],
        matchResources: { namespaceSelector: { matchLabels: { 'faultline-test/vap': label } } },
      },
    };
    const ns = uniqueNamespace('vap-shop');
    await cp.kubectlOk(['create', 'namespace', ns]);
    await cp.kubectlOk(['label', 'namespace', ns, `faultline-test/vap=${label}`]);
    await cp.kubectlOk(['apply', '-f', '-'], { input: [policy, binding].map((o) => JSON.stringify(o)).join('\n') });
    try {
      const suppression = (name: string, workload: string): string =>
        JSON.stringify({
          apiVersion: 'health.faultline.io/v1alpha1', kind: 'Suppression', metadata: { name, namespace: ns },
          spec: { workload, start: '2030-01-01T00:00:00Z', end: '2030-01-01T01:00:00Z' },
        });
      // The policy becomes active asynchronously: poll until it refuses a foreign target.
      let refusal = '';
      for (let attempt = 0; attempt < 60 && !refusal.includes('may only target workloads of its own namespace'); attempt++) {
        const r = await cp.kubectl(['create', '--dry-run=server', '-f', '-'], { input: suppression('foreign', 'other/Deployment/cart') });
        refusal = r.code === 0 ? '' : r.stderr;
        if (!refusal) await new Promise((done) => setTimeout(done, 1000));
      }
      expect(refusal).to.contain('may only target workloads of its own namespace');
      await cp.kubectlOk(['create', '-f', '-'], { input: suppression('own', `${ns}/Deployment/cart`) });
      const star = await cp.kubectl(['create', '-f', '-'], { input: suppression('everything', '*') });
      expect(star.stderr).to.contain(`* only in ${OPERATOR_NS}`);
      const weight = await cp.kubectl(['create', '-f', '-'], {
        input: JSON.stringify({
          apiVersion: 'health.faultline.io/v1alpha1', kind: 'WorkloadWeight', metadata: { name: 'foreign', namespace: ns },
          spec: { selector: 'other/*', stress: 1 },
        }),
      });
      expect(weight.stderr).to.contain('may only select workloads of its own namespace');
      const action = JSON.stringify({
        apiVersion: 'health.faultline.io/v1alpha1', kind: 'HealthAction', metadata: { name: 'act-0000000000a1', namespace: ns },
        spec: { actionId: 'act_0000000000a1', workload: `${ns}/Deployment/cart`, type: 'alert', tier: 2, createdAt: '2030-01-01T00:00:00Z' },
      });
      const byAdmin = await cp.kubectl(['create', '-f', '-'], { input: action });
      expect(byAdmin.stderr).to.contain('only the Faultline operator');
      await cp.kubectlOk(['create', `--as=${OPERATOR_SA}`, '-f', '-'], { input: action });
    } finally {
      await cp.kubectl(['delete', 'validatingadmissionpolicybinding,validatingadmissionpolicy', policy.metadata.name]);
    }
  });

  it('gives the same operator RBAC in the kustomize base, the Helm chart and the OLM CSV', async function () {
    const baseRules = one<K8sObject & { rules: PolicyRule[] }>(base, 'ClusterRole', 'faultline-operator').rules;
    const baseLease = one<K8sObject & { rules: PolicyRule[] }>(base, 'Role', 'faultline-leader-election').rules;
    const helmObjects = parseDocs(await helmTemplate());
    expect(one<K8sObject & { rules: PolicyRule[] }>(helmObjects, 'ClusterRole', 'faultline-operator').rules).to.deep.equal(baseRules);
    expect(one<K8sObject & { rules: PolicyRule[] }>(helmObjects, 'Role', 'faultline-leader-election').rules).to.deep.equal(baseLease);
    const csv = readYaml<Csv>('manifests', 'bundle', 'manifests', 'faultline-operator.clusterserviceversion.yaml');
    expect(csv.spec.install.spec.clusterPermissions).to.deep.equal([{ serviceAccountName: 'faultline-operator', rules: baseRules }]);
    expect(csv.spec.install.spec.permissions).to.deep.equal([{ serviceAccountName: 'faultline-operator', rules: baseLease }]);
  });

  it('the OLM CSV owns the three CRDs, and the bundle and the chart carry identical copies of crds/', function () {
    const csv = readYaml<Csv>('manifests', 'bundle', 'manifests', 'faultline-operator.clusterserviceversion.yaml');
    const owned = csv.spec.customresourcedefinitions.owned;
    expect(owned.map((o) => o.name).sort()).to.deep.equal([
      'healthactions.health.faultline.io',
      'suppressions.health.faultline.io',
      'workloadweights.health.faultline.io',
    ]);
    for (const file of CRD_FILES) {
      const source = readFileSync(join(REPO_ROOT, 'crds', file), 'utf8');
      for (const copy of [['manifests', 'bundle', 'manifests', file], ['manifests', 'helm', 'faultline', 'crds', file]]) {
        expect(readFileSync(join(REPO_ROOT, ...copy), 'utf8'), `${copy.join('/')} (run hack/sync-crds.sh)`).to.equal(source);
      }
      const crd = parseYaml(source) as { metadata: { name: string }; spec: { names: { kind: string } } };
      const entry = owned.find((o) => o.name === crd.metadata.name);
      expect(entry, crd.metadata.name).to.deep.include({ kind: crd.spec.names.kind, version: 'v1alpha1' });
    }
    const annotations = readYaml<{ annotations: Record<string, string> }>('manifests', 'bundle', 'metadata', 'annotations.yaml');
    expect(annotations.annotations['operators.operatorframework.io.bundle.package.v1']).to.equal('faultline-operator');
  });

  it("the CSV's install strategy is the §14 pod, and the API server accepts it as a Deployment (--dry-run=server)", async function () {
    const csv = readYaml<Csv>('manifests', 'bundle', 'manifests', 'faultline-operator.clusterserviceversion.yaml');
    expect(csv.spec.install.strategy).to.equal('deployment');
    const [entry] = csv.spec.install.spec.deployments;
    expectPodOfSection14(entry.spec.template.spec, 'ephemeral');
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: entry.name, namespace: OPERATOR_NS }, spec: entry.spec };
    const out = await dryRunServer(JSON.stringify(deployment));
    expect(out).to.contain('deployment.apps/faultline created (server dry run)');
  });
});
