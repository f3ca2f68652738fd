/**
 * Diagnosis of a rupture: which input moved, in the workload's own terms. Pure.
 *
 * Order of the rules (first that applies):
 * 1. `crash-loop`: the restart counter rose by at least one over the trend window, or the uptime
 *    series dropped (the process started again).
 * 2. `failing-dependency`: a downstream call edge of the workload (trace graph) fails, judged
 *    against its own history (downstream-history.ts): ≥ 20 calls in the last 5 min whose error
 *    share rose ≥ 5 points above the edge's baseline share and ≥ 3 standard errors of it (an edge
 *    without a baseline of ≥ 50 calls: a share ≥ 10 %). The worst (largest rise) is named unless
 *    the workload's own cause (rule 3) is memory or cpu and the edge does not explain the
 *    workload's errors (its share rose by less than half the workload's error-rate rise): a
 *    failing dependency raises its caller's errors and latency, not its memory or cpu.
 * 3. Otherwise each of memory, cpu, latency and error_rate scores rise / swing (rise = value now
 *    − the window's trough, counted only while positive; swing = the move that matters: 0.2 for the fractions memory, cpu and latency
 *    (latency is normalised to 600 ms), 0.05 for error_rate). Below a score of 1 for every input
 *    the diagnosis names metricR's primary input if it rose most (a rupture opens on a slope
 *    breaking away, often before the input moved a whole swing), else it is `undetermined`.
 *    Else the cause is the first input, in the order memory,
 *    cpu, latency, error_rate (causes before symptoms: a leak or a saturated CPU raises latency
 *    and errors, not the other way round; under rising traffic cpu, latency, memory, error_rate,
 *    as memory then grows with the load), whose score is at least half the largest score:
 *    memory → `memory-leak`, cpu → `cpu-saturation`, latency → `latency-burn`, error_rate →
 *    `error-creep`. Before that order: memory or cpu that rose and stands at ≥ 0.9 of its limit is
 *    the cause whatever rose faster after it (a leak's out-of-memory errors, a pinned CPU's latency).
 *    The rise counted is the larger of (now − trough) and the rise of the input's Theil-Sen line
 *    over its recent climb (≤ 30 min), so one low latest sample of a noisy input does not hide it.
 *    When nothing else names a cause, an input standing at its failure edge (failure-eta.ts) is
 *    named, risen in the window or not (a latency pinned at its 600 ms ceiling for the hour).
 *
 * `trafficRising`: request_rate rose by ≥ 20 % over its window. `afterDeploy`: a context event
 * naming a deploy, release or rollout happened in the hour before the rupture opened or during it.
 */
import { DEFAULT_FAILURE_EDGES, etaSlope, failureEtaSeconds, FAILURE_EDGES, type FailureEdges, type TrendInput } from './failure-eta.js';

export const DIAGNOSIS_KINDS = ['memory-leak', 'cpu-saturation', 'latency-burn', 'error-creep', 'crash-loop', 'failing-dependency', 'undetermined'] as const;
export type DiagnosisKind = (typeof DIAGNOSIS_KINDS)[number];

/** One input's trend over its 60-min window (diagnosis-inputs.ts): values are the analysis' normalised ones. */
export interface InputTrend {
  input: string;
  /** the window's trough (counters: its first value) */
  from: number;
  /** latest value */
  to: number;
  /** seconds from the trough to the latest value */
  spanSeconds: number;
  /** (to − from) / span, per second: the rise rate */
  slopePerSecond: number;
  /** slope of the 5-min line, per second */
  burstSlopePerSecond: number;
  /** Theil-Sen slope of the recent climb, per second (diagnosis-inputs.ts); NaN without one */
  robustSlopePerSecond: number;
}

/** one downstream call edge: its recent share (last 5 min) and its baseline share before them */
export interface DependencyEdge {
  service: string;
  /** error share of the recent calls */
  errorRate: number;
  /** recent calls */
  calls: number;
  /** error share of the edge's history before the recent calls; null without one */
  baselineErrorRate: number | null;
  baselineCalls: number;
}

