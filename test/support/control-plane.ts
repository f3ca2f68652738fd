/**
 * A real etcd + kube-apiserver for the integration tests (docs: operator.md §17).
 *
 * `ensureControlPlane()` runs hack/start-control-plane.sh once per mocha run; the script reuses a
 * control plane that is already up (started by hand or by a parallel run) and builds the binaries
 * from Go modules when the cache lacks them. The root hook in test/support/hooks.ts releases it at
 * the end of the run: it is stopped only when a harness started it and no other run still uses it.
 * The same hook prints its logs when a test fails.
 * With FAULTLINE_KUBECONFIG set (hack/kind-e2e.sh) the tests run against that cluster instead.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const HACK = join(REPO_ROOT, 'hack');

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface KubectlOptions {
  /** Written to stdin (e.g. a manifest for `apply -f -`). */
  input?: string;
  /** Kill the command after this many ms (default 60 s). */
  timeoutMs?: number;
}

export interface ControlPlane {
  kubeconfig: string;
  /** The kubectl binary in use (kubectl.1.33 beside the dispatcher, or $KUBECTL). */
  kubectlPath: string;
  /** Runs kubectl against the control plane; never throws on a non-zero exit. */
  kubectl(args: readonly string[], options?: KubectlOptions): Promise<CommandResult>;
  /** Like kubectl(), but throws with stderr when the command fails; resolves to stdout. */
  kubectlOk(args: readonly string[], options?: KubectlOptions): Promise<string>;
}

