import { dirname } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { expect } from 'chai';
import fc from 'fast-check';
import { protoPath } from '../../../api-server/src/ingest/proto-files.js';
import type { TestService } from '../../support/service.js';
import { eventually, startTestService } from '../../support/service.js';

type Unary = (request: unknown, metadata: grpc.Metadata, callback: (error: grpc.ServiceError | null, response?: Record<string, unknown>) => void) => void;
type Streaming = (metadata: grpc.Metadata, callback: (error: grpc.ServiceError | null, response?: Record<string, unknown>) => void) => grpc.ClientWritableStream<unknown>;

const options: protoLoader.Options = { keepCase: false, longs: String, enums: Number, defaults: false };

function clients(port: number) {
  const own = grpc.loadPackageDefinition(protoLoader.loadSync(protoPath('faultline/ingest/v1/ingest.proto'), options)) as unknown as {
    faultline: { ingest: { v1: { IngestService: grpc.ServiceClientConstructor } } };
  };
  const otlp = grpc.loadPackageDefinition(
    protoLoader.loadSync(['metrics-service.proto', 'trace-service.proto'], { ...options, includeDirs: [dirname(protoPath('opentelemetry/otlp-messages.proto'))] }),
  ) as unknown as { opentelemetry: { proto: { collector: Record<string, { v1: Record<string, grpc.ServiceClientConstructor> }> } } };
  const address = `127.0.0.1:${port}`;
  const credentials = grpc.credentials.createInsecure();
  return {
    ingest: new own.faultline.ingest.v1.IngestService(address, credentials, { 'grpc.max_send_message_length': 8 * 1024 * 1024 }) as unknown as Record<string, Unary | Streaming> & grpc.Client,
    metrics: new otlp.opentelemetry.proto.collector['metrics']!.v1['MetricsService']!(address, credentials) as unknown as { Export: Unary } & grpc.Client,
    traces: new otlp.opentelemetry.proto.collector['trace']!.v1['TraceService']!(address, credentials) as unknown as { Export: Unary } & grpc.Client,
  };
}

const call = (client: object, method: string, request: unknown, metadata: grpc.Metadata) =>
  new Promise<{ error: grpc.ServiceError | null; response?: Record<string, unknown> }>((resolve) =>
    ((client as Record<string, Unary>)[method] as Unary).call(client, request, metadata, (error, response) => resolve({ error, response })),
  );

