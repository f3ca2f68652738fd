/**
 * gRPC ingest on SVC_GRPC_PORT (@grpc/grpc-js): Faultline's IngestService
 * (proto/faultline/ingest/v1/ingest.proto: unary and client-streaming writes of metrics, logs and
 * spans) and the standard OTLP export services opentelemetry.proto.collector.{metrics,logs,trace}.v1,
 * so an OpenTelemetry SDK or Collector can export over gRPC. Messages up to 4 MiB. Each call costs
 * one token of the shared ingest bucket; no token or a full ingest queue → RESOURCE_EXHAUSTED;
 * missing or wrong key → UNAUTHENTICATED (UNAVAILABLE in production without a key); a malformed
 * record → INVALID_ARGUMENT naming the field.
 */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { dirname } from 'node:path';
import type { AuthVerdict } from '../../model/auth-verdict.js';
import { metricsFromIngest, logsFromIngest, spansFromIngest, toOtlpJsonShape } from './grpc-records.js';
import { decodeLogsDocument, decodeMetricsDocument, decodeTracesDocument } from '../otlp-json/otlp-json-decoders.js';
import { partialSuccess } from '../otlp-proto/otlp-partial-success.js';
import type { OtlpSignal } from '../otlp-proto/otlp-proto-messages.js';
import { REJECTED_FIELD } from '../otlp-proto/otlp-proto-messages.js';
import { protoPath } from '../proto-files.js';
import type { DecodedBatch } from '../../model/records.js';
import { DecodeError } from '../../model/records.js';
import type { IngestOutcome } from '../../pipeline/ingest-sink.js';
import { countOutsideTimeWindow } from '../../pipeline/time-window.js';

export const GRPC_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

export interface GrpcIngestPorts {
  /** the bearer-key check (http/bearer-auth.ts) */
  auth: { check(header: string | undefined): AuthVerdict };
  tryTake(): boolean;
  /** the ingest sink: accepted, busy, analysis_backlog or memory_high_water (RESOURCE_EXHAUSTED), unavailable (UNAVAILABLE) */
  accept(batch: DecodedBatch): Promise<IngestOutcome>;
  dropped(reason: string, n: number): void;
  /** the service's clock (epoch ms): what falls outside the pipeline's time window is reported in partial_success */
  now(): number;
}

const LOADER_OPTIONS: protoLoader.Options = { keepCase: false, longs: String, enums: Number, defaults: false, oneofs: false };

type UnaryHandler = grpc.handleUnaryCall<unknown, unknown>;

/** Marks a request whose bytes did not decode; the handler answers INVALID_ARGUMENT, not INTERNAL. */
const UNDECODABLE = Symbol('undecodable');
interface Undecodable {
  [UNDECODABLE]: string;
}

function isUndecodable(request: unknown): request is Undecodable {
  return typeof request === 'object' && request !== null && UNDECODABLE in request;
}

/** The service definition with deserializers that never throw (grpc-js would answer INTERNAL). */
function tolerant(definition: grpc.ServiceDefinition): grpc.ServiceDefinition {
  const out: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const [name, method] of Object.entries(definition)) {
    out[name] = {
      ...method,
      requestDeserialize: (bytes: Buffer): unknown => {
        try {
          return method.requestDeserialize(bytes);
        } catch (error) {
          return { [UNDECODABLE]: (error as Error).message };
        }
      },
    };
  }
  return out;
}

function decoded(request: unknown): unknown {
  if (isUndecodable(request)) throw new DecodeError(`the message is not a valid protobuf of this method: ${request[UNDECODABLE]}`, undefined);
  return request;
}

class IngestRefusal extends Error {
  constructor(
    readonly code: grpc.status,
    message: string,
  ) {
    super(message);
  }
}

export class GrpcIngestServer {
  private server: grpc.Server | undefined;

  constructor(private readonly ports: GrpcIngestPorts) {}

