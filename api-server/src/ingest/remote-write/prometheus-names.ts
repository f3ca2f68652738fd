/**
 * Real Prometheus metric names a cluster sends, mapped onto the analysis inputs
 * (docs/remote-write-mapping.md). Counters become per-second rates between consecutive samples
 * of the same series; the last sample per series is kept in a bounded map (oldest forgotten).
 */
import type { MetricRecord } from '../../model/records.js';

const MAX_SERIES = 50_000;

type Rule =
  | { kind: 'gauge'; to: string; scale?: number }
  | { kind: 'rate'; to: string; cap?: number }
  | { kind: 'memory_limit' }
  | { kind: 'memory_usage' }
  | { kind: 'latency_sum' }
  | { kind: 'latency_count' };

export const PROMETHEUS_RULES: Record<string, Rule> = {
  container_cpu_usage_seconds_total: { kind: 'rate', to: 'cpu_percent', cap: 1 },
  process_cpu_seconds_total: { kind: 'rate', to: 'cpu_percent', cap: 1 },
  container_memory_working_set_bytes: { kind: 'memory_usage' },
  container_spec_memory_limit_bytes: { kind: 'memory_limit' },
  http_server_requests_seconds_sum: { kind: 'latency_sum' },
  http_request_duration_seconds_sum: { kind: 'latency_sum' },
  http_server_requests_seconds_count: { kind: 'latency_count' },
  http_request_duration_seconds_count: { kind: 'latency_count' },
  http_requests_total: { kind: 'rate', to: 'request_rate' },
  kube_pod_container_status_restarts_total: { kind: 'gauge', to: 'restarts' },
  process_open_fds: { kind: 'gauge', to: 'process.open_file_descriptors' },
  node_load1: { kind: 'gauge', to: 'load_avg_1' },
  go_gc_duration_seconds_sum: { kind: 'rate', to: 'gc_pause_ms' },
};

interface Last {
  t: number;
  v: number;
  /** when the counter started (remote-write 2.0 start timestamp), 0 when not sent */
  start?: number;
}

export class PrometheusNameMapper {
  private readonly last = new Map<string, Last>();
  private readonly memoryLimit = new Map<string, number>();

  /**
   * Appends the records `sample` maps to (none for the first sample of a counter). `startMs` is the
   * counter's start time when the sender gives one (remote-write 2.0): a new start is a reset.
   */
  map(workload: string, pod: string | undefined, series: string, name: string, value: number, timeMs: number, out: MetricRecord[], startMs = 0): void {
    const rule = PROMETHEUS_RULES[name];
    if (rule === undefined) {
      out.push({ workload, pod, name, value, timeMs });
      return;
    }
    const podKey = `${workload}|${pod ?? ''}`;
    switch (rule.kind) {
      case 'gauge':
        out.push({ workload, pod, name: rule.to, value: value * (rule.scale ?? 1), timeMs });
        return;
      case 'rate': {
        const r = this.rate(series, value, timeMs, startMs);
        if (r === undefined) return;
        const scaled = rule.to === 'gc_pause_ms' ? r * 1000 : r;
        out.push({ workload, pod, name: rule.to, value: rule.cap === undefined ? scaled : Math.min(rule.cap, scaled), timeMs });
        return;
      }
      case 'memory_limit':
        if (value > 0) this.remember(this.memoryLimit, podKey, value);
        return;
      case 'memory_usage': {
        const limit = this.memoryLimit.get(podKey);
        if (limit !== undefined) out.push({ workload, pod, name: 'memory_percent', value: Math.min(1, value / limit), timeMs });
        else out.push({ workload, pod, name: 'memory_used_mb', value: value / 1_048_576, timeMs });
        return;
      }
      case 'latency_sum':
      case 'latency_count': {
        // mean latency over the interval = Δsum / Δcount, emitted when the count arrives
        const base = series.replace(/_(sum|count)\|/, '|');
        if (rule.kind === 'latency_sum') {
          const prev = this.last.get(`sum:${base}`);
          this.remember(this.last, `sum:${base}`, { t: timeMs, v: value });
          if (prev !== undefined) this.remember(this.last, `dsum:${base}`, { t: timeMs, v: value - prev.v });
          return;
        }
        const dCount = this.delta(`count:${base}`, value, timeMs);
        const dSum = this.last.get(`dsum:${base}`);
        if (dCount !== undefined && dCount > 0 && dSum !== undefined && dSum.v >= 0) {
          out.push({ workload, pod, name: 'latency_ms', value: (dSum.v / dCount) * 1000, timeMs });
        }
        return;
      }
    }
  }

  private rate(series: string, value: number, timeMs: number, startMs: number): number | undefined {
    const prev = this.last.get(series);
    this.remember(this.last, series, startMs === 0 ? { t: timeMs, v: value } : { t: timeMs, v: value, start: startMs });
    if (prev === undefined || timeMs <= prev.t || value < prev.v) return undefined; // first sample or counter reset
    if (startMs !== 0 && prev.start !== undefined && prev.start !== startMs) return undefined; // restarted counter, even if it already passed its old value
    return (value - prev.v) / ((timeMs - prev.t) / 1000);
  }

  private delta(key: string, value: number, timeMs: number): number | undefined {
    const prev = this.last.get(key);
    this.remember(this.last, key, { t: timeMs, v: value });
    if (prev === undefined || value < prev.v) return undefined;
    return value - prev.v;
  }

  private remember<V>(map: Map<string, V>, key: string, value: V): void {
    map.delete(key);
    map.set(key, value);
    if (map.size > MAX_SERIES) map.delete(map.keys().next().value as string);
  }
}
