/**
 * Elasticsearch-style `POST /_bulk` and `POST /{index}/_bulk` (OTLP port): NDJSON pairs of an
 * action line (`index` or `create`) and a document. Documents carry `@timestamp`, `message` or
 * `log`, `log.level`, ECS `kubernetes.namespace`, `kubernetes.deployment.name`,
 * `kubernetes.pod.name`, `service.name`. The answer is Elasticsearch's `{took, errors, items}`
 * with a status per item, so Fluent Bit or Filebeat `es` outputs accept it: a document that is JSON
 * but unusable (not an object, a bad `@timestamp`) fails its own item (400). A line that is not
 * JSON at all (truncated object, trailing comma, `NaN`) means the body is not NDJSON: the whole
 * request is refused with 400 naming the line, as Elasticsearch refuses an unparsable bulk body.
 */
import type { HttpIngestDecoder, IngestRequest, IngestResult, UnsupportedMedia } from '../decoder.js';
import { resolveFromLabels } from '../identity.js';
import type { LogRecord } from '../../model/records.js';
import { DecodeError, emptyBatch } from '../../model/records.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads `a.b.c` either nested or as a dotted key (both forms occur in ECS documents). */
function field(doc: Json, path: string): unknown {
  if (path in doc) return doc[path];
  let cur: unknown = doc;
  for (const part of path.split('.')) {
    if (!isObject(cur)) return undefined;
    cur = cur[part];
  }
  return cur;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

export class BulkDecoder implements HttpIngestDecoder {
  readonly source = 'logs' as const;

  checkMedia(contentType: string, contentEncoding: string): UnsupportedMedia | undefined {
    if (contentEncoding !== '' && contentEncoding !== 'identity') return { unsupported: `Content-Encoding ${contentEncoding} is not accepted: send uncompressed NDJSON` };
    if (!['', 'application/json', 'application/x-ndjson', 'text/plain'].includes(contentType)) {
      return { unsupported: `Content-Type ${contentType} is not accepted: send application/x-ndjson` };
    }
    return undefined;
  }

  decode(request: IngestRequest): IngestResult {
    const started = performance.now();
    let text = request.body.toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    if (lines.length === 0) throw new DecodeError('body is empty: NDJSON action and document lines are required', undefined);
    const batch = emptyBatch();
    const items: Json[] = [];
    let errors = false;
    for (let i = 0; i < lines.length; i += 2) {
      let action: unknown;
      try {
        action = JSON.parse(lines[i] as string);
      } catch (error) {
        throw new DecodeError(`line ${i + 1}: the action line is not JSON (${(error as Error).message})`, `line ${i + 1}`);
      }
      const op = isObject(action) ? (['index', 'create'] as const).find((k) => isObject(action[k])) : undefined;
      if (op === undefined) throw new DecodeError(`line ${i + 1}: the action must be index or create`, `line ${i + 1}`);
      const meta = (action as Json)[op] as Json;
      const index = str(meta['_index']) ?? request.params['index'] ?? 'faultline';
      const result = this.document(lines[i + 1], i + 2, batch.logs);
      if (result !== undefined) {
        errors = true;
        batch.rejected += 1;
        items.push({ [op]: { _index: index, status: 400, error: { type: 'mapper_parsing_exception', reason: result } } });
      } else {
        items.push({ [op]: { _index: index, _id: `${Date.now().toString(36)}-${i}`, result: 'created', status: 201 } });
      }
    }
    return { batch, status: 200, responseBody: { took: Math.round(performance.now() - started), errors, items } };
  }

  /** Appends the document's log record; returns why it was refused, if it was. */
  private document(line: string | undefined, lineNumber: number, out: LogRecord[]): string | undefined {
    if (line === undefined) return 'the action has no document line';
    let doc: unknown;
    try {
      doc = JSON.parse(line);
    } catch (error) {
      throw new DecodeError(`line ${lineNumber}: the document line is not JSON (${(error as Error).message})`, `line ${lineNumber}`);
    }
    if (!isObject(doc)) return 'the document must be a JSON object';
    const message = str(field(doc, 'message')) ?? str(field(doc, 'log')) ?? '';
    const stamp = field(doc, '@timestamp');
    const timeMs = typeof stamp === 'string' ? Date.parse(stamp) : typeof stamp === 'number' ? stamp : Date.now();
    if (!Number.isFinite(timeMs)) return '@timestamp is not a date';
    const labels = new Map<string, string | undefined>([
      ['namespace', str(field(doc, 'kubernetes.namespace')) ?? str(field(doc, 'kubernetes.namespace_name'))],
      ['deployment', str(field(doc, 'kubernetes.deployment.name'))],
      ['pod', str(field(doc, 'kubernetes.pod.name')) ?? str(field(doc, 'kubernetes.pod_name'))],
      ['service', str(field(doc, 'service.name'))],
      ['host', str(field(doc, 'host'))],
    ]);
    const identity = resolveFromLabels((n) => labels.get(n));
    if (identity === undefined) return 'host is not a workload key or host name';
    const level = str(field(doc, 'log.level')) ?? str(field(doc, 'level')) ?? '';
    out.push({ workload: identity.workload, pod: identity.pod, timeMs, severityNumber: 0, severityText: level, body: message });
    return undefined;
  }
}
