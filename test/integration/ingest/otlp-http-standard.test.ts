import { expect } from 'chai';
import { gzipSync } from 'node:zlib';
import { decodeExportResponse, decodeStatus, encodeOtlpRequest } from '../../../api-server/src/ingest/otlp-proto/otlp-proto-messages.js';
import { freePort } from '../../support/free-port.js';
import { eventually, startTestService, useTestService } from '../../support/service.js';

const nanos = (ms: number): string => `${BigInt(Math.round(ms)) * 1_000_000n}`;

/** What the OpenTelemetry Collector's otlphttp exporter writes with `encoding: json`: 64-bit integers quoted. */
function collectorStyleJson(namespace: string, deployment: string, timeMs: number) {
  return {
    resourceMetrics: [
      {
        resource: {
          attributes: [
            { key: 'k8s.namespace.name', value: { stringValue: namespace } },
            { key: 'k8s.deployment.name', value: { stringValue: deployment } },
            { key: 'process.pid', value: { intValue: '23640' } },
          ],
        },
        scopeMetrics: [
          {
            metrics: [
              { name: 'process.memory.usage', unit: 'By', sum: { dataPoints: [{ timeUnixNano: nanos(timeMs), asInt: '52281344', attributes: [{ key: 'state', value: { intValue: '3' } }] }], aggregationTemporality: 2 } },
              { name: 'system.cpu.load_average.1m', gauge: { dataPoints: [{ timeUnixNano: nanos(timeMs), asDouble: 0.5 }] } },
            ],
          },
        ],
      },
    ],
  };
}

/** The same request with the proto file's field names, as the protobuf JSON mapping also allows. */
function withOriginalFieldNames(doc: string): string {
  return doc.replace(/"(resourceMetrics|scopeMetrics|dataPoints|timeUnixNano|asInt|asDouble|intValue|stringValue|aggregationTemporality)"/g, (_, name: string) => `"${name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}"`);
}