export interface DiagnosisInput {
  /** trends of memory, cpu, latency, error_rate (any subset) */
  trends: readonly InputTrend[];
  requestRate: InputTrend | null;
  restarts: InputTrend | null;
  /** drops of the uptime series in its window (a process that started again) */
  uptimeResets: number;
  /** call edges from the workload to the services it calls */
  downstream: readonly DependencyEdge[];
  /** a deploy-like context event in the hour before the rupture or during it, null without one */
  deploy: { event: string; description: string; minutesBefore: number } | null;
  /** metricR's primary input (the one whose 5-min slope broke away most), null without one */
  primaryMetric: string | null;
  /** the workload's failure edges (its failure objectives where set); the fixed edges when left out */
  edges?: FailureEdges;
  /** the error rate's slow trend over hours (level-history.ts): its lowest 15-min level to its latest; null or left out without one */
  slowErrorRate?: InputTrend | null;
}

/** the level the ETA aims at: the diagnosed input's failure objective, or its fixed edge */
export interface EtaTarget {
  input: TrendInput;
  /** the input's latest value (normalised) */
  value: number;
  /** the level aimed at (normalised) */
  level: number;
  /** true: the workload's failure objective; false: the product's fixed edge */
  objective: boolean;
}

export interface Diagnosis {
  kind: DiagnosisKind;
  /** the input named as top factor: memory, cpu, latency, error_rate, restarts or `dependency:<service>`; null when undetermined */
  factor: string | null;
  /** plain-units line, e.g. "memory 62 % → 91 % in 40 min, +43 %/h" */
  summary: string;
  /** the failing downstream service (failing-dependency) */
  dependency: string | null;
  trafficRising: boolean;
  afterDeploy: boolean;
  deploy: DiagnosisInput['deploy'];
  /** seconds until the factor reaches its failure edge on its current trend; null without an estimate */
  etaSeconds: number | null;
  /** the factor's value 30 min ahead on its trend (demand: may exceed 1), ≥ 0; null for restarts, dependencies and undetermined */
  projected30Min: number | null;
  /** what the ETA aims at (memory, cpu, latency, error-rate diagnoses); absent on records saved before objectives */
  etaTarget?: EtaTarget | null;
}

const SWING: Record<string, number> = { memory: 0.2, cpu: 0.2, latency: 0.2, error_rate: 0.05 };
const CAUSE_ORDER = ['memory', 'cpu', 'latency', 'error_rate'] as const;
/** memory or cpu at or above this (a fraction of the limit) and still rising is saturated: the cause */
const SATURATED = 0.9;
/** under rising traffic memory grows with the load: cpu and latency come first */
const LOAD_ORDER = ['cpu', 'latency', 'memory', 'error_rate'] as const;
const KIND_OF: Record<(typeof CAUSE_ORDER)[number], DiagnosisKind> = {
  memory: 'memory-leak',
  cpu: 'cpu-saturation',
  latency: 'latency-burn',
  error_rate: 'error-creep',
};
/** a downstream edge without a baseline fails at this share */
export const DEPENDENCY_ERROR_RATE = 0.1;
/** recent calls an edge needs to be judged, and baseline calls for its baseline to count */
export const DEPENDENCY_MIN_CALLS = 20;
export const DEPENDENCY_MIN_BASELINE_CALLS = 50;
/** the rise above the baseline share (absolute) and in standard errors of the recent share */
export const DEPENDENCY_RISE = 0.05;
export const DEPENDENCY_Z = 3;
/** baseline share floor for the standard error (an edge that never failed) */
const DEPENDENCY_FLOOR = 0.01;
export const TRAFFIC_RISE = 0.2;
/** the longest climb a robust rise is counted over (diagnosis-inputs.ts fits the line on it) */
const CLIMB_SECONDS = 30 * 60;

