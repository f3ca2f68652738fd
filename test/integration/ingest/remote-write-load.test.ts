import { expect } from 'chai';
import { request as httpRequest, Agent } from 'node:http';
import { pushTimeseries } from 'prometheus-remote-write';
import { eventually, useTestService } from '../../support/service.js';

const KEY = 'load-key';
const CONNECTIONS = 8;
const REQUESTS_PER_CONNECTION = 12;
const SERIES = 240; // 40 workloads × 6 metrics per connection
const METRICS = ['process_cpu_utilization', 'process_memory_utilization', 'http_server_request_duration', 'http_server_error_rate', 'runtime_gc_pause_duration', 'process_open_file_descriptors'];

type MinimalFetch = NonNullable<NonNullable<Parameters<typeof pushTimeseries>[1]>['fetch']>;

/** the remote-write bytes of one request, from an independent encoder (captured, not sent) */
async function encoded(connection: number, step: number, t0: number): Promise<Uint8Array> {
  const series = Array.from({ length: SERIES }, (_, s) => ({
    labels: { __name__: METRICS[s % METRICS.length]!, namespace: 'load', deployment: `c${connection}-w${Math.floor(s / METRICS.length)}` },
    samples: [{ value: (connection * 7 + step * 3 + s) % 100, timestamp: t0 + step * 15_000 }],
  }));
  let body: Uint8Array | undefined;
  const capture: MinimalFetch = async (_url, init) => {
    body = new Uint8Array(init!.body!);
    return new Response(null, { status: 204 });
  };
  await pushTimeseries(series, { url: 'http://capture.invalid/write', fetch: capture });
  return body!;
}

function post(url: URL, agent: Agent, body: Uint8Array): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent, headers: { 'content-type': 'application/x-protobuf', 'content-encoding': 'snappy', authorization: `Bearer ${KEY}`, 'content-length': body.length } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const counter = (text: string, line: RegExp): number => Number(line.exec(text)?.[1] ?? Number.NaN);

/**
 * Eight keep-alive connections each send their requests in time order, every request one 15-s step
 * later (as the shared comparison does): the ticks (every 0.2 s here) find closed buckets while the
 * requests stream, and run in slices between them. Every sample is counted exactly once.
 */
for (const [decodedBy, args] of [
  ['the event loop (SVC_INGEST_DECODE_WORKERS=0)', ['--ingest-decode-workers', '0']],
  ['the default (auto: one worker from two cores on)', []],
  ['a pool of 2 decode workers (SVC_INGEST_DECODE_WORKERS=2)', ['--ingest-decode-workers', '2']],
] as const) describe(`remote-write under a concurrent load, decoded by ${decodedBy}: the counters stay exact while the tick runs in slices`, function () {
  this.timeout(180_000);
  const svc = useTestService({ key: KEY, args: [...args] });

  it('every sample is accepted and counted once; nothing is dropped, late or over the bound', async () => {
    const t0 = Date.now() - (REQUESTS_PER_CONNECTION + 2) * 15_000;
    const bodies = await Promise.all(
      Array.from({ length: CONNECTIONS }, (_, c) => Promise.all(Array.from({ length: REQUESTS_PER_CONNECTION }, (_, r) => encoded(c, r, t0)))),
    );
    const url = new URL(`${svc.api}/write`);
    const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    const statuses: number[] = [];
    await Promise.all(
      bodies.map(async (queue) => {
        for (const body of queue) statuses.push(await post(url, agent, body));
      }),
    );
    agent.destroy();
    expect(new Set(statuses)).to.deep.equal(new Set([204]));
    const sent = CONNECTIONS * REQUESTS_PER_CONNECTION * SERIES;
    const text = await eventually(async () => {
      const t = await (await fetch(`${svc.api}/metrics`)).text();
      return counter(t, /rpt_ingest_samples_total\{source="metrics"\} (\d+)/) === sent ? t : undefined;
    }, 30_000, `${sent} accepted samples`);
    expect(text).not.to.match(/rpt_ingest_dropped_total\{reason="[a-z_]+"\} [1-9]/);
    expect(((await svc.get('/dataflow')).body as { metrics: number }).metrics).to.equal(sent);
    // every workload was analysed: the last closed step of each is in /ruptures
    const listed = await eventually(async () => {
      const list = ((await svc.get('/ruptures?limit=1000')).body as { ruptures: { workload: { namespace: string } }[] }).ruptures.filter((r) => r.workload.namespace === 'load');
      return list.length === CONNECTIONS * (SERIES / METRICS.length) ? list : undefined;
    }, 30_000, 'every workload listed');
    expect(listed).to.have.length(320);
  });
});
