/**
 * The three CRDs on a real kube-apiserver (built from Go modules, started by the harness):
 * they become Established, the API server's schema and CEL validation refuse bad objects with a
 * message naming the field, valid objects are stored, and `kubectl get` prints the printer columns.
 */
import { expect } from 'chai';
import {
  controlPlaneStartTimeoutMs,
  createNamespace,
  ensureControlPlane,
  type CommandResult,
  type ControlPlane,
} from '../../support/control-plane.js';

const CRD_NAMES = [
  'suppressions.health.faultline.io',
  'workloadweights.health.faultline.io',
  'healthactions.health.faultline.io',
];

interface CrdStatus {
  status: {
    conditions: { type: string; status: string }[];
    acceptedNames: { kind: string; shortNames: string[]; categories: string[] };
  };
}

function manifest(kind: string, name: string, namespace: string, spec: object, status?: object): string {
  return JSON.stringify({
    apiVersion: 'health.faultline.io/v1alpha1',
    kind,
    metadata: { name, namespace },
    spec,
    ...(status ? { status } : {}),
  });
}

function refusal(result: CommandResult): string {
  expect(result.code, `expected the API server to refuse the object; stdout: ${result.stdout}`).to.not.equal(0);
  return result.stderr;
}

describe('operator CRDs on a real kube-apiserver', function () {
  let cp: ControlPlane;
  let ns: string;
  const future = (hours: number): string => new Date(Date.now() + hours * 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');

  before(async function () {
    this.timeout(controlPlaneStartTimeoutMs() + 120_000);
    cp = await ensureControlPlane();
    await cp.kubectlOk(['apply', '--server-side', '--field-manager=faultline-tests', '-f', 'crds/'], { timeoutMs: 120_000 });
    await cp.kubectlOk(['wait', '--for=condition=Established', '--timeout=90s', ...CRD_NAMES.map((n) => `crd/${n}`)], {
      timeoutMs: 120_000,
    });
    ns = await createNamespace(cp, 'crds');
  });

  const create = (body: string): Promise<CommandResult> => cp.kubectl(['create', '-f', '-'], { input: body });

  it('installs three Established CRDs with their short names and the faultline category', async function () {
    const expected: Record<string, [string, string]> = {
      'suppressions.health.faultline.io': ['Suppression', 'sup'],
      'workloadweights.health.faultline.io': ['WorkloadWeight', 'ww'],
      'healthactions.health.faultline.io': ['HealthAction', 'hact'],
    };
    for (const name of CRD_NAMES) {
      const crd = JSON.parse(await cp.kubectlOk(['get', 'crd', name, '-o', 'json'])) as CrdStatus;
      const established = crd.status.conditions.find((c) => c.type === 'Established');
      expect(established?.status, name).to.equal('True');
      expect(crd.status.acceptedNames.kind).to.equal(expected[name][0]);
      expect(crd.status.acceptedNames.shortNames).to.deep.equal([expected[name][1]]);
      expect(crd.status.acceptedNames.categories).to.deep.equal(['faultline']);
    }
  });

  it('refuses a Suppression whose workload is not a workload key', async function () {
    const err = refusal(
      await create(manifest('Suppression', 'bad-key', ns, { workload: `${ns}/Pod/cart`, start: future(1), end: future(2) })),
    );
    expect(err).to.contain('spec.workload').and.to.contain('should match');
  });

  it('refuses a Suppression whose end is not an RFC 3339 time', async function () {
    const err = refusal(
      await create(manifest('Suppression', 'bad-end', ns, { workload: `${ns}/Deployment/cart`, start: future(1), end: 'tomorrow' })),
    );
    expect(err).to.contain('spec.end').and.to.contain('date-time');
  });

  it('refuses a Suppression that names an unknown signal', async function () {
    const err = refusal(
      await create(
        manifest('Suppression', 'bad-signal', ns, {
          workload: `${ns}/Deployment/cart`,
          start: future(1),
          end: future(2),
          signals: ['stress', 'happiness'],
        }),
      ),
    );
    expect(err).to.contain('spec.signals[1]').and.to.contain('Unsupported value: "happiness"');
  });

  it('refuses a Suppression that ends before it starts (CEL rule)', async function () {
    const err = refusal(
      await create(manifest('Suppression', 'backwards', ns, { workload: `${ns}/Deployment/cart`, start: future(2), end: future(1) })),
    );
    expect(err).to.contain('spec.end').and.to.contain('spec.end must be later than spec.start');
  });

  it('refuses a WorkloadWeight with a negative weight', async function () {
    const err = refusal(await create(manifest('WorkloadWeight', 'negative', ns, { selector: `${ns}/*`, stress: -1, mood: 1 })));
    expect(err).to.contain('spec.stress').and.to.contain('greater than or equal to 0');
  });

  it('refuses a WorkloadWeight whose weights are all zero (CEL rule)', async function () {
    const err = refusal(await create(manifest('WorkloadWeight', 'all-zero', ns, { selector: `${ns}/*`, stress: 0 })));
    expect(err).to.contain('at least one of stress, fatigue, mood, pressure, humidity, contagion must be greater than 0');
  });

  it('refuses a HealthAction with a malformed action id', async function () {
    const err = refusal(
      await create(
        manifest('HealthAction', 'act-bad', ns, {
          actionId: 'act_XYZ',
          workload: `${ns}/Deployment/cart`,
          type: 'alert',
          tier: 2,
          createdAt: future(0),
        }),
      ),
    );
    expect(err).to.contain('spec.actionId').and.to.contain('should match');
  });

  it('accepts a valid Suppression and shows it with its printer columns', async function () {
    const start = future(1);
    const end = future(3);
    await cp.kubectlOk(['create', '-f', '-'], {
      input: manifest('Suppression', 'cart-window', ns, {
        workload: `${ns}/Deployment/cart`,
        start,
        end,
        reason: 'database migration',
        signals: ['pressure', 'health_score'],
        ttlSecondsAfterExpiry: 3600,
      }),
    });
    const out = await cp.kubectlOk(['get', 'sup', '-n', ns]);
    const [header, row] = out.trim().split('\n');
    expect(header.split(/\s+/)).to.deep.equal(['NAME', 'WORKLOAD', 'START', 'END', 'PHASE', 'AGE']);
    expect(row.split(/\s+/).slice(0, 4)).to.deep.equal(['cart-window', `${ns}/Deployment/cart`, start, end]);
  });

  it('accepts a WorkloadWeight with an integer weight (numbers reach CEL as doubles) and defaults priority to 0', async function () {
    await cp.kubectlOk(['create', '-f', '-'], {
      input: manifest('WorkloadWeight', 'cart-weights', ns, { selector: `${ns}/Deployment/cart`, stress: 2 }),
    });
    const stored = JSON.parse(await cp.kubectlOk(['get', 'ww', 'cart-weights', '-n', ns, '-o', 'json'])) as {
      spec: { priority: number; stress: number };
    };
    expect(stored.spec).to.deep.include({ priority: 0, stress: 2 });
  });

  it('accepts a valid HealthAction; `kubectl get healthactions` prints workload, type, replicas, tier, state and age', async function () {
    await cp.kubectlOk(['create', '-f', '-'], {
      input: manifest('HealthAction', 'act-4c1d9e0a7b22', ns, {
        actionId: 'act_4c1d9e0a7b22',
        workload: `${ns}/Deployment/cart`,
        type: 'scale',
        params: { replicas: 5, reason: 'pressure rising' },
        tier: 2,
        ruptureId: 'r_0001',
        fusedRuptureIndex: 4.31,
        createdAt: future(0),
      }),
    });
    // status is a subresource: only a write to /status sets it.
    await cp.kubectlOk([
      'patch', 'healthaction', 'act-4c1d9e0a7b22', '-n', ns, '--subresource=status', '--type=merge',
      '-p', JSON.stringify({ status: { state: 'Pending', reason: 'AwaitingApproval' } }),
    ]);
    const out = await cp.kubectlOk(['get', 'healthactions', '-n', ns]);
    const [header, row] = out.trim().split('\n');
    expect(header.split(/\s+/)).to.deep.equal(['NAME', 'WORKLOAD', 'TYPE', 'REPLICAS', 'TIER', 'STATE', 'AGE']);
    expect(row.split(/\s+/).slice(0, 6)).to.deep.equal(['act-4c1d9e0a7b22', `${ns}/Deployment/cart`, 'scale', '5', '2', 'Pending']);

    const wide = await cp.kubectlOk(['get', 'hact', '-n', ns, '-o', 'wide']);
    expect(wide.trim().split('\n')[0].split(/\s+/)).to.deep.equal([
      'NAME', 'WORKLOAD', 'TYPE', 'REPLICAS', 'TIER', 'STATE', 'APPROVED', 'FROM', 'FUSEDR', 'REASON', 'AGE',
    ]);
  });

  it('ignores status sent with the object itself (status subresource)', async function () {
    await cp.kubectlOk(['create', '-f', '-'], {
      input: manifest('WorkloadWeight', 'with-status', ns, { selector: `${ns}/*`, mood: 1 }, { position: 7 }),
    });
    const stored = JSON.parse(await cp.kubectlOk(['get', 'ww', 'with-status', '-n', ns, '-o', 'json'])) as { status?: object };
    expect(stored.status).to.equal(undefined);
  });

  it('refuses withdrawing an approval (transition rule)', async function () {
    await cp.kubectlOk(['create', '-f', '-'], {
      input: manifest('HealthAction', 'act-00000000beef', ns, {
        actionId: 'act_00000000beef',
        workload: `${ns}/Deployment/cart`,
        type: 'scale',
        params: { delta: 1 },
        tier: 2,
        createdAt: future(0),
        approved: true,
      }),
    });
    const result = await cp.kubectl([
      'patch', 'hact', 'act-00000000beef', '-n', ns, '--type=merge', '-p', '{"spec":{"approved":false}}',
    ]);
    expect(refusal(result)).to.contain('approval cannot be withdrawn');
  });

  it('lists all three kinds under the faultline category', async function () {
    const out = await cp.kubectlOk(['get', 'faultline', '-n', ns, '-o', 'name']);
    const kinds = new Set(out.trim().split('\n').map((line) => line.split('/')[0]));
    expect([...kinds].sort()).to.deep.equal([
      'healthaction.health.faultline.io',
      'suppression.health.faultline.io',
      'workloadweight.health.faultline.io',
    ]);
  });
});
