/**
 * Metric name resolution (analytics.md §1.1): OTel-to-underscore sanitising, the alias table of
 * the canonical inputs and the unit rule each name carries. Pure; results are cached per raw
 * name (bounded) so the hot ingest path does no string work for names it has seen.
 */

export const CANONICAL_INPUTS = [
  'cpu',
  'memory',
  'latency',
  'error_rate',
  'timeout_rate',
  'request_rate',
  'load',
  'uptime',
  'gc_pause',
  'open_fds',
  'restarts',
] as const;
export type CanonicalInput = (typeof CANONICAL_INPUTS)[number];

/**
 * How one sample value becomes its per-sample bucket value:
 * - `fp` fraction-or-percent: v ≤ 1 fraction, v > 1 percent (÷100), clamp to [0,1]
 * - `latency_ms` / `latency_otel`: duration in ms (or OTel seconds-if-≤10) → clamp(ms/600)
 * - `gc_ms` / `gc_otel`: duration → clamp(ms/100)
 * - `raw`: kept as sent, floored at 0 (request_rate, load before ÷cores, uptime, fds, restarts, cores)
 * - `div`: general input divided by a fixed scale then clamped
 */
export type UnitRule = 'fp' | 'latency_ms' | 'latency_otel' | 'gc_ms' | 'gc_otel' | 'raw' | 'div';

export interface ResolvedMetric {
  /** canonical input, `cores` (core count of the workload) or `general` */
  kind: 'canonical' | 'cores' | 'general';
  /** canonical input name, `cores`, or the sanitised general name */
  input: string;
  /** alias priority inside the canonical input (0 = first listed; first present wins) */
  rank: number;
  unit: UnitRule;
  /** divisor for `div` */
  scale: number;
}

interface AliasGroup {
  input: CanonicalInput;
  names: string[];
}

const ALIASES: AliasGroup[] = [
  {
    input: 'cpu',
    names: [
      'cpu_percent',
      'cpu_usage',
      'process.cpu.utilization',
      'system.cpu.utilization',
      'container.cpu.utilization',
      'k8s.pod.cpu.utilization',
      'k8s.pod.cpu.node.utilization',
      'k8s.container.cpu.utilization',
      'k8s.node.cpu.utilization',
    ],
  },
  {
    input: 'memory',
    names: [
      'memory_percent',
      'mem_percent',
      'memory_usage',
      'process.memory.utilization',
      'system.memory.utilization',
      'k8s.pod.memory.utilization',
      'k8s.pod.memory.working_set.utilization',
      'k8s.container.memory.utilization',
      'k8s.container.memory.working_set.utilization',
      'k8s.node.memory.working_set.utilization',
    ],
  },
  { input: 'latency', names: ['latency_p99', 'latency_p95', 'latency_p50', 'latency_ms', 'latency', 'http.server.request.duration'] },
  { input: 'error_rate', names: ['error_rate', 'err_rate', 'http.server.error.rate'] },
  { input: 'timeout_rate', names: ['timeout_rate'] },
  { input: 'request_rate', names: ['request_rate', 'requests_per_second', 'rps', 'http.server.request.rate'] },
  { input: 'load', names: ['load_avg_1'] },
  { input: 'uptime', names: ['uptime_seconds', 'process.uptime'] },
  { input: 'gc_pause', names: ['runtime.gc.pause.duration', 'gc_pause_ms'] },
  { input: 'open_fds', names: ['process.open_file_descriptors'] },
  { input: 'restarts', names: ['restarts', 'restart_count', 'k8s.container.restarts'] },
];

const CORE_NAMES = ['cpu_count', 'system.cpu.logical.count'];

const GENERAL_SCALES: Record<string, number> = {
  disk_percent: 100,
  net_rx_bps: 1e9,
  net_tx_bps: 1e9,
  memory_used_mb: 65_536,
  memory_total_mb: 65_536,
  disk_used_gb: 10_240,
  disk_total_gb: 10_240,
  processes: 1000,
};

/** `.` `-` `/` and space become `_` (the reference sanitiser's equivalence). */
export function sanitiseMetricName(name: string): string {
  return name.replace(/[.\-/ ]/g, '_');
}

function unitFor(input: CanonicalInput, sanitised: string): UnitRule {
  switch (input) {
    case 'cpu':
    case 'memory':
    case 'error_rate':
    case 'timeout_rate':
      return 'fp';
    case 'latency':
      return isMillisecondName(sanitised) || sanitised === 'latency' ? 'latency_ms' : 'latency_otel';
    case 'gc_pause':
      return isMillisecondName(sanitised) ? 'gc_ms' : 'gc_otel';
    default:
      return 'raw';
  }
}

/** DR rule: names containing `_ms` or `latency_p` are milliseconds. */
function isMillisecondName(sanitised: string): boolean {
  return sanitised.includes('_ms') || sanitised.includes('latency_p');
}

const TABLE = new Map<string, ResolvedMetric>();
for (const group of ALIASES) {
  group.names.forEach((name, rank) => {
    const s = sanitiseMetricName(name);
    if (!TABLE.has(s)) TABLE.set(s, { kind: 'canonical', input: group.input, rank, unit: unitFor(group.input, s), scale: 1 });
  });
}
for (const name of CORE_NAMES) TABLE.set(sanitiseMetricName(name), { kind: 'cores', input: 'cores', rank: 0, unit: 'raw', scale: 1 });

function resolveUncached(name: string): ResolvedMetric {
  const s = sanitiseMetricName(name);
  const known = TABLE.get(s);
  if (known !== undefined) return known;
  if (s.endsWith('latency_ms')) return { kind: 'canonical', input: 'latency', rank: 100, unit: 'latency_ms', scale: 1 };
  const scale = GENERAL_SCALES[s];
  if (scale !== undefined) return { kind: 'general', input: s, rank: 0, unit: 'div', scale };
  return { kind: 'general', input: s, rank: 0, unit: 'fp', scale: 1 };
}

const CACHE_LIMIT = 20_000;
const cache = new Map<string, ResolvedMetric>();

/** Resolves a metric name as sent; cached for up to 20 000 distinct raw names. */
export function resolveMetricName(name: string): ResolvedMetric {
  const hit = cache.get(name);
  if (hit !== undefined) return hit;
  const resolved = resolveUncached(name);
  if (cache.size < CACHE_LIMIT) cache.set(name, resolved);
  return resolved;
}

/** The canonical input or sanitised general name a forecast/metric query refers to. */
export function seriesNameOf(name: string): string {
  const r = resolveMetricName(name);
  return r.input;
}
