/**
 * HTTP benchmarks through the real server in its own process (one Node event loop = one core):
 * OTLP/JSON metric data points per second on the OTLP port, and GET /rupture requests per second.
 * The load generator runs in this process with a fixed number of concurrent keep-alive clients.
 *
 * Run: `node --import tsx bench/http-service.ts` (or through `npm run bench`).
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const POINTS_PER_REQUEST = 1000;
const CONCURRENCY = 8;
const DURATION_MS = Number(process.env['BENCH_HTTP_SECONDS'] ?? 8) * 1000;

function otlpBody(workload: number, t0: number): string {
  const points = Array.from({ length: POINTS_PER_REQUEST / 4 }, (_, i) => ({ timeUnixNano: `${(t0 + i * 15_000) * 1_000_000}`, asDouble: 0.3 + 0.01 * (i % 7) }));
  return JSON.stringify({
    resourceMetrics: [
      {
        resource: { attributes: [{ key: 'k8s.namespace.name', value: { stringValue: 'bench' } }, { key: 'k8s.deployment.name', value: { stringValue: `w${workload}` } }] },
        scopeMetrics: [{ metrics: ['cpu_percent', 'memory_percent', 'latency_ms', 'error_rate'].map((name) => ({ name, gauge: { dataPoints: points } })) }],
      },
    ],
  });
}

async function startServerProcess(dataDir: string): Promise<{ rest: number; otlp: number; stop: () => Promise<void> }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'api-server/src/main.ts', '--port', '0', '--otlp-port', '0', '--otlp-http-port', '0', '--dashboard-port', '0', '--statsd-port', '0', '--grpc-port', '0', '--bind-address', '127.0.0.1', '--data-dir', dataDir, '--ingest-rps', '1000000', '--log-level', 'info'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  const ports = await new Promise<{ rest: number; otlp: number }>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.includes('"ports"'));
      if (line !== undefined) resolve((JSON.parse(line) as { ports: { rest: number; otlp: number } }).ports);
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
  for (;;) {
    const r = await fetch(`http://127.0.0.1:${ports.rest}/api/v2/ready`).catch(() => undefined);
    if (r?.status === 200) break;
    await new Promise((res) => setTimeout(res, 100));
  }
  return {
    ...ports,
    stop: () =>
      new Promise<void>((resolve) => {
        child.on('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One request over a keep-alive node:http agent (fetch's client costs more than the server here). */
function send(port: number, method: string, path: string, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, agent, headers: body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function load(durationMs: number, request: (i: number) => Promise<number>): Promise<{ requests: number; errors: number; seconds: number }> {
  const deadline = performance.now() + durationMs;
  let requests = 0;
  let errors = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, c) => {
      let i = c;
      while (performance.now() < deadline) {
        const status = await request(i);
        if (status >= 300) errors += 1;
        requests += 1;
        i += CONCURRENCY;
      }
    }),
  );
  return { requests, errors, seconds: (performance.now() - start) / 1000 };
}

export async function runHttpBench(): Promise<{ name: string; value: string }[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'faultline-bench-'));
  const server = await startServerProcess(dataDir);
  try {
    const t0 = Date.now() - 60 * 60_000;
    const bodies = Array.from({ length: 64 }, (_, w) => otlpBody(w, t0));
    // reads first, on an idle server that knows the 64 workloads; then the ingest load
    for (let w = 0; w < bodies.length; w += 1) await send(server.otlp, 'POST', '/v1/metrics', bodies[w]);
    await new Promise((r) => setTimeout(r, 1000));
    const reads = await load(DURATION_MS, (i) => send(server.rest, 'GET', `/api/v2/rupture/bench/Deployment/w${i % 64}`));
    const ingest = await load(DURATION_MS, (i) => send(server.otlp, 'POST', '/v1/metrics', bodies[i % bodies.length]));
    return [
      { name: `OTLP JSON metric points/s (${CONCURRENCY} clients, ${POINTS_PER_REQUEST} points/request)`, value: `${Math.round((ingest.requests * POINTS_PER_REQUEST) / ingest.seconds)} (${ingest.errors} non-2xx)` },
      { name: `GET /rupture/{ns}/{kind}/{name} requests/s (${CONCURRENCY} clients)`, value: `${Math.round(reads.requests / reads.seconds)} (${reads.errors} non-2xx)` },
    ];
  } finally {
    agent.destroy();
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const r of await runHttpBench()) console.log(`${r.name.padEnd(72)} ${r.value}`);
}