export function diagnose(input: DiagnosisInput): Diagnosis {
  const trafficRising = input.requestRate !== null && rose(input.requestRate, TRAFFIC_RISE);
  const base = { trafficRising, afterDeploy: input.deploy !== null, deploy: input.deploy };
  const restarts = input.restarts;
  const counted = restarts === null ? 0 : Math.round(fin(restarts.to) - fin(restarts.from));
  const n = Math.max(counted, Math.round(fin(input.uptimeResets)));
  if (n >= 1) {
    const within = restarts !== null && counted >= 1 ? ` in ${duration(restarts.spanSeconds)}` : ' in the last hour';
    return { ...base, kind: 'crash-loop', factor: 'restarts', summary: `${n} ${n === 1 ? 'restart' : 'restarts'}${within}`, dependency: null, etaSeconds: 0, projected30Min: null };
  }
  const scores = new Map<string, number>();
  let best = 0;
  for (const t of input.trends) {
    const swing = SWING[t.input];
    if (swing === undefined || !(t.slopePerSecond > 0)) continue;
    const s = Math.max(0, fin(t.to) - fin(t.from), robustRise(t)) / swing;
    scores.set(t.input, s);
    if (s > best) best = s;
  }
  const order = trafficRising ? LOAD_ORDER : CAUSE_ORDER;
  // a resource that rose to saturation is the cause of what follows it (a leak's OOM errors, a pinned CPU's latency)
  const saturated = order.find((name) => (name === 'memory' || name === 'cpu') && (scores.get(name) ?? 0) > 0 && fin(input.trends.find((t) => t.input === name)?.to ?? 0) >= SATURATED);
  // a rupture can open before any input moved a whole swing: then the input whose slope broke away (metricR's) names it, if it rose
  const early = order.find((name) => name === input.primaryMetric && (scores.get(name) ?? 0) > 0 && scores.get(name) === best);
  // an input standing at its failure edge has failed, risen in the window or not (latency pinned at its ceiling)
  const edges = input.edges ?? DEFAULT_FAILURE_EDGES;
  const atEdge = order.find((name) => fin(input.trends.find((t) => t.input === name)?.to ?? 0) >= edges.level[name]);
  // an error rate that crept over hours rises under a swing in any one hour: judged against its level hours before
  const slow = slowCreep(input.slowErrorRate ?? null);
  const cause = saturated ?? (best >= 1 ? order.find((name) => (scores.get(name) ?? 0) >= best / 2) : (early ?? (slow === null ? undefined : 'error_rate') ?? atEdge));
  const failing = worstEdge(input.downstream);
  if (failing !== null && (cause === undefined || cause === 'latency' || cause === 'error_rate' || explainsErrors(failing, input.trends))) {
    const before = failing.baselineErrorRate === null ? '' : `; ${pct1(failing.baselineErrorRate)} % before`;
    return {
      ...base,
      kind: 'failing-dependency',
      factor: `dependency:${failing.service}`,
      summary: `calls to ${failing.service} fail at ${pct(failing.errorRate)} % (${failing.calls} calls in 5 min${before})`,
      dependency: failing.service,
      etaSeconds: null,
      projected30Min: null,
    };
  }
  if (cause === undefined) return { ...base, kind: 'undetermined', factor: null, summary: 'no input moved enough to name a cause', dependency: null, etaSeconds: null, projected30Min: null };
  const named = input.trends.find((t) => t.input === cause);
  const creptSlowly = slow !== null && cause === 'error_rate' && !(best >= 1) && early === undefined;
  // an error rate that crept: the level and slope of its 15-min means (a share of requests is too
  // noisy for a 30-min line of single samples); otherwise the window's trend
  const useSlow = slow !== null && cause === 'error_rate' && (creptSlowly || named === undefined || slow.robustSlopePerSecond > 0);
  const trend = useSlow ? slow : named!;
  const slope = useSlow ? Math.max(0, fin(slow.robustSlopePerSecond)) : etaSlope(trend);
  return {
    ...base,
    kind: KIND_OF[cause],
    factor: cause,
    summary: trendLine(creptSlowly || named === undefined ? slow! : named),
    dependency: null,
    etaSeconds: failureEtaSeconds(cause, trend.to, slope, edges),
    projected30Min: Math.max(0, fin(trend.to) + slope * 1800),
    etaTarget: { input: cause, value: fin(trend.to), level: edges.level[cause], objective: edges.objective[cause] },
  };
}

/**
 * The error rate's slow trend when it names a creep: it rose at least one swing (5 points) from
 * its lowest 15-min level of the last 6 h to its level now (level-history.ts, which leaves out a
 * rise that passed). Null otherwise.
 */
function slowCreep(t: InputTrend | null): InputTrend | null {
  if (t === null) return null;
  return fin(t.to) - fin(t.from) >= SWING['error_rate']! ? t : null;
}

/** "error rate 9.1 % → objective 15 %" or "memory 91 % → edge 100 %": what the ETA aims at, in plain units */
export function targetLine(t: EtaTarget): string {
  const label = t.input === 'error_rate' ? 'error rate' : t.input;
  const to = t.objective ? 'objective' : 'edge';
  if (t.input === 'latency') return `latency ${ms(t.value)} ms → ${to} ${ms(t.level)} ms`;
  return `${label} ${pct1(t.value)} % → ${to} ${pct1(t.level)} %`;
}

