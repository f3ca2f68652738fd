import { expect } from 'chai';
import { freePort } from '../../support/free-port.js';
import { startReceiver } from '../../support/http-receiver.js';
import type { RunningCollector } from '../../support/otel-collector.js';
import { ensureOtelcol, startCollector } from '../../support/otel-collector.js';
import type { TestService } from '../../support/service.js';
import { eventually, startTestService } from '../../support/service.js';

const KEY = 'collector-key';
const NAMESPACE = 'otelcol';
/** one pipeline per route, each naming its own workload (resource processor) */
const ROUTES = ['otlphttp-protobuf', 'otlphttp-json', 'otlp-grpc', 'remote-write'] as const;

interface ListedWorkload {
  workload: { namespace: string; kind: string; name: string };
}

/**
 * A real OpenTelemetry Collector (hack/build-otelcol.sh) scrapes its own process (hostmetrics,
 * process scraper) and exports it through every route a Collector user would pick: `otlphttp`
 * with its defaults (protobuf, gzip) and with `encoding: json` to the standard OTLP/HTTP listener,
 * `otlp` (gRPC) to the gRPC port, `prometheusremotewrite` to /api/v2/write.
 */
describe('a real OpenTelemetry Collector sending to every route', function () {
  this.timeout(40 * 60_000); // the first run on a machine builds otelcol
  let svc: TestService;
  let collector: RunningCollector;
  let capture: Awaited<ReturnType<typeof startReceiver>>;
  let otlpHttp: string;

  before(async function () {
    const binary = await ensureOtelcol();
    this.timeout(120_000);
    const port = await freePort();
    svc = await startTestService({ key: KEY, args: ['--otlp-http-port', String(port)] });
    otlpHttp = `http://127.0.0.1:${port}`;
    capture = await startReceiver(() => ({ status: 200, body: {} }));
    const auth = { Authorization: `Bearer ${KEY}` };
    const resource = (name: string) => ({
      attributes: [
        { key: 'k8s.namespace.name', value: NAMESPACE, action: 'upsert' },
        { key: 'k8s.deployment.name', value: name, action: 'upsert' },
      ],
    });
    const pipeline = (route: string, exporter: string) => ({ receivers: ['hostmetrics'], processors: [`resource/${route}`, 'batch'], exporters: [exporter] });
    collector = await startCollector(binary, {
      receivers: {
        hostmetrics: {
          collection_interval: '1s',
          scrapers: {
            process: {
              include: { names: ['otelcol'], match_type: 'strict' },
              mute_process_exe_error: true,
              mute_process_io_error: true,
              mute_process_user_error: true,
              mute_process_cgroup_error: true,
            },
          },
        },
      },
      processors: {
        batch: { timeout: '1s' },
        ...Object.fromEntries(ROUTES.map((route) => [`resource/${route}`, resource(route)])),
        'resource/capture': resource('capture'),
      },
      exporters: {
        'otlphttp/protobuf': { endpoint: otlpHttp, headers: auth },
        'otlphttp/json': { endpoint: otlpHttp, encoding: 'json', headers: auth },
        'otlp/grpc': { endpoint: `127.0.0.1:${svc.server.ports.grpc}`, tls: { insecure: true }, headers: { authorization: `Bearer ${KEY}` } },
        prometheusremotewrite: { endpoint: `${svc.api}/write`, headers: auth, resource_to_telemetry_conversion: { enabled: true } },
        // what the Collector's JSON looks like on the wire, to send it to the contract's port below
        'otlphttp/capture': { endpoint: capture.url, encoding: 'json', compression: 'none' },
      },
      service: {
        telemetry: { metrics: { level: 'none' } },
        pipelines: {
          'metrics/otlphttp-protobuf': pipeline('otlphttp-protobuf', 'otlphttp/protobuf'),
          'metrics/otlphttp-json': pipeline('otlphttp-json', 'otlphttp/json'),
          'metrics/otlp-grpc': pipeline('otlp-grpc', 'otlp/grpc'),
          'metrics/remote-write': pipeline('remote-write', 'prometheusremotewrite'),
          'metrics/capture': pipeline('capture', 'otlphttp/capture'),
        },
      },
    });
  });

  after(async () => {
    await collector?.stop();
    await capture?.close();
    await svc?.stop();
    await svc?.remove();
  });

  it("every route's workload appears in /api/v2/ruptures", async () => {
    const missing = () => ROUTES.filter((route) => !listed.some((w) => w.workload.namespace === NAMESPACE && w.workload.kind === 'Deployment' && w.workload.name === route));
    let listed: ListedWorkload[] = [];
    try {
      await eventually(async () => {
        listed = ((await svc.get('/ruptures')).body as { ruptures: ListedWorkload[] }).ruptures;
        return missing().length === 0 ? true : undefined;
      }, 90_000, 'a workload per route');
    } catch (error) {
      throw new Error(`${(error as Error).message}; missing: ${missing().join(', ')}; collector log:\n${collector.log().slice(-4000)}`);
    }
    // the collector's exports were all answered with success
    expect(collector.log()).not.to.match(/Exporting failed|permanent error/i);
  });

  it("the Collector's JSON is refused on the contract's OTLP port with a 400 naming the field and the rule, and taken on 4318", async () => {
    const sent = await eventually(async () => capture.requests.find((r) => r.url === '/v1/metrics'), 60_000, "the collector's JSON export");
    const body = JSON.parse(sent.body) as { resourceMetrics: { resource: { attributes: { key: string; value: { intValue?: unknown } }[] } }[] };
    // the protobuf JSON mapping writes 64-bit integers as strings: process.pid is one
    const pid = body.resourceMetrics[0]!.resource.attributes.find((a) => a.key === 'process.pid');
    expect(pid?.value.intValue).to.be.a('string');

    const post = (base: string) => fetch(`${base}/v1/metrics`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` }, body: sent.body });
    const contract = await post(svc.otlp);
    expect(contract.status).to.equal(400);
    const refusal = (await contract.json()) as { field?: string; error?: string };
    expect(refusal.field).to.match(/^resourceMetrics\[0\]\.resource\.attributes\[\d+\]\.value\.intValue$/);
    // the rule: a quoted integer is invalid on this port
    expect(refusal.error).to.match(/intValue must be a JSON number.*not a quoted string/);

    const standard = await post(otlpHttp);
    expect(standard.status).to.equal(200);
    expect(await standard.json()).to.deep.equal({});
  });
});