/** Runs a command; resolves with its exit code and output, never rejects on a non-zero exit. */
export function run(
  file: string,
  args: readonly string[],
  options: { input?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<CommandResult> {
  return new Promise((resolvePromise, reject) => {
    const child = execFile(
      file,
      [...args],
      {
        cwd: REPO_ROOT,
        env: options.env ?? process.env,
        timeout: options.timeoutMs ?? 60_000,
        maxBuffer: 64 * 1024 * 1024,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') {
          reject(new Error(`${file} ${args.join(' ')}: ${error.message}\n${stderr}`));
          return;
        }
        resolvePromise({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
    child.stdin?.end(options.input ?? '');
  });
}

/** Output of hack/tool-path.sh: where the pinned tools and the run directory are. */
export function toolPath(tool: 'kube-apiserver' | 'etcd' | 'helm' | 'kubectl' | 'run-dir'): string {
  if (tool === 'kubectl') return resolveKubectl();
  // Same logic as hack/lib/common.sh, read from its pins so versions live in one place.
  const common = readFileSync(join(HACK, 'lib', 'common.sh'), 'utf8');
  const pin = (name: string): string => {
    const match = new RegExp(`^${name}=\\$\\{${name}:-([^}]+)\\}`, 'm').exec(common);
    if (!match) throw new Error(`hack/lib/common.sh has no pin for ${name}`);
    return process.env[name] ?? match[1];
  };
  const cache =
    process.env.FAULTLINE_CACHE ?? process.env.FAULTLINE_TOOLS ?? join(process.env.HOME ?? '/tmp', '.cache', 'faultline');
  switch (tool) {
    case 'kube-apiserver':
    case 'etcd':
      return join(cache, 'bin', `k8s-${pin('K8S_VERSION')}-etcd-${pin('ETCD_VERSION')}`, tool);
    case 'helm':
      return join(cache, 'bin', `helm-${pin('HELM_VERSION')}`, 'helm');
    case 'run-dir':
      return process.env.FAULTLINE_RUN ?? join(process.env.TMPDIR ?? '/tmp', 'faultline-control-plane');
  }
}

/**
 * kubectl to use: $KUBECTL, else kubectl.1.33 beside the file the `kubectl` on PATH resolves to
 * (the Google Cloud SDK dispatcher falls back to 1.32 against a 1.34 server), else that
 * `kubectl`; on a machine without one, the kubectl hack/ci-prepare.sh built beside kube-apiserver.
 */
export function resolveKubectl(): string {
  const fromEnv = process.env.KUBECTL;
  if (fromEnv) return fromEnv;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'kubectl');
    if (!dir || !existsSync(candidate)) continue;
    const pinned = join(dirname(realpathSync(candidate)), 'kubectl.1.33');
    return existsSync(pinned) ? pinned : candidate;
  }
  return join(dirname(toolPath('kube-apiserver')), 'kubectl');
}

/** Mocha timeout for the hook that calls ensureControlPlane(): long when a build is still due. */
export function controlPlaneStartTimeoutMs(): number {
  const built = existsSync(toolPath('kube-apiserver')) && existsSync(toolPath('etcd'));
  return built ? 240_000 : 60 * 60_000;
}

let pending: Promise<ControlPlane> | undefined;
/** This process is registered as a holder of the control plane (hack/start-control-plane.sh --holder). */
let holding = false;
let used = false;

/** Starts the control plane (or reuses a running one); the same promise for the whole run. */
export function ensureControlPlane(): Promise<ControlPlane> {
  used = true;
  pending ??= start().catch((error: unknown) => {
    pending = undefined;
    throw error;
  });
  return pending;
}

async function start(): Promise<ControlPlane> {
  // An existing cluster (hack/kind-e2e.sh): use it, start and stop nothing.
  const external = process.env.FAULTLINE_KUBECONFIG;
  if (external) return client(external);
  const result = await withBuildProgress(() =>
    run(join(HACK, 'start-control-plane.sh'), ['--holder', String(process.pid)], {
      timeoutMs: controlPlaneStartTimeoutMs(),
    }),
  );
  if (result.code !== 0) {
    throw new Error(`hack/start-control-plane.sh exited ${result.code}:\n${result.stderr}\n${result.stdout}`);
  }
  const lines = result.stdout.trim().split('\n');
  const kubeconfig = lines.find((l) => l.startsWith('KUBECONFIG='))?.slice('KUBECONFIG='.length);
  const state = lines.find((l) => l.startsWith('FAULTLINE_CONTROL_PLANE='))?.slice('FAULTLINE_CONTROL_PLANE='.length);
  if (!kubeconfig || !state) throw new Error(`unexpected output of hack/start-control-plane.sh:\n${result.stdout}`);
  holding = true;
  return client(kubeconfig);
}

/**
 * When the binaries still have to be built (a run without `npm test`'s pretest), says so and prints
 * a line every 30 s while hack/start-control-plane.sh builds them, so the suite never looks hung.
 */
async function withBuildProgress<T>(work: () => Promise<T>): Promise<T> {
  if (existsSync(toolPath('kube-apiserver')) && existsSync(toolPath('etcd'))) return work();
  const started = Date.now();
  process.stderr.write('[control plane] building kube-apiserver and etcd from Go modules first (7-11 minutes cold on 2 cores; `bash hack/test-prepare.sh` does it ahead)\n');
  const timer = setInterval(() => {
    process.stderr.write(`[control plane] still building (${Math.round((Date.now() - started) / 1000)} s)\n`);
  }, 30_000);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

function client(kubeconfig: string): ControlPlane {
  const kubectlPath = resolveKubectl();
  const kubectl = (args: readonly string[], options: KubectlOptions = {}): Promise<CommandResult> =>
    run(kubectlPath, [`--kubeconfig=${kubeconfig}`, ...args], options);
  return {
    kubeconfig,
    kubectlPath,
    kubectl,
    async kubectlOk(args, options) {
      const r = await kubectl(args, options);
      if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${r.code}: ${r.stderr.trim()}`);
      return r.stdout;
    },
  };
}

/** True once any test asked for the control plane in this run. */
export function controlPlaneUsed(): boolean {
  return used;
}

/**
 * Releases this run's hold on the control plane. hack/stop-control-plane.sh stops it only when a
 * test harness started it and no other test run still holds it; one started by hand keeps running.
 * FAULTLINE_KEEP_CONTROL_PLANE=1 keeps it in any case.
 */
export async function stopControlPlaneIfStarted(): Promise<void> {
  if (!holding || process.env.FAULTLINE_KEEP_CONTROL_PLANE === '1') return;
  holding = false;
  pending = undefined;
  const r = await run(join(HACK, 'stop-control-plane.sh'), ['--holder', String(process.pid)], { timeoutMs: 60_000 });
  if (r.code !== 0) process.stderr.write(`hack/stop-control-plane.sh exited ${r.code}: ${r.stderr}\n`);
}

/** The last lines of the etcd and kube-apiserver logs, for a failed test's report. */
export function controlPlaneLogTail(lines = 60): string {
  const dir = toolPath('run-dir');
  return ['kube-apiserver.log', 'etcd.log']
    .map((name) => {
      const path = join(dir, name);
      if (!existsSync(path)) return `--- ${path}: missing`;
      const text = readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
      return `--- ${path} (last ${lines} lines)\n${text}`;
    })
    .join('\n');
}

/** A namespace name no other test uses (namespaces are never deleted: no controller-manager). */
export function uniqueNamespace(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

/** Creates a fresh namespace and returns its name. */
export async function createNamespace(cp: ControlPlane, prefix: string): Promise<string> {
  const name = uniqueNamespace(prefix);
  await cp.kubectlOk(['create', 'namespace', name]);
  return name;
}
