/**
 * The answers of the standard OTLP/HTTP listener (OTLP specification, "OTLP/HTTP Response"), in
 * the encoding of the request: an Export*ServiceResponse on success (partial_success unset when
 * everything was kept; rejected count and error_message when some was dropped) and a
 * google.rpc.Status for every error, with the HTTP status and headers of the service's errors.
 */
import type { Context } from 'koa';
import type { OtlpEncoding } from '../../ingest/otlp-proto/otlp-export-decoder.js';
import type { OtlpSignal, PartialSuccess } from '../../ingest/otlp-proto/otlp-proto-messages.js';
export { partialSuccess } from '../../ingest/otlp-proto/otlp-partial-success.js';
import { encodeExportResponse, encodeStatus, REJECTED_FIELD } from '../../ingest/otlp-proto/otlp-proto-messages.js';
import type { HttpError } from '../../model/http-errors.js';

const PROTOBUF = 'application/x-protobuf';

/** the encoding a Content-Type media type selects; undefined when OTLP/HTTP has none for it */
export function otlpEncodingOf(mediaType: string): OtlpEncoding | undefined {
  if (mediaType === PROTOBUF || mediaType === 'application/protobuf') return 'protobuf';
  if (mediaType === 'application/json') return 'json';
  return undefined;
}

export function answerExport(ctx: Context, signal: OtlpSignal, encoding: OtlpEncoding, partial: PartialSuccess | undefined): void {
  ctx.status = 200;
  if (encoding === 'protobuf') {
    ctx.type = PROTOBUF;
    ctx.body = encodeExportResponse(signal, partial);
    return;
  }
  ctx.type = 'application/json';
  // the protobuf JSON mapping writes int64 as a decimal string
  ctx.body = partial === undefined ? {} : { partialSuccess: { [REJECTED_FIELD[signal]]: String(partial.rejected), errorMessage: partial.errorMessage } };
}

/** google.rpc.Code of an HTTP status of this listener */
function rpcCode(status: number): number {
  switch (status) {
    case 400:
    case 413:
    case 415:
      return 3; // INVALID_ARGUMENT
    case 401:
      return 16; // UNAUTHENTICATED
    case 404:
      return 5; // NOT_FOUND
    case 405:
      return 12; // UNIMPLEMENTED
    case 429:
      return 8; // RESOURCE_EXHAUSTED
    case 503:
      return 14; // UNAVAILABLE
    default:
      return 13; // INTERNAL
  }
}

export function answerError(ctx: Context, error: HttpError, encoding: OtlpEncoding): void {
  ctx.status = error.status;
  for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
  const code = rpcCode(error.status);
  if (encoding === 'protobuf') {
    ctx.type = PROTOBUF;
    ctx.body = encodeStatus(code, error.message);
    return;
  }
  ctx.type = 'application/json';
  ctx.body = { code, message: error.message, details: [] };
}
