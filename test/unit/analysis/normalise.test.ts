import { expect } from 'chai';
import { resolveMetricName, sanitiseMetricName, seriesNameOf } from '../../../api-server/src/analysis/normalise/metric-names.js';
import { fractionOrPercent, loadPerCore, RAW_MAX, requestRateNormalised, sampleValue } from '../../../api-server/src/analysis/normalise/unit-rules.js';

const norm = (name: string, v: number): number => {
  const r = resolveMetricName(name);
  return sampleValue(r.unit, v, r.scale);
};

describe('analysis normalisation (analytics.md §1.1)', () => {
  it('sanitises . - / and space to _', () => {
    expect(sanitiseMetricName('process.cpu.utilization')).to.equal('process_cpu_utilization');
    expect(sanitiseMetricName('a-b/c d')).to.equal('a_b_c_d');
  });

  it('resolves aliases after sanitising, case-sensitively, with alias rank', () => {
    expect(resolveMetricName('process.cpu.utilization')).to.include({ kind: 'canonical', input: 'cpu', rank: 2 });
    expect(resolveMetricName('process_cpu_utilization')).to.include({ input: 'cpu', rank: 2 });
    expect(resolveMetricName('k8s.pod.cpu.node.utilization')).to.include({ input: 'cpu', rank: 6 });
    expect(resolveMetricName('k8s.pod.memory.working_set.utilization')).to.include({ input: 'memory' });
    expect(resolveMetricName('http.server.error.rate')).to.include({ input: 'error_rate' });
    expect(resolveMetricName('rps')).to.include({ input: 'request_rate' });
    expect(resolveMetricName('process.uptime')).to.include({ input: 'uptime' });
    expect(resolveMetricName('k8s.container.restarts')).to.include({ input: 'restarts' });
    expect(resolveMetricName('process.open_file_descriptors')).to.include({ input: 'open_fds' });
    expect(resolveMetricName('system.cpu.logical.count')).to.include({ kind: 'cores' });
    expect(resolveMetricName('CPU_PERCENT')).to.include({ kind: 'general', input: 'CPU_PERCENT' });
    expect(seriesNameOf('process.memory.utilization')).to.equal('memory');
  });

  it('FP: v ≤ 1 is a fraction, v > 1 a percentage, then clamp', () => {
    expect(norm('cpu_percent', 0.5)).to.equal(0.5);
    expect(norm('cpu_percent', 50)).to.equal(0.5);
    expect(norm('cpu_percent', 1)).to.equal(1);
    expect(norm('error_rate', 150)).to.equal(1);
    expect(norm('timeout_rate', -3)).to.equal(0);
    expect(fractionOrPercent(22)).to.be.closeTo(0.22, 1e-12);
  });

  it('DR latency: *_ms and latency_p* are ms, OTel duration ≤ 10 is seconds; L = clamp(ms/600)', () => {
    expect(norm('latency_p99', 250)).to.be.closeTo(250 / 600, 1e-12);
    expect(norm('latency_ms', 120)).to.be.closeTo(0.2, 1e-12);
    expect(norm('checkout.latency_ms', 60)).to.be.closeTo(0.1, 1e-12);
    expect(norm('http.server.request.duration', 0.3)).to.be.closeTo(0.5, 1e-12);
    expect(norm('http.server.request.duration', 1240)).to.equal(1);
    expect(norm('http.server.request.duration', 300)).to.be.closeTo(0.5, 1e-12);
  });

  it('DR gc pause: G = clamp(ms/100)', () => {
    expect(norm('runtime.gc.pause.duration', 0.05)).to.be.closeTo(0.5, 1e-12);
    expect(norm('gc_pause_ms', 20)).to.be.closeTo(0.2, 1e-12);
  });

  it('raw inputs are kept (floored at 0, capped at RAW_MAX); load per core; Q_n', () => {
    expect(norm('request_rate', 250)).to.equal(250);
    expect(norm('uptime_seconds', -5)).to.equal(0);
    expect(norm('uptime_seconds', 1e300)).to.equal(RAW_MAX);
    expect(requestRateNormalised(250)).to.equal(1);
    expect(requestRateNormalised(50)).to.equal(0.5);
    expect(loadPerCore(3, 4)).to.equal(0.75);
    expect(loadPerCore(0.5, 0)).to.equal(0.5);
    expect(loadPerCore(8, 1)).to.equal(1);
  });

  it('general inputs: fixed scales, otherwise FP', () => {
    expect(norm('disk_percent', 45)).to.be.closeTo(0.45, 1e-12);
    expect(norm('net_rx_bps', 5e8)).to.be.closeTo(0.5, 1e-12);
    expect(norm('memory_used_mb', 32_768)).to.be.closeTo(0.5, 1e-12);
    expect(norm('disk_used_gb', 1024)).to.be.closeTo(0.1, 1e-12);
    expect(norm('processes', 250)).to.be.closeTo(0.25, 1e-12);
    expect(norm('queue.depth', 0.3)).to.be.closeTo(0.3, 1e-12);
    expect(norm('queue.depth', 30)).to.be.closeTo(0.3, 1e-12);
    expect(resolveMetricName('queue.depth').input).to.equal('queue_depth');
  });
});