describe('gRPC ingest: IngestService and the OTLP/gRPC export services', function () {
  this.timeout(60_000);
  let svc: TestService;
  let c: ReturnType<typeof clients>;
  const auth = new grpc.Metadata();
  auth.set('authorization', 'Bearer grpc-key');

  before(async () => {
    svc = await startTestService({ key: 'grpc-key' });
    c = clients(svc.server.ports.grpc);
  });
  after(async () => {
    c.ingest.close();
    c.metrics.close();
    c.traces.close();
    await svc.stop();
    await svc.remove();
  });

  it('unary and client-streaming writes land on the workload', async () => {
    const now = Date.now();
    const point = (v: number) => ({ source: { labels: { namespace: 'grpc', deployment: 'api' } }, name: 'cpu_percent', value: v, timeUnixMs: String(now) });
    const unary = await call(c.ingest, 'WriteMetrics', { points: [point(0.3), point(0.4)] }, auth);
    expect(unary.error).to.equal(null);
    expect(unary.response).to.include({ accepted: '2', rejected: '0' });
    const streamed = await new Promise<Record<string, unknown> | undefined>((resolve, reject) => {
      const stream = (c.ingest['StreamMetrics'] as Streaming).call(c.ingest, auth, (error, response) => (error ? reject(error) : resolve(response)));
      for (let i = 0; i < 3; i += 1) stream.write({ points: [point(0.5)] });
      stream.end();
    });
    expect(streamed).to.include({ accepted: '3' });
    const logs = await call(c.ingest, 'WriteLogs', { lines: [{ source: { workload: 'grpc/api' }, timeUnixMs: String(now), severityNumber: 17, body: 'boom' }] }, auth);
    expect(logs.error).to.equal(null);
    await eventually(async () => ((await svc.get('/rupture/grpc/Deployment/api')).status === 200 ? true : undefined));
    const flow = (await svc.get('/dataflow')).body as { metrics: number; logs: number };
    expect(flow).to.include({ metrics: 5, logs: 1 });
  });

  it('OTLP/gRPC export of metrics and spans (binary ids) reaches the same pipelines', async () => {
    const ns = `${BigInt(Date.now()) * 1_000_000n}`;
    const resource = { attributes: [{ key: 'k8s.namespace.name', value: { stringValue: 'otlp' } }, { key: 'k8s.deployment.name', value: { stringValue: 'web' } }, { key: 'replicas', value: { intValue: '3' } }] };
    const m = await call(c.metrics, 'Export', { resourceMetrics: [{ resource, scopeMetrics: [{ metrics: [{ name: 'process.cpu.utilization', gauge: { dataPoints: [{ timeUnixNano: ns, asDouble: 0.5 }] } }] }] }] }, auth);
    expect(m.error).to.equal(null);
    const t = await call(
      c.traces,
      'Export',
      { resourceSpans: [{ resource, scopeSpans: [{ spans: [{ traceId: Buffer.alloc(16, 1), spanId: Buffer.alloc(8, 2), name: 'GET /', kind: 2, startTimeUnixNano: ns, endTimeUnixNano: ns, status: { code: 2 } }] }] }] },
      auth,
    );
    expect(t.error).to.equal(null);
    await eventually(async () => ((await svc.get('/rupture/otlp/Deployment/web')).status === 200 ? true : undefined));
  });

  it('OTLP/gRPC export: partial_success reports a point sent in milliseconds (too old) and one without a workload, as OTLP/HTTP does', async () => {
    const ms = String(Date.now()); // milliseconds where nanoseconds are due: read as January 1970
    const ns = `${BigInt(Date.now()) * 1_000_000n}`;
    const gauge = (time: string) => ({ name: 'process.cpu.utilization', gauge: { dataPoints: [{ timeUnixNano: time, asDouble: 0.5 }] } });
    const resource = { attributes: [{ key: 'k8s.namespace.name', value: { stringValue: 'otlp' } }, { key: 'k8s.deployment.name', value: { stringValue: 'partial' } }] };
    const nodeOnly = { attributes: [{ key: 'k8s.node.name', value: { stringValue: 'node-1' } }] };
    const full = await call(c.metrics, 'Export', { resourceMetrics: [{ resource, scopeMetrics: [{ metrics: [gauge(ns)] }] }] }, auth);
    expect(full.error).to.equal(null);
    expect(full.response).to.not.have.property('partialSuccess'); // unset on full success
    const old = await call(c.metrics, 'Export', { resourceMetrics: [{ resource, scopeMetrics: [{ metrics: [gauge(ms), gauge(ns)] }] }] }, auth);
    expect(old.error).to.equal(null);
    const partial = old.response?.['partialSuccess'] as { rejectedDataPoints: string; errorMessage: string };
    expect(partial.rejectedDataPoints).to.equal('1');
    expect(partial.errorMessage).to.contain('older than 7 days').and.contain('milliseconds');
    const both = await call(c.metrics, 'Export', { resourceMetrics: [{ resource, scopeMetrics: [{ metrics: [gauge(ms)] }] }, { resource: nodeOnly, scopeMetrics: [{ metrics: [gauge(ns)] }] }] }, auth);
    const twice = both.response?.['partialSuccess'] as { rejectedDataPoints: string; errorMessage: string };
    expect(twice.rejectedDataPoints).to.equal('2');
    expect(twice.errorMessage).to.contain('names no workload').and.contain('milliseconds');
  });

  it('UNAUTHENTICATED without the key, INVALID_ARGUMENT naming the field, RESOURCE_EXHAUSTED past 4 MiB', async () => {
    const none = await call(c.ingest, 'WriteMetrics', { points: [] }, new grpc.Metadata());
    expect(none.error?.code).to.equal(grpc.status.UNAUTHENTICATED);
    const bad = await call(c.ingest, 'WriteSpans', { spans: [{ source: { workload: 'a/b' }, traceId: 'xyz', spanId: '0000000000000001' }] }, auth);
    expect(bad.error?.code).to.equal(grpc.status.INVALID_ARGUMENT);
    expect(bad.error?.details).to.contain('spans[0].trace_id');
    const badOtlp = await call(c.metrics, 'Export', { resourceMetrics: [{ scopeMetrics: [{ metrics: [{ name: '', gauge: { dataPoints: [] } }] }] }] }, auth);
    expect(badOtlp.error?.code).to.equal(grpc.status.INVALID_ARGUMENT);
    const huge = await call(c.ingest, 'WriteLogs', { lines: [{ source: { workload: 'a/b' }, body: 'x'.repeat(5 * 1024 * 1024) }] }, auth);
    expect(huge.error?.code).to.equal(grpc.status.RESOURCE_EXHAUSTED);
    expect((await fetch(`${svc.api}/health`)).status).to.equal(200);
  });
});

