/**
 * POST /api/v2/write (REST and OTLP ports): Prometheus remote-write. The snappy-compressed protobuf
 * body is Remote-Write 1.0 `prometheus.WriteRequest` or 2.0 `io.prometheus.write.v2.Request`, chosen
 * by the `proto=` parameter of the Content-Type (none: 1.0; another value: 415). The JSON body form
 * `{timeseries: [{Labels: [{Name, Value}], Samples: [{Value, Timestamp}]}]}` is the contract's variant.
 *
 * Every answer carries X-Prometheus-Remote-Write-{Samples,Histograms,Exemplars}-Written. Identity
 * follows the label rules (identity.ts, docs/remote-write-mapping.md); the JSON form uses only
 * `host` (the workload key), and without it every series goes to default/host/unknown. What counts
 * as written and what is refused with 400: remote-write-samples.ts.
 */
import { z } from 'zod';
import { workloadKeyFromHost } from '../../model/workload-key.js';
import type { HttpIngestDecoder, IngestRequest, IngestResult, UnsupportedMedia } from '../decoder.js';
import { parseJson } from '../json-body.js';
import { jsonPath } from '../../model/json-path.js';
import type { DecodedBatch } from '../../model/records.js';
import { DecodeError, emptyBatch } from '../../model/records.js';
import { PrometheusNameMapper } from './prometheus-names.js';
import type { RemoteWriteDecodePool } from './remote-write-decode-pool.js';
import { seriesOfBody } from './remote-write-identify.js';
import type { SeriesOutcome, WrittenCounts } from './remote-write-samples.js';
import { mapIdentified, recordsOfSeries } from './remote-write-samples.js';
import type { RemoteWriteVersion } from './remote-write-series.js';

/** the `proto=` values of the Content-Type and the message each selects */
export const REMOTE_WRITE_PROTOS: Record<string, RemoteWriteVersion> = {
  'prometheus.WriteRequest': 'v1',
  'io.prometheus.write.v2.Request': 'v2',
};

const jsonBody = z.object({
  timeseries: z.array(
    z.object({
      Labels: z.array(z.object({ Name: z.string(), Value: z.string() })).default([]),
      Samples: z.array(z.object({ Value: z.number(), Timestamp: z.number().int() })).default([]),
    }),
  ),
});

export function writtenHeaders(written: WrittenCounts): Record<string, string> {
  return {
    'X-Prometheus-Remote-Write-Samples-Written': String(written.samples),
    'X-Prometheus-Remote-Write-Histograms-Written': String(written.histograms),
    'X-Prometheus-Remote-Write-Exemplars-Written': String(written.exemplars),
  };
}

function versionOf(params: Readonly<Record<string, string>> | undefined): RemoteWriteVersion | undefined {
  const proto = params?.['proto'];
  return proto === undefined ? 'v1' : REMOTE_WRITE_PROTOS[proto];
}

function answer(outcome: SeriesOutcome): IngestResult {
  const headers = writtenHeaders(outcome.written);
  const invalid = outcome.invalidValues + outcome.invalidTimestamps;
  if (invalid === 0) return { batch: outcome.batch, status: 204, headers };
  const reasons = [
    ...(outcome.invalidTimestamps > 0 ? [`${outcome.invalidTimestamps} with a timestamp that is not Unix milliseconds within the last 7 days and the next 5 minutes`] : []),
    ...(outcome.invalidValues > 0 ? [`${outcome.invalidValues} with an infinite value`] : []),
  ];
  const message = `${invalid} samples refused (${reasons.join('; ')}); the ${outcome.written.samples} others were written`;
  return { batch: outcome.batch, status: 400, headers, responseBody: { error: message, code: 'invalid_samples', field: 'samples', invalid_samples: invalid } };
}

export class RemoteWriteDecoder implements HttpIngestDecoder {
  readonly source = 'metrics' as const;
  private readonly names = new PrometheusNameMapper();

  /** with a pool, protobuf bodies are decoded in its worker threads (decodeAsync); name mapping stays here */
  constructor(private readonly pool?: RemoteWriteDecodePool) {}

  checkMedia(contentType: string, contentEncoding: string, params?: Readonly<Record<string, string>>): UnsupportedMedia | undefined {
    if (contentType === 'application/json') {
      return contentEncoding === '' || contentEncoding === 'identity' ? undefined : { unsupported: `Content-Encoding ${contentEncoding} is not accepted for the JSON form` };
    }
    if (contentType === 'application/x-protobuf' || contentType === '') {
      if (versionOf(params) === undefined) {
        return { unsupported: `proto=${params?.['proto'] ?? ''} is not accepted: send proto=prometheus.WriteRequest (Remote-Write 1.0) or proto=io.prometheus.write.v2.Request (2.0)` };
      }
      return contentEncoding === '' || contentEncoding === 'snappy' || contentEncoding === 'identity'
        ? undefined
        : { unsupported: `Content-Encoding ${contentEncoding} is not accepted: remote-write bodies are snappy-compressed protobuf` };
    }
    return { unsupported: `Content-Type ${contentType} is not accepted: send application/x-protobuf (snappy) or application/json` };
  }

  decode(request: IngestRequest): IngestResult {
    if (request.contentType === 'application/json') return this.decodeJson(request.body);
    return answer(recordsOfSeries(seriesOfBody(request.body, this.requestVersion(request)), this.names, request.timeWindow));
  }

  async decodeAsync(request: IngestRequest): Promise<IngestResult> {
    if (this.pool === undefined || request.contentType === 'application/json') return this.decode(request);
    const ids = await this.pool.identify(request.body, this.requestVersion(request), request.timeWindow);
    return answer(mapIdentified(ids, this.names));
  }

  private requestVersion(request: IngestRequest): RemoteWriteVersion {
    return versionOf(request.contentTypeParams) ?? 'v1'; // checkMedia refused any other proto=
  }

  private decodeJson(body: Buffer): IngestResult {
    const doc = parseJson(body);
    const parsed = jsonBody.safeParse(doc);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = jsonPath(issue.path);
      throw new DecodeError(`${field}: ${issue.message}`, field === '' ? undefined : field);
    }
    const batch: DecodedBatch = emptyBatch();
    let samples = 0;
    for (const s of parsed.data.timeseries) {
      samples += s.Samples.length;
      const labels = new Map(s.Labels.map((l) => [l.Name, l.Value] as const));
      const name = labels.get('__name__');
      const host = labels.get('host');
      const workload = host === undefined ? 'default/host/unknown' : workloadKeyFromHost(host);
      if (name === undefined || name === '' || workload === undefined) {
        batch.rejected += s.Samples.length;
        continue;
      }
      for (const sample of s.Samples) batch.metrics.push({ workload, pod: labels.get('pod'), name, value: sample.Value, timeMs: sample.Timestamp });
    }
    return { batch, status: 204, headers: writtenHeaders({ samples, histograms: 0, exemplars: 0 }) };
  }
}
