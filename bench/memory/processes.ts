/** The two processes the memory bench compares: the built service and Debian's Prometheus. */
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { staleBuild } from './build-age.js';

export const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

/** resident set size in MB (VmRSS), NaN once the process is gone */
export function rssMb(pid: number): number {
  return statusMb(pid, 'VmRSS');
}

/** the process's peak resident set size since its start in MB (the kernel's VmHWM), NaN once it is gone */
export function peakRssMb(pid: number): number {
  return statusMb(pid, 'VmHWM');
}

function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m === null ? Number.NaN : Number(m[1]) / 1024;
  } catch {
    return Number.NaN;
  }
}

/**
 * The service's collections between ticks (engine/heap-trim.ts) in its /metrics text, by reason:
 * how many and their pause in seconds (rpt_heap_collections_total,
 * rpt_heap_collection_seconds_total); {} for a tree without them
 */
export function heapCollections(metrics: string): Record<string, { count: number; seconds: number }> {
  const byReason: Record<string, { count: number; seconds: number }> = {};
  for (const m of metrics.matchAll(/^rpt_heap_collection(s|_seconds)_total\{reason="(\w+)"\} (\S+)/gm)) {
    const r = (byReason[m[2]!] ??= { count: 0, seconds: 0 });
    if (m[1] === 's') r.count = Number(m[3]);
    else r.seconds = Number(m[3]);
  }
  return byReason;
}

/** RSS of glibc malloc's main heap (the `[heap]` mapping) in MB */
export function brkHeapMb(pid: number): number {
  try {
    const smaps = readFileSync(`/proc/${pid}/smaps`, 'utf8');
    const at = smaps.indexOf('[heap]');
    if (at < 0) return 0;
    const m = /Rss:\s+(\d+) kB/.exec(smaps.slice(at));
    return m === null ? Number.NaN : Number(m[1]) / 1024;
  } catch {
    return Number.NaN;
  }
}

/** what `npm start` runs the service with: package.json's `start` script's leading environment assignments and node flags */
export function startCommand(packageJson: string): { env: Record<string, string>; flags: string[] } {
  const start = (JSON.parse(readFileSync(packageJson, 'utf8')) as { scripts: Record<string, string> }).scripts['start'] ?? '';
  const words = start.split(/\s+/).filter((w) => w !== '');
  const env: Record<string, string> = {};
  for (const w of words) {
    const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(w);
    if (m === null) break;
    env[m[1]!] = m[2]!;
  }
  return { env, flags: words.filter((w) => w.startsWith('--')) };
}

/** a remote-write POST; `apiKey`: sent as the bearer credential (a service with NODE_ENV=production wants one) */
export async function post(port: number, path: string, body: Buffer, apiKey?: string): Promise<number> {
  return (await postOnce(port, path, body, apiKey)).status;
}

