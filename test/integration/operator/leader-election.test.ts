import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { CoordinationV1Api, KubeConfig } from '@kubernetes/client-node';
import { LeaderElector } from '../../../operator/src/kube/leader-election.js';
import type { ControlPlane } from '../../support/control-plane.js';
import { REPO_ROOT, controlPlaneStartTimeoutMs, createNamespace, ensureControlPlane } from '../../support/control-plane.js';
import type { TestService } from '../../support/service.js';
import { eventually, startTestService } from '../../support/service.js';
import { installCrds } from './reconcile-harness.js';

interface OperatorProcess {
  child: ChildProcess;
  opsPort: number;
  output: string[];
  exited: Promise<number | null>;
}

/** `operator/src/main.ts` as its own process (what `npm run operator` runs, from source). */
async function startOperatorProcess(kubeconfig: string, ns: string, podName: string, engineUrl: string, key: string): Promise<OperatorProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'operator/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      KUBECONFIG: kubeconfig,
      POD_NAMESPACE: ns,
      POD_NAME: podName,
      FAULTLINE_ENGINE_URL: engineUrl,
      SVC_API_KEY: key,
      OPERATOR_OPS_PORT: '0',
      OPERATOR_WATCH_NAMESPACES: ns,
      OPERATOR_LEASE_DURATION_SECONDS: '4',
      OPERATOR_RENEW_DEADLINE_MS: '3000',
      OPERATOR_RETRY_PERIOD_MS: '500',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const opsPort = await new Promise<number>((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        output.push(line);
        const parsed = JSON.parse(line) as { opsPort?: number };
        if (parsed.opsPort !== undefined) resolve(parsed.opsPort);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
    void exited.then((code) => reject(new Error(`operator exited ${String(code)} before listening:\n${output.join('\n')}`)));
  });
  return { child, opsPort, output, exited };
}

const readyz = async (p: OperatorProcess): Promise<string> => (await fetch(`http://127.0.0.1:${p.opsPort}/readyz`)).text();

describe('operator leader election on a real kube-apiserver Lease', function () {
  this.timeout(120_000);
  let cp: ControlPlane;
  let api: CoordinationV1Api;

  before(async function () {
    this.timeout(controlPlaneStartTimeoutMs());
    cp = await ensureControlPlane();
    await installCrds(cp);
    const kc = new KubeConfig();
    kc.loadFromFile(cp.kubeconfig);
    api = kc.makeApiClient(CoordinationV1Api);
  });

  describe('two operator processes', () => {
    let svc: TestService;
    const procs: OperatorProcess[] = [];
    before(async () => {
      svc = await startTestService({ args: ['--edition', 'autopilot'], key: 'lease-key' });
    });
    after(async () => {
      for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
      await svc.stop();
      await svc.remove();
    });

    it('the second replica waits on the Lease; kill -9 of the leader hands over; SIGTERM releases the Lease', async () => {
      const ns = await createNamespace(cp, 'lease');
      const holder = async (): Promise<string> => cp.kubectlOk(['get', 'lease', 'faultline-operator', '-n', ns, '-o', 'jsonpath={.spec.holderIdentity}']);
      const a = await startOperatorProcess(cp.kubeconfig, ns, 'op-a', svc.api, 'lease-key');
      procs.push(a);
      await eventually(async () => ((await readyz(a)) === 'leader' ? true : undefined), 30_000, 'op-a to lead');
      const b = await startOperatorProcess(cp.kubeconfig, ns, 'op-b', svc.api, 'lease-key');
      procs.push(b);
      expect(await readyz(b)).to.equal('standby');
      // more than a lease duration: a renewing leader keeps b waiting
      await new Promise((r) => setTimeout(r, 6_000));
      expect(await readyz(b)).to.equal('standby');
      expect(await holder()).to.match(/^op-a_[0-9a-f]{8}$/);
      const metrics = await (await fetch(`http://127.0.0.1:${b.opsPort}/metrics`)).text();
      expect(metrics).to.match(/^faultline_operator_leader 0$/m);

      a.child.kill('SIGKILL');
      await a.exited;
      await eventually(async () => ((await readyz(b)) === 'leader' ? true : undefined), 20_000, 'op-b to take over');
      expect(await holder()).to.match(/^op-b_[0-9a-f]{8}$/);
      expect(await cp.kubectlOk(['get', 'lease', 'faultline-operator', '-n', ns, '-o', 'jsonpath={.spec.leaseTransitions}'])).to.equal('1');

      b.child.kill('SIGTERM');
      expect(await b.exited).to.equal(0);
      expect(await holder()).to.equal('');
    });
  });

  it('in-process: stop() releases the Lease so a standby takes over at once', async () => {
    const ns = await createNamespace(cp, 'lease');
    const log: string[] = [];
    const candidate = (identity: string): LeaderElector =>
      new LeaderElector(
        api,
        { namespace: ns, name: 'faultline-operator', identity, leaseDurationSeconds: 30, renewDeadlineMs: 10_000, retryPeriodMs: 500 },
        { startedLeading: () => log.push(`${identity} leads`), stoppedLeading: (r) => log.push(`${identity} stopped: ${r}`) },
      );
    const a = candidate('a');
    const b = candidate('b');
    a.start();
    await eventually(async () => (a.state === 'leader' ? true : undefined), 10_000, 'a to lead');
    b.start();
    await a.stop();
    expect(await cp.kubectlOk(['get', 'lease', 'faultline-operator', '-n', ns, '-o', 'jsonpath={.spec.holderIdentity}'])).to.equal('');
    // released: with a 30 s lease, only the empty holder lets b in this quickly
    await eventually(async () => (b.state === 'leader' ? true : undefined), 5_000, 'b to take over after release');
    await b.stop();
    expect(log).to.deep.equal(['a leads', 'b leads']);
  });
});
