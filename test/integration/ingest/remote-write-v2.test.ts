import { expect } from 'chai';
import { compressSync } from 'snappy';
import { doubleField, lengthDelimited, packedField, varintField } from '../../support/protobuf-wire.js';
import { eventually, useTestService } from '../../support/service.js';

const V2 = 'application/x-protobuf;proto=io.prometheus.write.v2.Request';
/** Prometheus's stale marker, a NaN with this exact bit pattern */
const STALE_NAN = Buffer.from('0200000000007ff0', 'hex').readDoubleLE(0);

interface V2Series {
  labels: [string, string][];
  samples: { value: number; timestamp: number; start?: number }[];
  histograms?: number;
  exemplars?: number;
}

/** io.prometheus.write.v2.Request, field by field: symbols = 4, timeseries = 5 (labels_refs 1, samples 2, histograms 3, exemplars 4). */
function encodeV2(series: V2Series[]): Buffer {
  const symbols = [''];
  const ref = (s: string): number => {
    const i = symbols.indexOf(s);
    if (i >= 0) return i;
    symbols.push(s);
    return symbols.length - 1;
  };
  const encoded = series.map((s) => {
    const refs = [...s.labels].sort(([a], [b]) => (a < b ? -1 : 1)).flatMap(([n, v]) => [ref(n), ref(v)]);
    const samples = s.samples.map((x) => lengthDelimited(2, Buffer.concat([doubleField(1, x.value), varintField(2, x.timestamp), ...(x.start === undefined ? [] : [varintField(3, x.start)])])));
    const histograms = Array.from({ length: s.histograms ?? 0 }, () => lengthDelimited(3, varintField(15, s.samples[0]?.timestamp ?? 1)));
    const exemplars = Array.from({ length: s.exemplars ?? 0 }, () => lengthDelimited(4, doubleField(2, 1.5)));
    return lengthDelimited(5, Buffer.concat([packedField(1, refs), ...samples, ...histograms, ...exemplars]));
  });
  return Buffer.concat([...symbols.map((s) => lengthDelimited(4, s)), ...encoded]);
}

