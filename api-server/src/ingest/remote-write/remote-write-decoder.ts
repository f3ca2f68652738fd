/**
 * POST /api/v2/write (REST and OTLP ports): Prometheus remote-write, either the snappy-compressed
 * protobuf WriteRequest (proto/prometheus/remote-write.proto, decoded with protobufjs) or the JSON
 * body form `{timeseries: [{Labels: [{Name, Value}], Samples: [{Value, Timestamp}]}]}`.
 *
 * Identity: protobuf uses the label rules of api.md §1.9 (host, deployment/statefulset/daemonset,
 * workload, service/app, pod); the JSON form uses only `host` (the workload key), and without it
 * every series goes to default/host/unknown. Samples that are not finite, and series whose `host`
 * is not a workload, are dropped and counted as rejected; the request still succeeds (204).
 */
import protobuf from 'protobufjs';
import { z } from 'zod';
import { workloadKeyFromHost } from '../../analysis/workload-key.js';
import type { HttpIngestDecoder, IngestRequest, IngestResult, UnsupportedMedia } from '../decoder.js';
import { resolveFromLabels } from '../identity.js';
import { parseJson } from '../json-body.js';
import { jsonPath } from '../json-path.js';
import { protoPath } from '../proto-files.js';
import type { DecodedBatch } from '../records.js';
import { DecodeError, emptyBatch } from '../records.js';
import { PrometheusNameMapper } from './prometheus-names.js';
import { uncompressSnappy } from './snappy-block.js';

const UNCOMPRESSED_LIMIT = 64 * 1024 * 1024;

interface WireLabel {
  name: string;
  value: string;
}
interface WireSample {
  value: number;
  timestamp: number | { toNumber(): number };
}
interface WireSeries {
  labels: WireLabel[];
  samples: WireSample[];
}

const root = protobuf.loadSync(protoPath('prometheus/remote-write.proto'));
const WriteRequest = root.lookupType('prometheus.WriteRequest');

const jsonBody = z.object({
  timeseries: z.array(
    z.object({
      Labels: z.array(z.object({ Name: z.string(), Value: z.string() })).default([]),
      Samples: z.array(z.object({ Value: z.number(), Timestamp: z.number().int() })).default([]),
    }),
  ),
});

const toMs = (t: WireSample['timestamp']): number => (typeof t === 'number' ? t : t.toNumber());

export class RemoteWriteDecoder implements HttpIngestDecoder {
  readonly source = 'metrics' as const;
  private readonly names = new PrometheusNameMapper();

  checkMedia(contentType: string, contentEncoding: string): UnsupportedMedia | undefined {
    if (contentType === 'application/json') {
      return contentEncoding === '' || contentEncoding === 'identity' ? undefined : { unsupported: `Content-Encoding ${contentEncoding} is not accepted for the JSON form` };
    }
    if (contentType === 'application/x-protobuf' || contentType === '') {
      return contentEncoding === '' || contentEncoding === 'snappy' || contentEncoding === 'identity'
        ? undefined
        : { unsupported: `Content-Encoding ${contentEncoding} is not accepted: remote-write bodies are snappy-compressed protobuf` };
    }
    return { unsupported: `Content-Type ${contentType} is not accepted: send application/x-protobuf (snappy) or application/json` };
  }

  decode(request: IngestRequest): IngestResult {
    const batch = request.contentType === 'application/json' ? this.decodeJson(request.body) : this.decodeProtobuf(request.body);
    return { batch, status: 204 };
  }

  private decodeProtobuf(body: Buffer): DecodedBatch {
    const raw = uncompressSnappy(body, UNCOMPRESSED_LIMIT);
    let message: { timeseries?: WireSeries[] };
    try {
      message = WriteRequest.decode(raw) as unknown as { timeseries?: WireSeries[] };
    } catch (error) {
      throw new DecodeError(`body is not a protobuf WriteRequest: ${(error as Error).message}`, undefined);
    }
    const batch = emptyBatch();
    const series = message.timeseries ?? [];
    for (let i = 0; i < series.length; i += 1) {
      const s = series[i] as WireSeries;
      const labels = new Map<string, string>();
      for (const l of s.labels) labels.set(l.name, l.value);
      const name = labels.get('__name__');
      if (name === undefined || name === '') {
        batch.rejected += s.samples.length;
        continue;
      }
      const identity = resolveFromLabels((n) => labels.get(n));
      if (identity === undefined) {
        batch.rejected += s.samples.length;
        continue;
      }
      const seriesKey = `${identity.workload}|${identity.pod ?? ''}|${name}|${labels.get('instance') ?? ''}|${labels.get('container') ?? ''}`;
      for (const sample of s.samples) {
        if (!Number.isFinite(sample.value)) {
          batch.rejected += 1;
          continue;
        }
        this.names.map(identity.workload, identity.pod, seriesKey, name, sample.value, toMs(sample.timestamp), batch.metrics);
      }
    }
    return batch;
  }

  private decodeJson(body: Buffer): DecodedBatch {
    const doc = parseJson(body);
    const parsed = jsonBody.safeParse(doc);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = jsonPath(issue.path);
      throw new DecodeError(`${field}: ${issue.message}`, field === '' ? undefined : field);
    }
    const batch = emptyBatch();
    for (const s of parsed.data.timeseries) {
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
    return batch;
  }
}