/** one remote-write POST: its status and its Retry-After in seconds (NaN when absent) */
function postOnce(port: number, path: string, body: Buffer, apiKey?: string): Promise<{ status: number; retryAfterS: number }> {
  const auth: Record<string, string> = apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` };
  return new Promise((resolve, reject) => {
    const r = request(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/x-protobuf', 'content-encoding': 'snappy', 'x-prometheus-remote-write-version': '0.1.0', ...auth } },
      (res) => {
        res.resume();
        const retryAfter = res.headers['retry-after'];
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfterS: retryAfter === undefined ? Number.NaN : Number(retryAfter) }));
      },
    );
    r.on('error', reject);
    r.end(body);
  });
}

/**
 * A remote-write POST as a sender that retries 429 sends one (Prometheus with retry_on_http_429): a 429 is retried after its Retry-After (at most
 * `maxWaitS`, 1 s when absent), up to `maxTries` times in all. Returns the last status and the
 * number of 429 answers.
 */
export async function postRetrying(port: number, path: string, body: Buffer, apiKey?: string, maxTries = 60, maxWaitS = 30): Promise<{ status: number; refused: number }> {
  let refused = 0;
  for (let i = 0; ; i++) {
    const { status, retryAfterS } = await postOnce(port, path, body, apiKey);
    if (status !== 429 || i + 1 >= maxTries) return { status, refused: refused + (status === 429 ? 1 : 0) };
    refused++;
    const waitS = Number.isFinite(retryAfterS) ? Math.min(maxWaitS, Math.max(0, retryAfterS)) : 1;
    await new Promise((r) => setTimeout(r, waitS * 1000));
  }
}

/** the status code of a GET, 0 when the connection fails (not listening yet) */
export function getStatus(port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    request({ host: '127.0.0.1', port, path }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', () => resolve(0))
      .end();
  });
}

export function getJson(port: number, path: string, apiKey?: string): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    request({ host: '127.0.0.1', port, path, headers: apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` } }, (res) => {
      let d = '';
      res.on('data', (c: Buffer) => (d += c.toString()));
      res.on('end', () => {
        try {
          resolve(JSON.parse(d) as Record<string, unknown>);
        } catch {
          resolve({});
        }
      });
    })
      .on('error', () => resolve({}))
      .end();
  });
}

export interface Pair {
  service: ChildProcess;
  prometheus: ChildProcess;
  restPort: number;
  promPort: number;
  stop(): void;
}

export interface Service {
  service: ChildProcess;
  restPort: number;
  stop(): void;
}

/**
 * the built service under `dir` (its data and svc.log) with `nodeFlags`, every listener on a free
 * port; refused (an Error naming both times) when `project`'s dist/ is missing or older than a
 * source file, which would measure other code than the checkout's
 */
export async function startService(project: string, dir: string, nodeFlags: string[], extraEnv: Record<string, string>): Promise<Service> {
  const stale = staleBuild(project);
  if (stale !== undefined) throw new Error(stale);
  const [restPort, otlpPort] = [await freePort(), await freePort()];
  const log = openSync(`${dir}/svc.log`, 'a');
  const service = spawn(process.execPath, [...nodeFlags, 'dist/api-server/src/main.js'], {
    cwd: project,
    detached: true,
    stdio: ['ignore', log, log],
    env: {
      ...process.env,
      SVC_API_KEY: '',
      SVC_PORT: String(restPort),
      SVC_OTLP_PORT: String(otlpPort),
      // every listener on a free port: the OTLP/HTTP default 4318 is often taken on a shared machine (the service then exits)
      SVC_OTLP_HTTP_PORT: '0',
      SVC_STATSD_PORT: '0',
      SVC_GRPC_PORT: '0',
      SVC_DASHBOARD_PORT: '0',
      SVC_BIND_ADDRESS: '127.0.0.1',
      SVC_DATA_DIR: `${dir}/data`,
      SVC_INGEST_RPS: '100000',
      ...extraEnv,
    },
  });
  return { service, restPort, stop: () => killGroup(service) };
}

function killGroup(p: ChildProcess): void {
  try {
    if (p.pid !== undefined) process.kill(-p.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** the service (its `npm start` flags, NODE_OPTIONS passed on) and Prometheus on free ports under `dir` */
export async function startPair(project: string, dir: string, nodeFlags: string[], extraEnv: Record<string, string>): Promise<Pair> {
  const { service, restPort } = await startService(project, dir, nodeFlags, extraEnv);
  const promPort = await freePort();
  const prometheus = spawn('prometheus', ['--config.file=/dev/null', `--storage.tsdb.path=${dir}/prom`, `--web.listen-address=127.0.0.1:${promPort}`, '--web.enable-remote-write-receiver'], {
    stdio: 'ignore',
    detached: true,
  });
  const stop = (): void => {
    for (const p of [service, prometheus]) killGroup(p);
  };
  return { service, prometheus, restPort, promPort, stop };
}
