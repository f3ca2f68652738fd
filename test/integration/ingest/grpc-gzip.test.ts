import { connect } from 'node:http2';
import { dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { expect } from 'chai';
import { encodeOtlpRequest } from '../../../api-server/src/ingest/otlp-proto/otlp-proto-messages.js';
import { protoPath } from '../../../api-server/src/ingest/proto-files.js';
import { eventually, useTestService } from '../../support/service.js';

type Unary = (request: unknown, metadata: grpc.Metadata, callback: (error: grpc.ServiceError | null, response?: Record<string, unknown>) => void) => void;

const nanos = (ms: number): string => `${BigInt(Math.round(ms)) * 1_000_000n}`;

function metricsRequest(deployment: string) {
  return {
    resourceMetrics: [
      {
        resource: { attributes: [{ key: 'k8s.namespace.name', value: { stringValue: 'gz' } }, { key: 'k8s.deployment.name', value: { stringValue: deployment } }] },
        scopeMetrics: [{ metrics: [{ name: 'cpu_percent', gauge: { dataPoints: [{ timeUnixNano: nanos(Date.now()), asDouble: 0.3 }] } }] }],
      },
    ],
  };
}

/** One gRPC unary call on a raw HTTP/2 stream: the message frame gzip-compressed (flag 1) by hand. */
function rawGzipCall(port: number, path: string, message: Buffer, key: string): Promise<{ grpcStatus: string | undefined; grpcMessage: string | undefined }> {
  return new Promise((resolve, reject) => {
    const session = connect(`http://127.0.0.1:${port}`);
    session.on('error', reject);
    const compressed = gzipSync(message);
    const frame = Buffer.alloc(5 + compressed.length);
    frame.writeUInt8(1, 0); // compressed flag
    frame.writeUInt32BE(compressed.length, 1);
    compressed.copy(frame, 5);
    const stream = session.request({ ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers', 'grpc-encoding': 'gzip', 'grpc-accept-encoding': 'identity,gzip', authorization: `Bearer ${key}` });
    let headers: Record<string, string | string[] | undefined> = {};
    stream.on('response', (h) => {
      headers = { ...h };
    });
    stream.on('trailers', (t) => {
      headers = { ...headers, ...t };
    });
    stream.on('data', () => undefined);
    stream.on('end', () => {
      session.close();
      resolve({ grpcStatus: headers['grpc-status'] as string | undefined, grpcMessage: headers['grpc-message'] as string | undefined });
    });
    stream.on('error', reject);
    stream.end(frame);
  });
}

describe('OTLP/gRPC with gzip compression (port 9090)', function () {
  this.timeout(60_000);
  const svc = useTestService({ key: 'gz-key' });

  it('a grpc-js client sending with gzip compression is decoded and stored', async () => {
    const definition = protoLoader.loadSync(['metrics-service.proto'], { keepCase: false, longs: String, enums: Number, defaults: false, includeDirs: [dirname(protoPath('opentelemetry/otlp-messages.proto'))] });
    const pkg = grpc.loadPackageDefinition(definition) as unknown as { opentelemetry: { proto: { collector: { metrics: { v1: { MetricsService: grpc.ServiceClientConstructor } } } } } };
    // compression algorithm 2 = gzip for every message of the channel
    const client = new pkg.opentelemetry.proto.collector.metrics.v1.MetricsService(`127.0.0.1:${svc.server.ports.grpc}`, grpc.credentials.createInsecure(), { 'grpc.default_compression_algorithm': 2 });
    const metadata = new grpc.Metadata();
    metadata.set('authorization', 'Bearer gz-key');
    try {
      const answer = await new Promise<{ error: grpc.ServiceError | null; response?: Record<string, unknown> }>((resolve) =>
        (client as unknown as { Export: Unary }).Export(metricsRequest('grpcjs-gzip'), metadata, (error, response) => resolve({ error, response })),
      );
      expect(answer.error).to.equal(null);
      expect(answer.response).to.deep.equal({});
    } finally {
      client.close();
    }
    await eventually(async () => ((await svc.get('/rupture/gz/Deployment/grpcjs-gzip')).status === 200 ? true : undefined), 10_000, 'gz/Deployment/grpcjs-gzip');
  });

  it('a message frame gzip-compressed by hand on a raw HTTP/2 stream (grpc-encoding: gzip) is decoded and stored', async () => {
    const message = encodeOtlpRequest('metrics', metricsRequest('raw-gzip'));
    const answer = await rawGzipCall(svc.server.ports.grpc, '/opentelemetry.proto.collector.metrics.v1.MetricsService/Export', message, 'gz-key');
    expect(answer.grpcStatus, answer.grpcMessage).to.equal('0');
    await eventually(async () => ((await svc.get('/rupture/gz/Deployment/raw-gzip')).status === 200 ? true : undefined), 10_000, 'gz/Deployment/raw-gzip');
  });
});
