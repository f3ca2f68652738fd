import { expect } from 'chai';
import { request } from 'node:http';
import { useTestService } from '../../support/service.js';
import { freePort } from '../../support/free-port.js';

interface Answer {
  status: number;
  body: string;
}

/**
 * POSTs `body` as Node's http client does when a caller writes the whole body before reading:
 * the answer is read only once the body is written. A reset connection rejects with its error code.
 */
function postWholeBodyFirst(url: string, body: Buffer, headers: Record<string, string>, chunked: boolean): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...headers, ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(body.length) }) } });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    // 1 MiB pieces a few milliseconds apart, as an exporter streaming its batch does: the server has
    // decided long before the last piece, and the client only reads once everything is written
    const piece = 1024 * 1024;
    void (async () => {
      for (let offset = 0; offset < body.length; offset += piece) {
        if (req.destroyed) return;
        req.write(body.subarray(offset, offset + piece));
        await new Promise((r) => setTimeout(r, 5));
      }
      req.end();
    })();
  });
}

describe('ingest conformance over real sockets: 413 readable, quoted ints refused, /_bulk not-JSON refused', function () {
  this.timeout(120_000);
  let otlpHttp: string;
  const svc = useTestService(async () => {
    const port = await freePort();
    otlpHttp = `http://127.0.0.1:${port}`;
    return { key: 'k', args: ['--otlp-http-port', String(port)] };
  });

  it('a body over the 16 MiB limit: a client that writes its whole body first reads the 413 (declared length and chunked), on every ingest port', async () => {
    const big = Buffer.alloc(17 * 1024 * 1024, 0x20);
    const targets: [string, Record<string, string>][] = [
      [`${svc.api}/write`, { 'content-type': 'application/x-protobuf', 'content-encoding': 'snappy' }],
      [`${svc.otlp}/v1/metrics`, { 'content-type': 'application/json' }],
      [`${svc.otlp}/_bulk`, { 'content-type': 'application/x-ndjson' }],
      [`${otlpHttp}/v1/metrics`, { 'content-type': 'application/x-protobuf' }],
    ];
    for (const [url, headers] of targets) {
      for (const chunked of [false, true]) {
        const answer = await postWholeBodyFirst(url, big, { ...headers, authorization: 'Bearer k' }, chunked);
        expect(answer.status, `${url} chunked=${chunked}`).to.equal(413);
        expect(answer.body).to.contain('larger than the limit of 16777216 bytes');
      }
    }
  });

  it('a quoted intValue in a data point attribute is refused on the contract port, naming the field and the rule', async () => {
    const doc = {
      resourceMetrics: [
        {
          resource: { attributes: [{ key: 'k8s.namespace.name', value: { stringValue: 'conf' } }, { key: 'k8s.deployment.name', value: { stringValue: 'api' } }] },
          scopeMetrics: [{ metrics: [{ name: 'cpu_percent', gauge: { dataPoints: [{ timeUnixNano: `${Date.now()}000000`, asDouble: 0.5, attributes: [{ key: 'cpu', value: { intValue: '3' } }] }] } }] }],
        },
      ],
    };
    const r = await svc.post('/v1/metrics', doc, svc.otlp);
    expect(r.status).to.equal(400);
    const body = r.body as { field: string; error: string };
    expect(body.field).to.equal('resourceMetrics[0].scopeMetrics[0].metrics[0].gauge.dataPoints[0].attributes[0].value.intValue');
    expect(body.error).to.contain('must be a JSON number (an integer, not a quoted string)');
    // the same point with the integer unquoted is accepted
    const fixed = JSON.parse(JSON.stringify(doc).replace('"intValue":"3"', '"intValue":3')) as unknown;
    expect((await svc.post('/v1/metrics', fixed, svc.otlp)).status).to.equal(200);
  });

  it('/_bulk answers 400 naming the line when a line is not JSON (truncated object, trailing comma, NaN)', async () => {
    const action = JSON.stringify({ index: {} });
    const doc = JSON.stringify({ message: 'ok', 'kubernetes.namespace': 'conf' });
    const cases: [string, string][] = [
      [`${action}\n{"message":"cut`, 'line 2'],
      [`${action}\n{"message":"x",}`, 'line 2'],
      [`${action}\nNaN`, 'line 2'],
      [`{"index":{}},\n${doc}`, 'line 1'],
      [`${action}\n${doc}\n{"create":`, 'line 3'],
    ];
    for (const [body, line] of cases) {
      const r = await svc.post('/_bulk', body, svc.otlp);
      expect(r.status, body).to.equal(400);
      const answer = r.body as { field: string; error: string };
      expect(answer.field, body).to.equal(line);
      expect(answer.error).to.contain('is not JSON');
    }
  });
});