describe('standard OTLP/HTTP listener (SVC_OTLP_HTTP_PORT): protobuf and JSON, gzip, OTLP answers', function () {
  this.timeout(60_000);
  let port: number;
  let base: string;
  const svc = useTestService(async () => {
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    return { key: 'k', args: ['--otlp-http-port', String(port)] };
  });
  before(() => {
    expect(svc.server.ports.otlpHttp).to.equal(port);
  });

  const post = (path: string, body: Buffer | string, headers: Record<string, string>) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { authorization: 'Bearer k', ...headers }, body });

  it('protobuf + gzip metrics, logs and traces: 200, an empty Export*ServiceResponse, every workload appears', async () => {
    const now = Date.now();
    const resource = (deployment: string) => ({ attributes: [{ key: 'k8s.namespace.name', value: { stringValue: 'std' } }, { key: 'k8s.deployment.name', value: { stringValue: deployment } }] });
    const metrics = encodeOtlpRequest('metrics', {
      resourceMetrics: [{ resource: resource('pb-metrics'), scopeMetrics: [{ metrics: [{ name: 'cpu_percent', gauge: { dataPoints: [{ timeUnixNano: nanos(now), asDouble: 0.25 }] } }] }] }],
    });
    const logs = encodeOtlpRequest('logs', {
      resourceLogs: [{ resource: resource('pb-logs'), scopeLogs: [{ logRecords: [{ timeUnixNano: nanos(now), severityNumber: 17, severityText: 'ERROR', body: { stringValue: 'boom' } }] }] }],
    });
    const traces = encodeOtlpRequest('traces', {
      resourceSpans: [
        {
          resource: resource('pb-traces'),
          scopeSpans: [{ spans: [{ traceId: Buffer.alloc(16, 0xab), spanId: Buffer.alloc(8, 0xcd), name: 'GET /', kind: 2, startTimeUnixNano: nanos(now), endTimeUnixNano: nanos(now + 12), status: { code: 1 } }] }],
        },
      ],
    });
    for (const [signal, bytes] of [['metrics', metrics], ['logs', logs], ['traces', traces]] as const) {
      const r = await post(`/v1/${signal}`, gzipSync(bytes), { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' });
      expect(r.status, signal).to.equal(200);
      expect(r.headers.get('content-type')).to.equal('application/x-protobuf');
      expect(decodeExportResponse(signal, Buffer.from(await r.arrayBuffer()))).to.deep.equal({});
    }
    for (const name of ['pb-metrics', 'pb-logs', 'pb-traces']) {
      await eventually(async () => ((await svc.get(`/rupture/std/Deployment/${name}`)).status === 200 ? true : undefined), 10_000, name);
    }
  });

  it('the protobuf JSON mapping (quoted 64-bit ints, original field names) is accepted on 4318 and refused on the contract port naming the field and the rule', async () => {
    const doc = JSON.stringify(collectorStyleJson('std', 'json-mapped', Date.now()));
    const ok = await post('/v1/metrics', doc, { 'content-type': 'application/json' });
    expect(ok.status).to.equal(200);
    expect(await ok.json()).to.deep.equal({});
    const original = withOriginalFieldNames(JSON.stringify(collectorStyleJson('std', 'json-original', Date.now())));
    expect(original).to.contain('"resource_metrics"').and.contain('"int_value":"23640"');
    expect((await post('/v1/metrics', original, { 'content-type': 'application/json' })).status).to.equal(200);
    for (const name of ['json-mapped', 'json-original']) {
      await eventually(async () => ((await svc.get(`/rupture/std/Deployment/${name}`)).status === 200 ? true : undefined), 10_000, name);
    }

    const strict = await fetch(`${svc.otlp}/v1/metrics`, { method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: doc });
    expect(strict.status).to.equal(400);
    const refusal = (await strict.json()) as { field: string; error: string };
    expect(refusal.field).to.equal('resourceMetrics[0].resource.attributes[2].value.intValue');
    expect(refusal.error).to.contain('must be a JSON number (an integer, not a quoted string)');
  });

  it('a point whose time was sent in milliseconds is reported in partial_success (JSON and protobuf), not silently dropped', async () => {
    const now = Date.now();
    const doc = {
      resourceMetrics: [
        {
          resource: { attributes: [{ key: 'k8s.namespace.name', value: { stringValue: 'std' } }, { key: 'k8s.deployment.name', value: { stringValue: 'ms-times' } }] },
          scopeMetrics: [{ metrics: [{ name: 'cpu_percent', gauge: { dataPoints: [{ timeUnixNano: String(now), asDouble: 0.1 }, { timeUnixNano: nanos(now), asDouble: 0.2 }] } }] }],
        },
      ],
    };
    const r = await post('/v1/metrics', JSON.stringify(doc), { 'content-type': 'application/json' });
    expect(r.status).to.equal(200);
    const body = (await r.json()) as { partialSuccess: { rejectedDataPoints: string; errorMessage: string } };
    expect(body.partialSuccess.rejectedDataPoints).to.equal('1');
    expect(body.partialSuccess.errorMessage).to.contain('milliseconds');

    const nan = JSON.stringify(doc).replace(`"timeUnixNano":"${now}","asDouble":0.1`, `"timeUnixNano":"${nanos(now)}","asDouble":"NaN"`);
    const rn = await post('/v1/metrics', nan, { 'content-type': 'application/json' });
    expect(rn.status).to.equal(200);
    const nanAnswer = (await rn.json()) as { partialSuccess: { rejectedDataPoints: string; errorMessage: string } };
    expect(nanAnswer.partialSuccess.rejectedDataPoints).to.equal('1');
    expect(nanAnswer.partialSuccess.errorMessage).to.contain('not a finite number');

    const pb = encodeOtlpRequest('metrics', {
      resourceMetrics: [
        {
          resource: { attributes: [{ key: 'k8s.node.name', value: { stringValue: 'node-1' } }] },
          scopeMetrics: [{ metrics: [{ name: 'load', gauge: { dataPoints: [{ timeUnixNano: nanos(now), asDouble: 1 }, { timeUnixNano: String(now), asDouble: 1 }] } }] }],
        },
      ],
    });
    const rp = await post('/v1/metrics', pb, { 'content-type': 'application/x-protobuf' });
    expect(rp.status).to.equal(200);
    const answer = decodeExportResponse('metrics', Buffer.from(await rp.arrayBuffer())) as { partialSuccess: { rejectedDataPoints: number; errorMessage: string } };
    // both points name no workload (node-only resource): the pipeline never sees them
    expect(answer.partialSuccess.rejectedDataPoints).to.equal(2);
    expect(answer.partialSuccess.errorMessage).to.contain('names no workload');
  });

  it('bad data is a 400 with a google.rpc.Status body in the request encoding; random bytes never a 5xx', async () => {
    const json = await post('/v1/traces', JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: 'xyz', spanId: '00', startTimeUnixNano: '1', endTimeUnixNano: '2' }] }] }] }), {
      'content-type': 'application/json',
    });
    expect(json.status).to.equal(400);
    expect(await json.json()).to.deep.equal({ code: 3, message: 'resourceSpans[0].scopeSpans[0].spans[0].traceId must be 32 hex characters', details: [] });

    const pb = await post('/v1/metrics', Buffer.from([0x0a, 0xff, 0xff, 0xff]), { 'content-type': 'application/x-protobuf' });
    expect(pb.status).to.equal(400);
    const status = decodeStatus(Buffer.from(await pb.arrayBuffer()));
    expect(status.code).to.equal(3);
    expect(status.message).to.contain('not a protobuf ExportMetricsServiceRequest');

    for (let i = 0; i < 30; i += 1) {
      const bytes = Buffer.from(Array.from({ length: 1 + (i * 37) % 200 }, (_, j) => (i * 131 + j * 17) % 256));
      const r = await post('/v1/logs', bytes, { 'content-type': i % 2 === 0 ? 'application/x-protobuf' : 'application/json' });
      expect(r.status, `random body ${i}`).to.be.oneOf([200, 400]);
    }
  });

  it('413 when the body inflates beyond the limit, 415 for other media, 401 without the key, 404 elsewhere', async () => {
    const bomb = gzipSync(Buffer.alloc(17 * 1024 * 1024, 0x20));
    const big = await post('/v1/metrics', bomb, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expect(big.status).to.equal(413);
    expect(((await big.json()) as { message: string }).message).to.contain('after gzip decompression');
    expect((await post('/v1/metrics', 'x', { 'content-type': 'text/plain' })).status).to.equal(415);
    expect((await post('/v1/metrics', 'x', { 'content-type': 'application/json', 'content-encoding': 'br' })).status).to.equal(415);
    const noKey = await fetch(`${base}/v1/metrics`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(noKey.status).to.equal(401);
    expect(((await noKey.json()) as { code: number }).code).to.equal(16);
    expect((await post('/v1/other', '{}', { 'content-type': 'application/json' })).status).to.equal(404);
    expect((await post('/v1/metrics', 'not gzip', { 'content-type': 'application/json', 'content-encoding': 'gzip' })).status).to.equal(400);
  });
});

describe('standard OTLP/HTTP listener: the token bucket answers 429 with Retry-After; port 0 disables the listener', function () {
  this.timeout(60_000);
  it('shares the ingest token bucket', async () => {
    const port = await freePort();
    const svc = await startTestService({ args: ['--otlp-http-port', String(port), '--ingest-rps', '1'] });
    try {
      const send = () => fetch(`http://127.0.0.1:${port}/v1/logs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"resourceLogs":[]}' });
      const statuses = [(await send()).status, (await send()).status];
      expect(statuses[0]).to.equal(200);
      const limited = await send();
      expect(limited.status).to.equal(429);
      expect(limited.headers.get('retry-after')).to.equal('1');
      expect(((await limited.json()) as { code: number }).code).to.equal(8);
    } finally {
      await svc.stop();
      await svc.remove();
    }
  });

  it('is not started with --otlp-http-port 0', async () => {
    const svc = await startTestService();
    try {
      expect(svc.server.ports.otlpHttp).to.equal(0);
    } finally {
      await svc.stop();
      await svc.remove();
    }
  });
});