describe('Prometheus Remote-Write 2.0 on /api/v2/write (hand-encoded requests)', function () {
  this.timeout(60_000);
  const svc = useTestService({ key: 'k' });

  const post = (body: Buffer, contentType: string, base?: string) =>
    fetch(`${base ?? svc.api}/write`, { method: 'POST', headers: { 'content-type': contentType, 'content-encoding': 'snappy', authorization: 'Bearer k', 'x-prometheus-remote-write-version': '2.0.0' }, body: compressSync(body) });

  const written = (r: Response) => [
    r.headers.get('x-prometheus-remote-write-samples-written'),
    r.headers.get('x-prometheus-remote-write-histograms-written'),
    r.headers.get('x-prometheus-remote-write-exemplars-written'),
  ];

  it('a hand-encoded 2.0 request is stored and answered 204 with the written headers (OTel-converted labels resolve the workload)', async () => {
    const now = Date.now();
    const body = encodeV2([
      {
        labels: [['__name__', 'process_open_fds'], ['k8s_namespace_name', 'rw2'], ['k8s_deployment_name', 'api'], ['k8s_pod_name', 'api-1'], ['job', 'otel']],
        samples: [{ value: 41, timestamp: now - 30_000 }, { value: 42, timestamp: now - 15_000 }],
        exemplars: 1,
      },
      {
        labels: [['__name__', 'container_cpu_usage_seconds_total'], ['namespace', 'rw2'], ['statefulset', 'db']],
        samples: [{ value: 100, timestamp: now - 30_000, start: now - 3_600_000 }, { value: 106, timestamp: now - 15_000, start: now - 3_600_000 }],
      },
      // a native histogram series and a stale marker: accepted and counted, nothing to analyse
      { labels: [['__name__', 'http_request_duration_seconds'], ['namespace', 'rw2'], ['deployment', 'api']], samples: [], histograms: 2 },
      { labels: [['__name__', 'up'], ['instance', 'node:9100']], samples: [{ value: STALE_NAN, timestamp: now - 15_000 }] },
    ]);
    const r = await post(body, V2);
    expect(r.status, await r.text()).to.equal(204);
    expect(written(r)).to.deep.equal(['5', '2', '1']);
    await eventually(async () => ((await svc.get('/rupture/rw2/Deployment/api')).status === 200 ? true : undefined), 10_000, 'rw2/Deployment/api');
    await eventually(async () => ((await svc.get('/rupture/rw2/StatefulSet/db')).status === 200 ? true : undefined), 10_000, 'rw2/StatefulSet/db');
  });

  it('a 2.0 body is answered on the OTLP port too; 1.0 answers carry the written headers', async () => {
    const now = Date.now();
    const v2 = await post(encodeV2([{ labels: [['__name__', 'node_load1'], ['host_name', 'edge-7']], samples: [{ value: 0.7, timestamp: now }] }]), V2, `${svc.otlp}/api/v2`);
    expect(v2.status).to.equal(204);
    expect(written(v2)).to.deep.equal(['1', '0', '0']);
    await eventually(async () => ((await svc.get('/rupture/default/host/edge-7')).status === 200 ? true : undefined), 10_000, 'default/host/edge-7');

    // 1.0 WriteRequest: timeseries = 1 { labels = 1 {name 1, value 2}, samples = 2 {value 1, timestamp 2} }
    const label = (n: string, v: string) => lengthDelimited(1, Buffer.concat([lengthDelimited(1, n), lengthDelimited(2, v)]));
    const v1 = lengthDelimited(1, Buffer.concat([label('__name__', 'process_open_fds'), label('namespace', 'rw1'), label('deployment', 'api'), lengthDelimited(2, Buffer.concat([doubleField(1, 9), varintField(2, now)]))]));
    for (const type of ['application/x-protobuf', 'application/x-protobuf;proto=prometheus.WriteRequest']) {
      const r = await post(v1, type);
      expect(r.status, type).to.equal(204);
      expect(written(r), type).to.deep.equal(['1', '0', '0']);
    }
  });

  it('an unknown proto= is refused with 415 naming the accepted ones; nothing is stored', async () => {
    const body = encodeV2([{ labels: [['__name__', 'process_open_fds'], ['namespace', 'rw415'], ['deployment', 'api']], samples: [{ value: 1, timestamp: Date.now() }] }]);
    const r = await post(body, 'application/x-protobuf;proto=io.prometheus.write.v3.Request');
    expect(r.status).to.equal(415);
    const answer = (await r.json()) as { error: string };
    expect(answer.error).to.contain('proto=io.prometheus.write.v3.Request is not accepted').and.contain('io.prometheus.write.v2.Request');
    expect((await svc.get('/rupture/rw415/Deployment/api')).status).to.equal(404);
  });

  it('invalid samples (infinite value, impossible timestamps) get a 400 with the written headers; the valid ones are stored', async () => {
    const now = Date.now();
    const body = encodeV2([
      {
        labels: [['__name__', 'process_open_fds'], ['namespace', 'rwbad'], ['deployment', 'api']],
        samples: [{ value: Number.POSITIVE_INFINITY, timestamp: now - 20_000 }, { value: 3, timestamp: now - 15_000 }, { value: 4, timestamp: (now - 10_000) * 1_000_000 }, { value: 5, timestamp: 1 }],
      },
    ]);
    const r = await post(body, V2);
    expect(r.status).to.equal(400);
    expect(written(r)).to.deep.equal(['1', '0', '0']);
    const answer = (await r.json()) as { code: string; invalid_samples: number; error: string };
    expect(answer.code).to.equal('invalid_samples');
    expect(answer.invalid_samples).to.equal(3);
    expect(answer.error).to.contain('2 with a timestamp').and.contain('1 with an infinite value');
    await eventually(async () => ((await svc.get('/rupture/rwbad/Deployment/api')).status === 200 ? true : undefined), 10_000, 'rwbad/Deployment/api');
  });

  it('a label reference outside the symbols table is a 400 naming the field', async () => {
    const body = Buffer.concat([lengthDelimited(4, ''), lengthDelimited(4, '__name__'), lengthDelimited(5, packedField(1, [1, 7]))]);
    const r = await post(body, V2);
    expect(r.status).to.equal(400);
    const answer = (await r.json()) as { field: string; error: string };
    expect(answer.field).to.equal('timeseries[0].labels_refs');
    expect(answer.error).to.contain('outside the symbols table of 2');
  });
});
