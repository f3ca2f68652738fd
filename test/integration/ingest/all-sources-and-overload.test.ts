import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createSocket } from 'node:dgram';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { expect } from 'chai';
import { pushTimeseries } from 'prometheus-remote-write';
import { protoPath } from '../../../api-server/src/ingest/proto-files.js';
import { eventually, startTestService } from '../../support/service.js';
import { otlpMetrics } from '../../support/otlp-builders.js';


/** A full garbage collection (enables --expose-gc at run time, as bench/analysis-tick.ts does). */
function forceGc(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

describe('every ingest source at once, and overload', function () {
  this.timeout(90_000);

  it('one workload fed by OTLP, remote-write, StatsD, Loki, bulk and gRPC has one merged health view', async () => {
    const svc = await startTestService();
    const socket = createSocket('udp4');
    const own = grpc.loadPackageDefinition(protoLoader.loadSync(protoPath('faultline/ingest/v1/ingest.proto'), { longs: String })) as unknown as {
      faultline: { ingest: { v1: { IngestService: grpc.ServiceClientConstructor } } };
    };
    const client = new own.faultline.ingest.v1.IngestService(`127.0.0.1:${svc.server.ports.grpc}`, grpc.credentials.createInsecure()) as unknown as grpc.Client & {
      WriteMetrics: (r: unknown, cb: (e: grpc.ServiceError | null) => void) => void;
    };
    try {
      const now = Date.now();
      const r = { namespace: 'mix', deployment: 'api' };
      expect((await svc.post('/v1/metrics', otlpMetrics(r, { cpu_percent: [[now, 0.3]] }), svc.otlp)).status).to.equal(200);
      type MinimalFetch = NonNullable<NonNullable<Parameters<typeof pushTimeseries>[1]>['fetch']>;
      const rwFetch: MinimalFetch = (url, init) => fetch(url, { method: init?.method ?? 'POST', headers: init?.headers, body: init?.body === undefined ? undefined : new Uint8Array(init.body) });
      expect((await pushTimeseries({ labels: { __name__: 'memory_percent', namespace: 'mix', deployment: 'api' }, samples: [{ value: 0.5, timestamp: now }] }, { url: `${svc.api}/write`, fetch: rwFetch })).status).to.equal(204);
      await new Promise<void>((resolve, reject) => socket.send('latency_ms:90|ms|#namespace:mix,deployment:api', svc.server.ports.statsd, '127.0.0.1', (e) => (e ? reject(e) : resolve())));
      const loki = { streams: [{ stream: { namespace: 'mix', deployment: 'api', level: 'info' }, values: [[`${now}000000`, 'ok']] }] };
      expect((await svc.post('/loki/api/v1/push', loki, svc.otlp)).status).to.equal(204);
      const bulk = `${JSON.stringify({ index: {} })}\n${JSON.stringify({ message: 'slow', 'log.level': 'warn', kubernetes: { namespace: 'mix', deployment: { name: 'api' } } })}\n`;
      expect((await fetch(`${svc.otlp}/_bulk`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: bulk })).status).to.equal(200);
      await new Promise<void>((resolve, reject) =>
        client.WriteMetrics({ points: [{ source: { workload: 'mix/Deployment/api' }, name: 'error_rate', value: 0.01, timeUnixMs: String(now) }] }, (e) => (e ? reject(e) : resolve())),
      );
      await eventually(async () => {
        const flow = (await svc.get('/dataflow')).body as { metrics: number; logs: number };
        return flow.metrics === 4 && flow.logs === 2 ? true : undefined;
      }, 10_000, 'every source counted');
      const list = (await svc.get('/ruptures')).body as { ruptures: { workload: { namespace: string; kind: string; name: string } }[] };
      expect(list.ruptures.map((x) => `${x.workload.namespace}/${x.workload.kind}/${x.workload.name}`)).to.deep.equal(['mix/Deployment/api']);
    } finally {
      socket.close();
      client.close();
      await svc.stop();
      await svc.remove();
    }
  });

  it('64 clients far above SVC_INGEST_RPS for 20 s: 429 with Retry-After: 1, never a 5xx, bounded memory, /health within 1 s', async () => {
    const svc = await startTestService({ args: ['--ingest-rps', '50'] });
    try {
      const body = JSON.stringify(otlpMetrics({ namespace: 'load', deployment: 'api' }, { cpu_percent: Array.from({ length: 50 }, (_, i) => [Date.now() - i * 1000, 0.3] as [number, number]) }));
      const gc = forceGc();
      gc();
      const heapBefore = process.memoryUsage().heapUsed;
      const deadline = Date.now() + 20_000;
      const statuses = new Map<number, number>();
      let badRetryAfter = 0;
      let slowestHealthMs = 0;
      const probe = (async () => {
        while (Date.now() < deadline) {
          const t0 = performance.now();
          const r = await fetch(`${svc.api}/health`);
          await r.arrayBuffer();
          slowestHealthMs = Math.max(slowestHealthMs, performance.now() - t0);
          await new Promise((res) => setTimeout(res, 250));
        }
      })();
      await Promise.all(
        Array.from({ length: 64 }, async () => {
          while (Date.now() < deadline) {
            const r = await fetch(`${svc.otlp}/v1/metrics`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
            await r.arrayBuffer();
            statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
            if (r.status === 429 && r.headers.get('retry-after') !== '1') badRetryAfter += 1;
          }
        }),
      );
      await probe;
      // what the service kept after the load: the JS heap after a full collection (RSS would also
      // count memory freed but not yet returned to the system, and this process's own clients)
      gc();
      const growthMb = (process.memoryUsage().heapUsed - heapBefore) / 1_048_576;
      expect([...statuses.keys()].every((s) => s === 200 || s === 429), JSON.stringify([...statuses])).to.equal(true);
      expect(statuses.get(429) ?? 0).to.be.greaterThan(statuses.get(200) ?? 0);
      expect(badRetryAfter).to.equal(0);
      expect(slowestHealthMs).to.be.lessThan(1000);
      expect(growthMb, `heap growth ${growthMb.toFixed(1)} MB`).to.be.lessThan(100);
    } finally {
      await svc.stop();
      await svc.remove();
    }
  });
});
