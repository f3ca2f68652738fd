import { expect } from 'chai';
import { z } from 'zod';
import * as errors from '../../../api-server/src/model/http-errors.js';
import { type HttpError, fromZod } from '../../../api-server/src/model/http-errors.js';

describe('http/errors: one JSON shape for every error', () => {
  it('gives each error its status, code and headers', () => {
    const table: [HttpError, number, string, Record<string, string>][] = [
      [errors.badRequest('x'), 400, 'invalid_body', {}],
      [errors.badQuery('x', 'limit'), 400, 'invalid_query', {}],
      [errors.unauthorized(), 401, 'unauthorized', { 'WWW-Authenticate': 'Bearer' }],
      [errors.editionRequired('x'), 402, 'edition_required', {}],
      [errors.notFound(), 404, 'not_found', {}],
      [errors.methodNotAllowed(''), 405, 'method_not_allowed', {}],
      [errors.methodNotAllowed('GET, HEAD'), 405, 'method_not_allowed', { Allow: 'GET, HEAD' }],
      [errors.conflict('x'), 409, 'conflict', {}],
      [errors.payloadTooLarge(10), 413, 'payload_too_large', { Connection: 'close' }],
      [errors.unsupportedMedia('x'), 415, 'unsupported_media_type', {}],
      [errors.otlpOnOtherPort(4318), 421, 'misdirected_request', {}],
      [errors.rateLimited(), 429, 'rate_limited', { 'Retry-After': '1' }],
      [errors.queueFull(), 429, 'queue_full', { 'Retry-After': '1' }],
      [errors.noKeyConfigured(), 503, 'no_api_key', {}],
      [errors.ingestUnavailable(), 503, 'ingest_unavailable', { 'Retry-After': '1' }],
      [errors.controlUnavailable('x'), 503, 'control_unavailable', { 'Retry-After': '1' }],
      [errors.actionOwnerUnavailable('x'), 503, 'action_owner_unavailable', { 'Retry-After': '1' }],
      [errors.notReady(), 503, 'not_ready', { 'Retry-After': '1' }],
    ];
    for (const [error, status, code, headers] of table) {
      expect([error.status, error.code, error.headers], code).to.deep.equal([status, code, headers]);
      expect(error.body(), code).to.include({ code, error: error.message });
    }
  });

  it('puts field and extra members in the body only when set', () => {
    expect(errors.badQuery('limit must be a positive integer', 'limit').body()).to.deep.equal({
      error: 'limit must be a positive integer',
      code: 'invalid_query',
      field: 'limit',
    });
    expect(errors.notFound('no such workload').body()).to.deep.equal({ error: 'no such workload', code: 'not_found' });
    expect(errors.otlpOnOtherPort(4318).body()).to.deep.equal({
      error: 'OTLP is served on the OTLP port 4318 (paths /otlp/v1/* and /v1/*), not on the REST port',
      code: 'misdirected_request',
      otlp_port: 4318,
    });
    expect(errors.editionRequired('actions need the autopilot edition').body()).to.include({ upgrade: 'restart the service with SVC_EDITION=autopilot' });
  });

  describe('fromZod', () => {
    const schema = z.object({ spec: z.object({ targets: z.array(z.object({ port: z.number() })) }) });

    it('names the JSON path of the first issue as field and in the message', () => {
      const result = schema.safeParse({ spec: { targets: [{ port: 80 }, { port: '80' }] } });
      const error = fromZod(result.error!);
      expect(error.status).to.equal(400);
      expect(error.field).to.equal('spec.targets[1].port');
      expect(error.message).to.match(/^spec\.targets\[1\]\.port: /);
      expect(error.body()).to.include({ code: 'invalid_body', field: 'spec.targets[1].port' });
    });

    it('puts a prefix in front of the path', () => {
      const result = z.object({ port: z.number() }).safeParse({});
      expect(fromZod(result.error!, 'sink').field).to.equal('sink.port');
    });

    it('has no field when the whole body is at fault', () => {
      const result = schema.safeParse(42);
      const error = fromZod(result.error!);
      expect(error.field).to.equal(undefined);
      expect(error.body()).to.not.have.property('field');
      expect(error.message).to.equal(result.error!.issues[0]!.message);
    });
  });
});
