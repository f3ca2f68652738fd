import { expect } from 'chai';
import { PrometheusNameMapper } from '../../../api-server/src/ingest/remote-write/prometheus-names.js';
import type { MetricRecord } from '../../../api-server/src/model/records.js';

describe('Prometheus names onto analysis inputs', () => {
  const w = 'shop/Deployment/cart';

  it('cpu seconds counter → fraction of a core per second, capped at 1; a reset primes again', () => {
    const m = new PrometheusNameMapper();
    const out: MetricRecord[] = [];
    m.map(w, 'p', 's1', 'container_cpu_usage_seconds_total', 100, 0, out);
    expect(out).to.have.length(0);
    m.map(w, 'p', 's1', 'container_cpu_usage_seconds_total', 106, 15_000, out); // 6 s over 15 s
    expect(out[0]).to.deep.include({ name: 'cpu_percent', value: 0.4 });
    m.map(w, 'p', 's1', 'container_cpu_usage_seconds_total', 136, 30_000, out); // 2 cores → capped
    expect(out[1]!.value).to.equal(1);
    m.map(w, 'p', 's1', 'container_cpu_usage_seconds_total', 5, 45_000, out); // reset
    expect(out).to.have.length(2);
  });

  it('working set over the pod limit → memory fraction; without a limit → memory_used_mb', () => {
    const m = new PrometheusNameMapper();
    const out: MetricRecord[] = [];
    m.map(w, 'p', 'a', 'container_memory_working_set_bytes', 512 * 1_048_576, 0, out);
    m.map(w, 'p', 'b', 'container_spec_memory_limit_bytes', 1024 * 1_048_576, 0, out);
    m.map(w, 'p', 'a', 'container_memory_working_set_bytes', 256 * 1_048_576, 15_000, out);
    expect(out.map((r) => [r.name, r.value])).to.deep.equal([
      ['memory_used_mb', 512],
      ['memory_percent', 0.25],
    ]);
  });

  it('request duration _sum/_count → mean latency in ms over the interval', () => {
    const m = new PrometheusNameMapper();
    const out: MetricRecord[] = [];
    m.map(w, undefined, 'x_sum|i', 'http_server_requests_seconds_sum', 10, 0, out);
    m.map(w, undefined, 'x_count|i', 'http_server_requests_seconds_count', 100, 0, out);
    m.map(w, undefined, 'x_sum|i', 'http_server_requests_seconds_sum', 13, 15_000, out); // +3 s
    m.map(w, undefined, 'x_count|i', 'http_server_requests_seconds_count', 120, 15_000, out); // +20 requests
    expect(out).to.have.length(1);
    expect(out[0]!.name).to.equal('latency_ms');
    expect(out[0]!.value).to.be.closeTo(150, 1e-9);
  });

  it('gauges are renamed, unknown names pass through as general inputs', () => {
    const m = new PrometheusNameMapper();
    const out: MetricRecord[] = [];
    m.map(w, undefined, 'f', 'process_open_fds', 42, 0, out);
    m.map(w, undefined, 'd', 'disk_percent', 55, 0, out);
    expect(out.map((r) => r.name)).to.deep.equal(['process.open_file_descriptors', 'disk_percent']);
  });
});
