import { expect } from 'chai';
import fc from 'fast-check';
import { useTestService } from '../../support/service.js';
import { otlpLogs, otlpMetrics } from '../../support/otlp-builders.js';

const resource = [{ key: 'k8s.namespace.name', value: { stringValue: 'shop' } }];

describe('OTLP format rules and authentication (interface "OTLP format rules", api.md §1.3-1.7)', function () {
  this.timeout(60_000);
  const svc = useTestService({ key: 'secret-key' });

  const raw = (path: string, init: RequestInit & { headers?: Record<string, string> }) =>
    fetch(`${svc.otlp}${path}`, { method: 'POST', ...init, headers: { authorization: 'Bearer secret-key', 'content-type': 'application/json', ...init.headers } });

  it('serves both OTLP path forms', async () => {
    const body = otlpMetrics({ namespace: 'shop', deployment: 'cart' }, { cpu_percent: [[Date.now(), 0.3]] });
    for (const path of ['/v1/metrics', '/otlp/v1/metrics']) expect((await raw(path, { body: JSON.stringify(body) })).status).to.equal(200);
    const logs = otlpLogs({ namespace: 'shop', deployment: 'cart' }, [{ t: Date.now(), severity: 9, text: 'ok' }]);
    for (const path of ['/v1/logs', '/otlp/v1/logs']) expect((await raw(path, { body: JSON.stringify(logs) })).status).to.equal(200);
  });

  const cases: [string, string, Record<string, string>, unknown, number, string | undefined][] = [
    ['protobuf', '/v1/metrics', { 'content-type': 'application/x-protobuf' }, 'x', 415, undefined],
    ['gzip', '/v1/metrics', { 'content-encoding': 'gzip' }, '{}', 415, undefined],
    ['not JSON', '/v1/metrics', {}, '{"resourceMetrics": [', 400, undefined],
    [
      'quoted intValue',
      '/v1/metrics',
      {},
      { resourceMetrics: [{ resource: { attributes: [{ key: 'n', value: { intValue: '5' } }] }, scopeMetrics: [] }] },
      400,
      'resourceMetrics[0].resource.attributes[0].value.intValue',
    ],
    [
      'numeric-looking but invalid timeUnixNano',
      '/v1/metrics',
      {},
      { resourceMetrics: [{ resource: { attributes: resource }, scopeMetrics: [{ metrics: [{ name: 'cpu', gauge: { dataPoints: [{ timeUnixNano: '12ab', asDouble: 1 }] } }] }] }] },
      400,
      'resourceMetrics[0].scopeMetrics[0].metrics[0].gauge.dataPoints[0].timeUnixNano',
    ],
    [
      'short traceId',
      '/v1/traces',
      {},
      { resourceSpans: [{ resource: { attributes: resource }, scopeSpans: [{ spans: [{ traceId: 'abc', spanId: '0000000000000001', startTimeUnixNano: '1', endTimeUnixNano: '2' }] }] }] },
      400,
      'resourceSpans[0].scopeSpans[0].spans[0].traceId',
    ],
    [
      'non-hex spanId',
      '/v1/traces',
      {},
      { resourceSpans: [{ resource: { attributes: resource }, scopeSpans: [{ spans: [{ traceId: '0'.repeat(32), spanId: 'zzzzzzzzzzzzzzzz', startTimeUnixNano: '1', endTimeUnixNano: '2' }] }] }] },
      400,
      'resourceSpans[0].scopeSpans[0].spans[0].spanId',
    ],
    ['array body', '/v1/logs', {}, [], 400, undefined],
  ];
  for (const [name, path, headers, body, status, field] of cases) {
    it(`${name} → ${status}${field === undefined ? '' : ` naming ${field}`}, and the service stays healthy`, async () => {
      const r = await raw(path, { headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
      expect(r.status).to.equal(status);
      const json = (await r.json()) as { error: string; code: string; field?: string };
      expect(json.error).to.be.a('string');
      expect(json.code).to.be.a('string');
      if (field !== undefined) expect(json.field).to.equal(field);
      expect((await fetch(`${svc.api}/health`)).status).to.equal(200);
    });
  }

  it('OTLP posted to the REST port answers 421 naming the OTLP port (with the key); 401 without it', async () => {
    const withKey = await fetch(`${svc.api}/v1/metrics`, { method: 'POST', headers: { authorization: 'Bearer secret-key' }, body: '{}' });
    expect(withKey.status).to.equal(421);
    expect(((await withKey.json()) as { error: string }).error).to.contain(String(svc.server.ports.otlp));
    expect((await fetch(`${svc.api}/v1/metrics`, { method: 'POST', body: '{}' })).status).to.equal(401);
  });

  it('401 for a missing or wrong key on both ports, WWW-Authenticate set; health, ready and metrics stay open', async () => {
    for (const auth of [undefined, 'Bearer wrong', 'secret-key', 'Basic secret-key']) {
      const headers: Record<string, string> = auth === undefined ? {} : { authorization: auth };
      const rest = await fetch(`${svc.api}/ruptures`, { headers });
      expect(rest.status, String(auth)).to.equal(401);
      expect(rest.headers.get('www-authenticate')).to.equal('Bearer');
      expect((await fetch(`${svc.otlp}/v1/metrics`, { method: 'POST', headers, body: '{}' })).status).to.equal(401);
    }
    expect((await fetch(`${svc.api}/ruptures`, { headers: { authorization: 'bearer secret-key' } })).status).to.equal(200);
    for (const path of ['/health', '/ready', '/metrics']) expect((await fetch(`${svc.api}${path}`)).status).to.equal(200);
    const metrics = await (await fetch(`${svc.api}/metrics`)).text();
    for (const series of ['rpt_ingest_samples_total', 'rpt_memory_bytes', 'rpt_uptime_seconds', 'rpt_version_info', 'process_cpu_user_seconds_total']) {
      expect(metrics).to.contain(series);
    }
  });

  it('a body over the 16 MiB ingest limit answers 413 before it is read', async () => {
    const r = await raw('/v1/metrics', { headers: { 'content-length': String(17 * 1024 * 1024) }, body: 'x'.repeat(17 * 1024 * 1024) });
    expect(r.status).to.equal(413);
  });

  it('random JSON thrown at every ingest route never gets a 5xx (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/v1/metrics', '/v1/logs', '/v1/traces', '/otlp/v1/metrics'), fc.jsonValue(), async (path, value) => {
        const r = await raw(path, { body: JSON.stringify(value) });
        expect(r.status).to.be.lessThan(500);
        await r.arrayBuffer();
      }),
      { numRuns: 150 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('resourceMetrics', 'resourceLogs', 'resourceSpans'),
        fc.array(fc.record({ resource: fc.jsonValue(), scopeMetrics: fc.jsonValue(), scopeLogs: fc.jsonValue(), scopeSpans: fc.jsonValue() }, { requiredKeys: [] }), { maxLength: 3 }),
        async (key, list) => {
          const path = key === 'resourceMetrics' ? '/v1/metrics' : key === 'resourceLogs' ? '/v1/logs' : '/v1/traces';
          const r = await raw(path, { body: JSON.stringify({ [key]: list }) });
          expect(r.status).to.be.lessThan(500);
          await r.arrayBuffer();
        },
      ),
      { numRuns: 150 },
    );
    expect((await fetch(`${svc.api}/health`)).status).to.equal(200);
  });
});
