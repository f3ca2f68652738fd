/**
 * The contract between an HTTP ingest route and its decoder. The route (http/) does auth, the
 * token bucket, body limits and the reply; the decoder (ingest/) only turns bytes into records.
 */
import type { DecodedBatch } from '../model/records.js';

export type IngestSource = 'metrics' | 'logs' | 'traces';

export interface IngestRequest {
  body: Buffer;
  /** media type without parameters, lower-case ('' when absent) */
  contentType: string;
  /** Content-Encoding, lower-case ('' or 'identity' when absent) */
  contentEncoding: string;
  /** path parameters of the route (for example the index of `/{index}/_bulk`) */
  params: Record<string, string>;
  /** parameters of the Content-Type, names lower-case (remote-write's `proto=`) */
  contentTypeParams?: Readonly<Record<string, string>>;
  /** the times the pipeline keeps, from the request's arrival (epoch ms); decoders may refuse samples outside */
  timeWindow?: { oldestMs: number; newestMs: number };
}

export interface IngestResult {
  batch: DecodedBatch;
  /** status of the reply; 200 when omitted */
  status?: number;
  /** JSON reply body; none (204 when status is 204) when omitted */
  responseBody?: unknown;
  /** reply headers (remote-write's X-Prometheus-Remote-Write-*-Written) */
  headers?: Record<string, string>;
}

/** What the route answers 415 with when a decoder does not take a media type or encoding. */
export interface UnsupportedMedia {
  unsupported: string;
}

export interface HttpIngestDecoder {
  /** the `source` label of rpt_ingest_samples_total this route mostly feeds */
  readonly source: IngestSource;
  /** undefined when the request's media type and encoding are acceptable */
  checkMedia(contentType: string, contentEncoding: string, contentTypeParams?: Readonly<Record<string, string>>): UnsupportedMedia | undefined;
  /** throws DecodeError (a 400 naming the field) when the whole request is unusable */
  decode(request: IngestRequest): IngestResult;
  /** the same answer as `decode`, computed off the event loop where the decoder can (remote-write's worker pool) */
  decodeAsync?(request: IngestRequest): Promise<IngestResult>;
}
