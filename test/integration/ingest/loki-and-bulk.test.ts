import { expect } from 'chai';
import fc from 'fast-check';
import { eventually, useTestService } from '../../support/service.js';

describe('log push (Loki) and bulk indexing (Elasticsearch) on the OTLP port', function () {
  this.timeout(60_000);
  const svc = useTestService();

  const post = (path: string, body: string, type = 'application/json') => fetch(`${svc.otlp}${path}`, { method: 'POST', headers: { 'content-type': type }, body });
  const ns = (ms: number): string => `${ms}000000`;

  it('Loki push: labels resolve the workload, level the severity; 204', async () => {
    const now = Date.now();
    const body = {
      streams: [
        { stream: { namespace: 'logs', app: 'checkout', level: 'error' }, values: [[ns(now), 'payment failed'], [ns(now + 1), 'retry failed', { trace_id: 'abc' }]] },
        { stream: { namespace: 'logs', app: 'checkout', detected_level: 'info' }, values: [[ns(now + 2), 'ok']] },
      ],
    };
    const r = await post('/loki/api/v1/push', JSON.stringify(body));
    expect(r.status).to.equal(204);
    await eventually(async () => ((await svc.get('/rupture/logs/host/checkout')).status === 200 ? true : undefined));
    expect(((await svc.get('/dataflow')).body as { logs: number }).logs).to.equal(3);
    const bad = await post('/loki/api/v1/push', JSON.stringify({ streams: [{ stream: {}, values: [['yesterday', 'x']] }] }));
    expect(bad.status).to.equal(400);
    expect(((await bad.json()) as { field: string }).field).to.equal('streams[0].values[0][0]');
  });

  it('bulk: index and create actions, per-item status, a bad document fails only its item', async () => {
    const lines = [
      JSON.stringify({ index: { _index: 'logs-app' } }),
      JSON.stringify({ '@timestamp': new Date().toISOString(), message: 'timeout calling db', log: { level: 'warn' }, kubernetes: { namespace: 'bulk', deployment: { name: 'api' }, pod: { name: 'api-7f' } } }),
      JSON.stringify({ create: {} }),
      JSON.stringify('a JSON string, not a document object'),
      JSON.stringify({ create: {} }),
      JSON.stringify({ '@timestamp': new Date().toISOString(), 'service.name': 'worker', message: 'done', 'kubernetes.namespace': 'bulk' }),
    ].join('\n');
    const r = await post('/my-index/_bulk', `${lines}\n`, 'application/x-ndjson');
    expect(r.status).to.equal(200);
    const body = (await r.json()) as { took: number; errors: boolean; items: Record<string, { status: number; _index: string }>[] };
    expect(body.errors).to.equal(true);
    expect(body.items.map((i) => Object.values(i)[0]!.status)).to.deep.equal([201, 400, 201]);
    expect(body.items[0]!['index']!._index).to.equal('logs-app');
    expect(body.items[1]!['create']!._index).to.equal('my-index');
    await eventually(async () => ((await svc.get('/rupture/bulk/Deployment/api')).status === 200 ? true : undefined));
    await eventually(async () => ((await svc.get('/rupture/bulk/host/worker')).status === 200 ? true : undefined));
    expect((await post('/_bulk', '{"delete":{}}\n')).status).to.equal(400);
  });

  it('random bodies never get a 5xx from either route (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/loki/api/v1/push', '/_bulk'), fc.oneof(fc.jsonValue().map((v) => JSON.stringify(v)), fc.string(), fc.array(fc.jsonValue().map((v) => JSON.stringify(v)), { maxLength: 6 }).map((l) => l.join('\n'))), async (path, body) => {
        const r = await post(path, body);
        expect(r.status, `${path} ${body}`).to.be.lessThan(500);
        await r.arrayBuffer();
      }),
      { numRuns: 300 },
    );
  });
});
