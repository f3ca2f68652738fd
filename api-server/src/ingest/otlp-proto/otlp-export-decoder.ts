/**
 * The standard OTLP/HTTP listener's decoder: an Export*ServiceRequest in protobuf or in OTLP/JSON
 * (the protobuf JSON mapping) to records, with the same rules as every other OTLP route. The body
 * is already uncompressed; the transport chose the encoding from the Content-Type.
 */
import { parseJson } from '../json-body.js';
import { fromProtoJsonMapping } from '../otlp-json/proto-json-mapping.js';
import { decodeLogsDocument, decodeMetricsDocument, decodeTracesDocument } from '../otlp-json/otlp-json-decoders.js';
import type { DecodedBatch } from '../../model/records.js';
import type { OtlpSignal } from './otlp-proto-messages.js';
import { decodeOtlpProtobuf } from './otlp-proto-messages.js';

export type OtlpEncoding = 'protobuf' | 'json';

const DOCUMENT_DECODERS: Record<OtlpSignal, (doc: unknown) => DecodedBatch> = {
  metrics: decodeMetricsDocument,
  logs: decodeLogsDocument,
  traces: decodeTracesDocument,
};

export function decodeOtlpExport(signal: OtlpSignal, encoding: OtlpEncoding, body: Buffer): DecodedBatch {
  const doc = encoding === 'protobuf' ? decodeOtlpProtobuf(signal, body) : fromProtoJsonMapping(parseJson(body));
  return DOCUMENT_DECODERS[signal](doc);
}
