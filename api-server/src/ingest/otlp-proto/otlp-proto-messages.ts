/**
 * OTLP protobuf messages with protobufjs, from the same proto files the OTLP/gRPC services load
 * (proto/opentelemetry/otlp-messages.proto; one home for the definitions), plus google.rpc.Status
 * for error answers. Decoding gives the OTLP/JSON shape (ids as hex, 64-bit integers as decimal
 * strings) so the one OTLP decoder (ingest/otlp-json) applies the same rules to every encoding.
 */
import protobuf from 'protobufjs';
import { toOtlpJsonShape } from '../grpc/grpc-records.js';
import { protoPath } from '../proto-files.js';
import { DecodeError } from '../../model/records.js';

export type OtlpSignal = 'metrics' | 'logs' | 'traces';

const root = protobuf.loadSync([protoPath('opentelemetry/otlp-messages.proto'), protoPath('google/rpc/status.proto')]);

const REQUEST: Record<OtlpSignal, protobuf.Type> = {
  metrics: root.lookupType('opentelemetry.proto.restated.ExportMetricsServiceRequest'),
  logs: root.lookupType('opentelemetry.proto.restated.ExportLogsServiceRequest'),
  traces: root.lookupType('opentelemetry.proto.restated.ExportTraceServiceRequest'),
};
const RESPONSE: Record<OtlpSignal, protobuf.Type> = {
  metrics: root.lookupType('opentelemetry.proto.restated.ExportMetricsServiceResponse'),
  logs: root.lookupType('opentelemetry.proto.restated.ExportLogsServiceResponse'),
  traces: root.lookupType('opentelemetry.proto.restated.ExportTraceServiceResponse'),
};
const STATUS = root.lookupType('google.rpc.Status');

/** the partial_success field that counts a signal's rejected items */
export const REJECTED_FIELD: Record<OtlpSignal, string> = { metrics: 'rejectedDataPoints', logs: 'rejectedLogRecords', traces: 'rejectedSpans' };

const TO_OBJECT: protobuf.IConversionOptions = { longs: String, enums: Number, defaults: false, oneofs: false };

/** An Export*ServiceRequest in protobuf → the OTLP/JSON document shape. */
export function decodeOtlpProtobuf(signal: OtlpSignal, bytes: Buffer): unknown {
  const type = REQUEST[signal];
  let message: protobuf.Message;
  try {
    message = type.decode(bytes);
  } catch (error) {
    throw new DecodeError(`body is not a protobuf ${type.name}: ${(error as Error).message}`, undefined);
  }
  return toOtlpJsonShape(type.toObject(message, TO_OBJECT));
}

export interface PartialSuccess {
  rejected: number;
  errorMessage: string;
}

/** The Export*ServiceResponse in protobuf; partial_success unset when nothing was rejected. */
export function encodeExportResponse(signal: OtlpSignal, partial: PartialSuccess | undefined): Buffer {
  const type = RESPONSE[signal];
  const body = partial === undefined ? {} : { partialSuccess: { [REJECTED_FIELD[signal]]: partial.rejected, errorMessage: partial.errorMessage } };
  return Buffer.from(type.encode(type.fromObject(body)).finish());
}

/** google.rpc.Status in protobuf. */
export function encodeStatus(code: number, message: string): Buffer {
  return Buffer.from(STATUS.encode(STATUS.fromObject({ code, message })).finish());
}

/** google.rpc.Status from protobuf (what a client reads back). */
export function decodeStatus(bytes: Buffer): { code: number; message: string } {
  const o = STATUS.toObject(STATUS.decode(bytes), { defaults: true }) as { code: number; message: string };
  return { code: o.code, message: o.message };
}

/** An Export*ServiceResponse from protobuf (what a client reads back), in the OTLP/JSON shape. */
export function decodeExportResponse(signal: OtlpSignal, bytes: Buffer): Record<string, unknown> {
  const type = RESPONSE[signal];
  return type.toObject(type.decode(bytes), { longs: Number, defaults: false }) as Record<string, unknown>;
}

/** An Export*ServiceRequest in protobuf from a plain object in the protobufjs shape (tests, tools). */
export function encodeOtlpRequest(signal: OtlpSignal, request: Record<string, unknown>): Buffer {
  const type = REQUEST[signal];
  return Buffer.from(type.encode(type.fromObject(request)).finish());
}
