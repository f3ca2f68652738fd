/**
 * Loki push `POST /loki/api/v1/push` (OTLP port), JSON form:
 * `{streams: [{stream: {labels}, values: [[ns-string, line], [ns, line, {structured metadata}]]}]}`.
 * Labels `namespace`, `pod`, `container`, `app`, `service_name` (and the other label rules of
 * api.md §1.9) give the workload; `level` / `detected_level` the severity. Answers 204.
 */
import { z } from 'zod';
import type { HttpIngestDecoder, IngestRequest, IngestResult, UnsupportedMedia } from '../decoder.js';
import { resolveFromLabels } from '../identity.js';
import { parseJson } from '../json-body.js';
import { jsonPath } from '../../model/json-path.js';
import { DecodeError, emptyBatch } from '../../model/records.js';

const entry = z.union([z.tuple([z.string(), z.string()]), z.tuple([z.string(), z.string(), z.record(z.string(), z.unknown())])]);
const pushBody = z.object({
  streams: z.array(z.object({ stream: z.record(z.string(), z.string()).default({}), values: z.array(entry).default([]) })),
});

const NANOS = /^\d{1,20}$/;

export class LokiPushDecoder implements HttpIngestDecoder {
  readonly source = 'logs' as const;

  checkMedia(contentType: string, contentEncoding: string): UnsupportedMedia | undefined {
    if (contentEncoding !== '' && contentEncoding !== 'identity') return { unsupported: `Content-Encoding ${contentEncoding} is not accepted: send uncompressed JSON` };
    if (contentType !== '' && contentType !== 'application/json') {
      return { unsupported: `Content-Type ${contentType} is not accepted: Loki push is served in its JSON form (application/json)` };
    }
    return undefined;
  }

  decode(request: IngestRequest): IngestResult {
    const doc = parseJson(request.body);
    const parsed = pushBody.safeParse(doc);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = jsonPath(issue.path);
      throw new DecodeError(`${field}: ${issue.message}`, field === '' ? undefined : field);
    }
    const batch = emptyBatch();
    parsed.data.streams.forEach((stream, s) => {
      const labels = new Map(Object.entries(stream.stream));
      const identity = resolveFromLabels((n) => labels.get(n));
      const level = labels.get('level') ?? labels.get('detected_level') ?? '';
      stream.values.forEach(([ns, line, metadata], i) => {
        if (!NANOS.test(ns)) throw new DecodeError(`streams[${s}].values[${i}][0] must be a decimal string of Unix nanoseconds`, `streams[${s}].values[${i}][0]`);
        if (identity === undefined) {
          batch.rejected += 1;
          return;
        }
        const lineLevel = typeof metadata?.['level'] === 'string' ? metadata['level'] : level;
        const timeMs = ns.length > 6 ? Number(ns.slice(0, -6)) + Number(ns.slice(-6)) / 1e6 : Number(ns) / 1e6;
        batch.logs.push({ workload: identity.workload, pod: identity.pod, timeMs, severityNumber: 0, severityText: lineLevel, body: line });
      });
    });
    return { batch, status: 204 };
  }
}
