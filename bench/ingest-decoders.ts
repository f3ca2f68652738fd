/**
 * Ingest decoder throughput on one core (issue 4): remote-write protobuf samples per second
 * through the real decoder (snappy + protobufjs + label identity + name mapping), StatsD lines per
 * second through the parser, and gRPC metric points per second through a real gRPC server on
 * loopback (the full service in this process).
 *
 * Run: `node --import tsx bench/ingest-decoders.ts` (or through `npm run bench`).
 */
import { rm } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import { compressSync } from 'snappy';
import { pino } from 'pino';
import { loadSettings } from '../api-server/src/config/load-settings.js';
import { protoPath } from '../api-server/src/ingest/proto-files.js';
import { RemoteWriteDecoder } from '../api-server/src/ingest/remote-write/remote-write-decoder.js';
import { StatsdParser } from '../api-server/src/ingest/statsd/statsd-parser.js';
import { startServer } from '../api-server/src/server.js';

function timeFor(seconds: number, work: () => number): number {
  const deadline = performance.now() + seconds * 1000;
  const start = performance.now();
  let items = 0;
  while (performance.now() < deadline) items += work();
  return items / ((performance.now() - start) / 1000);
}

function remoteWriteBody(series: number, samples: number): Buffer {
  const root = protobuf.loadSync(protoPath('prometheus/remote-write.proto'));
  const WriteRequest = root.lookupType('prometheus.WriteRequest');
  const now = Date.now();
  const timeseries = Array.from({ length: series }, (_, s) => ({
    labels: [
      { name: '__name__', value: s % 2 === 0 ? 'process_open_fds' : 'node_load1' },
      { name: 'namespace', value: 'bench' },
      { name: 'deployment', value: `w${s % 50}` },
      { name: 'pod', value: `w${s % 50}-${s}` },
      { name: 'instance', value: `10.0.0.${s % 250}:9100` },
    ],
    samples: Array.from({ length: samples }, (_, i) => ({ value: i, timestamp: now - (samples - i) * 15_000 })),
  }));
  return compressSync(Buffer.from(WriteRequest.encode(WriteRequest.fromObject({ timeseries })).finish()));
}

export async function runIngestBench(): Promise<{ name: string; value: string }[]> {
  const rows: { name: string; value: string }[] = [];
  const decoder = new RemoteWriteDecoder();
  const body = remoteWriteBody(500, 20); // 10 000 samples per request, like a busy Prometheus shard
  const rw = timeFor(3, () => decoder.decode({ body, contentType: 'application/x-protobuf', contentEncoding: 'snappy', params: {} }).batch.metrics.length);
  rows.push({ name: 'remote-write protobuf samples/s decoded (500 series × 20 samples per request)', value: String(Math.round(rw)) });

  const parser = new StatsdParser();
  const datagram = Array.from({ length: 20 }, (_, i) => `req_latency_ms:${i}|ms|@0.5|#namespace:bench,deployment:w${i % 10},env:prod`).join('\n');
  const sd = timeFor(3, () => parser.parse(datagram, Date.now()).metrics.length);
  rows.push({ name: 'StatsD lines/s parsed (20 lines per datagram, tags)', value: String(Math.round(sd)) });

  const settings = loadSettings(['--port', '0', '--otlp-port', '0', '--otlp-http-port', '0', '--dashboard-port', '0', '--statsd-port', '0', '--grpc-port', '0', '--bind-address', '127.0.0.1', '--data-dir', `/tmp/faultline-bench-grpc-${process.pid}`, '--ingest-rps', '1000000'], {});
  const server = await startServer(settings, { logger: pino({ level: 'silent' }) });
  try {
    const pkg = grpc.loadPackageDefinition(protoLoader.loadSync(protoPath('faultline/ingest/v1/ingest.proto'), { longs: String })) as unknown as {
      faultline: { ingest: { v1: { IngestService: grpc.ServiceClientConstructor } } };
    };
    const client = new pkg.faultline.ingest.v1.IngestService(`127.0.0.1:${server.ports.grpc}`, grpc.credentials.createInsecure()) as unknown as grpc.Client & {
      WriteMetrics: (r: unknown, cb: (e: grpc.ServiceError | null) => void) => void;
    };
    const now = Date.now();
    const request = { points: Array.from({ length: 1000 }, (_, i) => ({ source: { labels: { namespace: 'bench', deployment: `w${i % 50}` } }, name: 'cpu_percent', value: 0.3, timeUnixMs: String(now - i) })) };
    const deadline = performance.now() + 5000;
    const start = performance.now();
    let points = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (performance.now() < deadline) {
          await new Promise<void>((resolve, reject) => client.WriteMetrics(request, (e) => (e ? reject(e) : resolve())));
          points += 1000;
        }
      }),
    );
    rows.push({ name: 'gRPC WriteMetrics points/s (8 concurrent calls, 1000 points each, server in-process)', value: String(Math.round(points / ((performance.now() - start) / 1000))) });
    client.close();
  } finally {
    await server.close();
    await rm(settings.dataDir, { recursive: true, force: true });
  }
  return rows;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const r of await runIngestBench()) console.log(`${r.name.padEnd(90)} ${r.value}`);
}
