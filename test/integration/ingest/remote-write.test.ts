import { expect } from 'chai';
import fc from 'fast-check';
import { pushTimeseries } from 'prometheus-remote-write';
import { compressSync } from 'snappy';
import { eventually, useTestService } from '../../support/service.js';

describe('Prometheus remote-write on both ports (bytes from an independent encoder)', function () {
  this.timeout(60_000);
  const svc = useTestService({ key: 'k' });

  type MinimalFetch = NonNullable<NonNullable<Parameters<typeof pushTimeseries>[1]>['fetch']>;
  const fetchWithKey: MinimalFetch = (url, init) =>
    fetch(url, { method: init?.method ?? 'GET', headers: { ...init?.headers, authorization: 'Bearer k' }, body: init?.body === undefined ? undefined : new Uint8Array(init.body) });

  it('protobuf + snappy from the prometheus-remote-write client lands on the labelled workload, on the REST and the OTLP port', async () => {
    const now = Date.now();
    const series = (deployment: string) => [
      { labels: { __name__: 'process_open_fds', namespace: 'prom', deployment, pod: `${deployment}-1`, job: 'kubelet' }, samples: [{ value: 42, timestamp: now - 30_000 }, { value: 43, timestamp: now - 15_000 }] },
      { labels: { __name__: 'container_cpu_usage_seconds_total', namespace: 'prom', deployment, pod: `${deployment}-1`, job: 'kubelet' }, samples: [{ value: 100, timestamp: now - 30_000 }, { value: 106, timestamp: now - 15_000 }] },
    ];
    for (const [base, deployment] of [[svc.api, 'rest'], [`${svc.otlp}/api/v2`, 'otlp']] as const) {
      const result = await pushTimeseries(series(deployment), { url: `${base}/write`, fetch: fetchWithKey });
      expect(result.status, result.errorMessage).to.equal(204);
    }
    for (const name of ['rest', 'otlp']) {
      await eventually(async () => ((await svc.get(`/rupture/prom/Deployment/${name}`)).status === 200 ? true : undefined), 10_000, `prom/Deployment/${name}`);
    }
    const flow = (await svc.get('/dataflow')).body as { metrics: number };
    // per workload: 2 open-fds gauges + 1 cpu rate (the first counter sample only primes the rate)
    expect(flow.metrics).to.equal(6);
  });

  it('the JSON body form: host is the workload key, no host merges into default/host/unknown', async () => {
    const now = Date.now();
    const post = (body: unknown) =>
      fetch(`${svc.api}/write`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer k' }, body: JSON.stringify(body) });
    expect(
      (await post({ timeseries: [{ Labels: [{ Name: '__name__', Value: 'cpu_percent' }, { Name: 'host', Value: 'json/Deployment/api' }], Samples: [{ Value: 0.4, Timestamp: now }] }] })).status,
    ).to.equal(204);
    expect((await post({ timeseries: [{ Labels: [{ Name: '__name__', Value: 'cpu_percent' }, { Name: 'namespace', Value: 'x' }], Samples: [{ Value: 0.4, Timestamp: now }] }] })).status).to.equal(204);
    await eventually(async () => ((await svc.get('/rupture/json/Deployment/api')).status === 200 ? true : undefined));
    await eventually(async () => ((await svc.get('/rupture/unknown')).status === 200 ? true : undefined));
    const bad = await post({ timeseries: [{ Labels: [], Samples: [{ Value: 'x', Timestamp: now }] }] });
    expect(bad.status).to.equal(400);
    expect(((await bad.json()) as { field: string }).field).to.equal('timeseries[0].Samples[0].Value');
  });

  it('refuses other media types (415), corrupt snappy and a decompression bomb (400), never a 5xx for random bytes', async () => {
    const post = (body: Buffer | string, type = 'application/x-protobuf', encoding?: string) =>
      fetch(`${svc.api}/write`, { method: 'POST', headers: { 'content-type': type, authorization: 'Bearer k', ...(encoding === undefined ? {} : { 'content-encoding': encoding }) }, body });
    expect((await post('x', 'text/plain')).status).to.equal(415);
    expect((await post('x', 'application/x-protobuf', 'gzip')).status).to.equal(415);
    expect((await post(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f, 0x00]))).status).to.equal(400); // claims 4 GiB
    expect((await post(compressSync(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f])))).status).to.equal(400); // truncated field
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 512 }), fc.boolean(), async (bytes, wrap) => {
        const body = wrap ? compressSync(Buffer.from(bytes)) : Buffer.from(bytes);
        const r = await post(body);
        expect(r.status).to.be.lessThan(500);
        await r.arrayBuffer();
      }),
      { numRuns: 200 },
    );
    expect((await fetch(`${svc.api}/health`)).status).to.equal(200);
  });
});