/** "memory 62 % → 91 % in 40 min, +43 %/h" (latency in ms: the normalised value × 600) */
export function trendLine(t: InputTrend): string {
  const label = t.input === 'error_rate' ? 'error rate' : t.input;
  const rate = fin(fin(t.slopePerSecond) * 3600);
  const sign = rate >= 0 ? '+' : '−';
  if (t.input === 'latency') {
    return `latency ${ms(t.from)} ms → ${ms(t.to)} ms in ${duration(t.spanSeconds)}, ${sign}${ms(Math.abs(rate))} ms/h`;
  }
  return `${label} ${pct(t.from)} % → ${pct(t.to)} % in ${duration(t.spanSeconds)}, ${sign}${pct(Math.abs(rate))} %/h`;
}

/**
 * The rise of the input's robust (Theil-Sen) line over its recent climb (≤ 30 min): a noisy
 * latest sample does not hide a rise the line shows. 0 without a rising line.
 */
function robustRise(t: InputTrend): number {
  const r = t.robustSlopePerSecond;
  return Number.isFinite(r) && r > 0 ? r * Math.min(CLIMB_SECONDS, Math.max(0, fin(t.spanSeconds))) : 0;
}

/** the failing edge (rule 2) whose share rose most above its baseline, then most calls, then name */
function worstEdge(edges: readonly DependencyEdge[]): DependencyEdge | null {
  let best: DependencyEdge | null = null;
  let bestRise = 0;
  for (const e of edges) {
    if (!failingEdge(e)) continue;
    const rise = edgeRise(e);
    if (best === null || rise > bestRise || (rise === bestRise && (e.calls > best.calls || (e.calls === best.calls && e.service < best.service)))) {
      best = e;
      bestRise = rise;
    }
  }
  return best;
}

/** rule 2: enough recent calls, and a share that rose clearly above the edge's own baseline (or ≥ 10 % without one) */
export function failingEdge(e: DependencyEdge): boolean {
  const calls = fin(e.calls);
  const share = fin(e.errorRate);
  if (calls < DEPENDENCY_MIN_CALLS) return false;
  const b = e.baselineErrorRate;
  if (b === null || !Number.isFinite(b) || !(e.baselineCalls >= DEPENDENCY_MIN_BASELINE_CALLS)) return share >= DEPENDENCY_ERROR_RATE;
  const p = Math.min(1 - 1e-9, Math.max(DEPENDENCY_FLOOR, b));
  return share - b >= DEPENDENCY_RISE && (share - b) / Math.sqrt((p * (1 - p)) / calls) >= DEPENDENCY_Z;
}

/** how far the edge's share rose above its baseline (above 0 without one) */
function edgeRise(e: DependencyEdge): number {
  return fin(e.errorRate) - (e.baselineErrorRate !== null && Number.isFinite(e.baselineErrorRate) ? e.baselineErrorRate : 0);
}

/** the edge's rise accounts for at least half the workload's own error-rate rise (which must be a rise) */
function explainsErrors(e: DependencyEdge, trends: readonly InputTrend[]): boolean {
  const errors = trends.find((t) => t.input === 'error_rate');
  const rise = errors === undefined ? 0 : fin(errors.to) - fin(errors.from);
  return rise > 0 && edgeRise(e) >= rise / 2;
}

function rose(t: InputTrend, fraction: number): boolean {
  const from = fin(t.from);
  return from > 0 ? (fin(t.to) - from) / from >= fraction : fin(t.to) > 0;
}

const fin = (x: number): number => (Number.isFinite(x) ? x : 0);
const pct = (x: number): number => Math.round(fin(fin(x) * 100));
/** one decimal: a baseline share is often under 1 % */
const pct1 = (x: number): number => Math.round(fin(fin(x) * 1000)) / 10;
const ms = (x: number): number => Math.round(fin(fin(x) * FAILURE_EDGES.latencyMs));
/** "N s" below 2 min, else "N min" */
const duration = (s: number): string => (fin(s) < 120 ? `${Math.max(0, Math.round(fin(s)))} s` : `${Math.round(fin(s) / 60)} min`);
