/**
 * Every HTTP error of the service in one place (api.md §1.3): a status, a stable machine-readable
 * `code`, a human message naming the field and the reason, and `field` where one field is at fault.
 */
import type { ZodError } from 'zod';
import { jsonPath } from './json-path.js';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }

  body(): Record<string, unknown> {
    return { error: this.message, code: this.code, ...(this.field === undefined ? {} : { field: this.field }), ...this.extra };
  }
}

export const badRequest = (message: string, field?: string): HttpError => new HttpError(400, 'invalid_body', message, field);
export const badQuery = (message: string, field: string): HttpError => new HttpError(400, 'invalid_query', message, field);
export const unauthorized = (): HttpError =>
  new HttpError(401, 'unauthorized', 'missing or invalid bearer key in the Authorization header', undefined, {}, { 'WWW-Authenticate': 'Bearer' });
export const noKeyConfigured = (): HttpError =>
  new HttpError(503, 'no_api_key', 'no API key configured: set SVC_API_KEY or --api-key');
export const editionRequired = (message: string): HttpError =>
  new HttpError(402, 'edition_required', message, undefined, { upgrade: 'restart the service with SVC_EDITION=autopilot' });
export const notFound = (message = 'not found'): HttpError => new HttpError(404, 'not_found', message);
export const methodNotAllowed = (allow: string): HttpError =>
  new HttpError(405, 'method_not_allowed', 'method not allowed', undefined, {}, allow === '' ? {} : { Allow: allow });
export const conflict = (message: string): HttpError => new HttpError(409, 'conflict', message);
export const payloadTooLarge = (limit: number): HttpError =>
  new HttpError(413, 'payload_too_large', `request body larger than the limit of ${limit} bytes`, undefined, {}, { Connection: 'close' });
export const unsupportedMedia = (message: string): HttpError => new HttpError(415, 'unsupported_media_type', message);
export const otlpOnOtherPort = (otlpPort: number): HttpError =>
  new HttpError(421, 'misdirected_request', `OTLP is served on the OTLP port ${otlpPort} (paths /otlp/v1/* and /v1/*), not on the REST port`, undefined, {
    otlp_port: otlpPort,
  });
export const rateLimited = (): HttpError =>
  new HttpError(429, 'rate_limited', 'ingest rate limit exceeded', undefined, {}, { 'Retry-After': '1' });
export const queueFull = (): HttpError =>
  new HttpError(429, 'queue_full', 'ingest queue is full; retry shortly', undefined, {}, { 'Retry-After': '1' });
export const analysisBacklog = (waiting: number, retryAfterSeconds: number): HttpError =>
  new HttpError(
    429,
    'analysis_backlog',
    `the analysis is ${waiting} workload-buckets behind, at its bound (SVC_INGEST_MAX_WAITING_BUCKETS); nothing of this request was stored; retry after the next tick`,
    undefined,
    {},
    { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  );
export const memoryHighWater = (reason: string): HttpError =>
  new HttpError(429, 'memory_high_water', `new workloads are refused: ${reason}; the records of workloads already analysed were accepted`, undefined, {}, { 'Retry-After': '60' });
export const ingestUnavailable = (): HttpError =>
  new HttpError(503, 'ingest_unavailable', 'the cluster telemetry topic is not reachable; nothing of this request was stored; retry shortly', undefined, {}, { 'Retry-After': '1' });
export const controlUnavailable = (message: string): HttpError => new HttpError(503, 'control_unavailable', message, undefined, {}, { 'Retry-After': '1' });
export const actionOwnerUnavailable = (message: string): HttpError => new HttpError(503, 'action_owner_unavailable', message, undefined, {}, { 'Retry-After': '1' });
export const notReady = (): HttpError =>
  new HttpError(503, 'not_ready', 'the service is starting: storage is being opened and state restored', undefined, {}, { 'Retry-After': '1' });

/** The first zod issue as a 400 naming the JSON path of the field. */
export function fromZod(error: ZodError, prefix = ''): HttpError {
  const issue = error.issues[0];
  if (issue === undefined) return badRequest('invalid body');
  const path = jsonPath(issue.path, prefix);
  const field = path === '' ? undefined : path;
  return badRequest(field === undefined ? issue.message : `${field}: ${issue.message}`, field);
}