  async start(port: number, address: string): Promise<number> {
    const own = protoLoader.loadSync(protoPath('faultline/ingest/v1/ingest.proto'), LOADER_OPTIONS);
    const otlpDir = dirname(protoPath('opentelemetry/otlp-messages.proto'));
    const otlp = protoLoader.loadSync(['metrics-service.proto', 'logs-service.proto', 'trace-service.proto'], { ...LOADER_OPTIONS, includeDirs: [otlpDir] });
    const ownPkg = grpc.loadPackageDefinition(own) as unknown as { faultline: { ingest: { v1: { IngestService: grpc.ServiceClientConstructor } } } };
    const otlpPkg = grpc.loadPackageDefinition(otlp) as unknown as {
      opentelemetry: { proto: { collector: Record<'metrics' | 'logs' | 'trace', { v1: Record<string, grpc.ServiceClientConstructor> }> } };
    };
    const server = new grpc.Server({ 'grpc.max_receive_message_length': GRPC_MAX_MESSAGE_BYTES, 'grpc.max_send_message_length': GRPC_MAX_MESSAGE_BYTES });

    server.addService(tolerant(ownPkg.faultline.ingest.v1.IngestService.service), {
      WriteMetrics: this.unary((req) => metricsFromIngest(list(req, 'points'))),
      WriteLogs: this.unary((req) => logsFromIngest(list(req, 'lines'))),
      WriteSpans: this.unary((req) => spansFromIngest(list(req, 'spans'))),
      StreamMetrics: this.stream((req) => metricsFromIngest(list(req, 'points'))),
      StreamLogs: this.stream((req) => logsFromIngest(list(req, 'lines'))),
      StreamSpans: this.stream((req) => spansFromIngest(list(req, 'spans'))),
    });
    const collector = otlpPkg.opentelemetry.proto.collector;
    server.addService(tolerant(collector.metrics.v1['MetricsService']!.service), { Export: this.otlpExport((d) => decodeMetricsDocument(d), 'metrics') });
    server.addService(tolerant(collector.logs.v1['LogsService']!.service), { Export: this.otlpExport((d) => decodeLogsDocument(d), 'logs') });
    server.addService(tolerant(collector.trace.v1['TraceService']!.service), { Export: this.otlpExport((d) => decodeTracesDocument(d), 'traces') });

    const host = address.includes(':') ? `[${address}]` : address;
    const bound = await new Promise<number>((resolve, reject) =>
      server.bindAsync(`${host}:${port}`, grpc.ServerCredentials.createInsecure(), (error, p) => (error ? reject(error) : resolve(p))),
    );
    this.server = server;
    return bound;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server === undefined) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        server.forceShutdown();
        resolve();
      }, 2000);
      server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** auth and the token bucket, per call */
  private admit(metadata: grpc.Metadata): void {
    const header = metadata.get('authorization')[0];
    const verdict = this.ports.auth.check(typeof header === 'string' ? header : undefined);
    if (verdict === 'no_key') throw new IngestRefusal(grpc.status.UNAVAILABLE, 'no API key configured: set SVC_API_KEY or --api-key');
    if (verdict === 'unauthorized') throw new IngestRefusal(grpc.status.UNAUTHENTICATED, 'missing or invalid bearer key in the authorization metadata');
    if (!this.ports.tryTake()) {
      this.ports.dropped('rate_limited', 1);
      throw new IngestRefusal(grpc.status.RESOURCE_EXHAUSTED, 'ingest rate limit exceeded; retry in 1 s');
    }
  }

  private async ingest(batch: DecodedBatch): Promise<void> {
    const outcome = await this.ports.accept(batch);
    if (outcome === 'busy') throw new IngestRefusal(grpc.status.RESOURCE_EXHAUSTED, 'ingest queue is full; retry shortly');
    if (outcome === 'unavailable') throw new IngestRefusal(grpc.status.UNAVAILABLE, 'the cluster telemetry topic is not reachable; retry shortly');
    if (outcome === 'analysis_backlog') throw new IngestRefusal(grpc.status.RESOURCE_EXHAUSTED, 'the analysis is behind, at its backlog bound (SVC_INGEST_MAX_WAITING_BUCKETS): nothing of this request was stored; retry after the next tick');
    if (outcome === 'memory_high_water') throw new IngestRefusal(grpc.status.RESOURCE_EXHAUSTED, 'memory above its high-water mark: new workloads are refused; the records of workloads already analysed were accepted');
  }

  private unary(decode: (request: unknown) => DecodedBatch): UnaryHandler {
    return (call, callback) => {
      void (async () => {
        this.admit(call.metadata);
        const batch = decode(decoded(call.request));
        await this.ingest(batch);
        return batch;
      })().then(
        (batch) => callback(null, { accepted: String(batch.metrics.length + batch.logs.length + batch.spans.length), rejected: String(batch.rejected) }),
        (error: unknown) => callback(toServiceError(error)),
      );
    };
  }

  private stream(decode: (request: unknown) => DecodedBatch): grpc.handleClientStreamingCall<unknown, unknown> {
    return (call, callback) => {
      let accepted = 0;
      let rejected = 0;
      let failed = false;
      try {
        this.admit(call.metadata);
      } catch (error) {
        failed = true;
        callback(toServiceError(error));
        return;
      }
      // messages are stored in order; the answer waits for the last one
      let chain: Promise<void> = Promise.resolve();
      const fail = (error: unknown): void => {
        if (failed) return;
        failed = true;
        callback(toServiceError(error));
      };
      call.on('data', (request: unknown) => {
        if (failed) return;
        let batch: DecodedBatch;
        try {
          batch = decode(decoded(request));
        } catch (error) {
          fail(error);
          return;
        }
        chain = chain.then(async () => {
          if (failed) return;
          await this.ingest(batch);
          accepted += batch.metrics.length + batch.logs.length + batch.spans.length;
          rejected += batch.rejected;
        }).catch(fail);
      });
      call.on('end', () => {
        void chain.then(() => {
          if (!failed) callback(null, { accepted: String(accepted), rejected: String(rejected) });
        });
      });
      call.on('error', () => {
        failed = true;
      });
    };
  }

  /** partial_success as the OTLP/HTTP listener answers it: what the decoder dropped and what falls outside the time window */
  private otlpExport(decode: (doc: unknown) => DecodedBatch, signal: OtlpSignal): UnaryHandler {
    return (call, callback) => {
      void (async () => {
        this.admit(call.metadata);
        const batch = decode(toOtlpJsonShape(decoded(call.request)));
        const outsideWindow = countOutsideTimeWindow(batch, this.ports.now());
        await this.ingest(batch);
        return partialSuccess(signal, batch.rejected, outsideWindow);
      })().then(
        (partial) => callback(null, partial === undefined ? {} : { partialSuccess: { [REJECTED_FIELD[signal]]: String(partial.rejected), errorMessage: partial.errorMessage } }),
        (error: unknown) => callback(toServiceError(error)),
      );
    };
  }
}

function list(request: unknown, key: string): unknown[] {
  const v = (request as Record<string, unknown> | null)?.[key];
  return Array.isArray(v) ? v : [];
}

function toServiceError(error: unknown): Partial<grpc.StatusObject> {
  if (error instanceof IngestRefusal) return { code: error.code, details: error.message };
  if (error instanceof DecodeError) return { code: grpc.status.INVALID_ARGUMENT, details: error.field === undefined ? error.message : `${error.field}: ${error.message}` };
  return { code: grpc.status.INTERNAL, details: 'internal error' };
}