describe('gRPC ingest under the token bucket', function () {
  this.timeout(30_000);
  it('answers RESOURCE_EXHAUSTED once the bucket is empty', async () => {
    const svc = await startTestService({ args: ['--ingest-rps', '2'] });
    const c = clients(svc.server.ports.grpc);
    try {
      const results = await Promise.all(Array.from({ length: 20 }, () => call(c.ingest, 'WriteMetrics', { points: [] }, new grpc.Metadata())));
      const codes = results.map((r) => r.error?.code ?? grpc.status.OK);
      expect(codes.filter((x) => x === grpc.status.OK).length).to.be.within(1, 4);
      expect(codes.filter((x) => x === grpc.status.RESOURCE_EXHAUSTED).length).to.be.at.least(16);
    } finally {
      c.ingest.close();
      c.metrics.close();
      c.traces.close();
      await svc.stop();
      await svc.remove();
    }
  });
});

describe('gRPC ingest: raw bytes that are not the method\'s message', function () {
  this.timeout(60_000);
  it('answer INVALID_ARGUMENT (never INTERNAL), for random and truncated messages (property)', async () => {
    const svc = await startTestService();
    const identity = (b: Buffer): Buffer => b;
    const methods = ['/faultline.ingest.v1.IngestService/WriteMetrics', '/faultline.ingest.v1.IngestService/WriteSpans', '/opentelemetry.proto.collector.metrics.v1.MetricsService/Export', '/opentelemetry.proto.collector.trace.v1.TraceService/Export'];
    const Raw = grpc.makeGenericClientConstructor(
      Object.fromEntries(methods.map((path, i) => [`m${i}`, { path, requestStream: false, responseStream: false, requestSerialize: identity, requestDeserialize: identity, responseSerialize: identity, responseDeserialize: identity }])),
      'Raw',
    );
    const client = new Raw(`127.0.0.1:${svc.server.ports.grpc}`, grpc.credentials.createInsecure()) as unknown as Record<string, (b: Buffer, cb: (e: grpc.ServiceError | null) => void) => void> & grpc.Client;
    try {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: methods.length - 1 }), fc.uint8Array({ maxLength: 256 }), async (m, bytes) => {
          const error = await new Promise<grpc.ServiceError | null>((resolve) => (client[`m${m}`] as (b: Buffer, cb: (e: grpc.ServiceError | null) => void) => void).call(client, Buffer.from(bytes), resolve));
          if (error !== null) expect([grpc.status.INVALID_ARGUMENT, grpc.status.RESOURCE_EXHAUSTED]).to.include(error.code);
        }),
        { numRuns: 200 },
      );
    } finally {
      client.close();
      await svc.stop();
      await svc.remove();
    }
  });
});
