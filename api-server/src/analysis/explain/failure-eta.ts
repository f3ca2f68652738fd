/**
 * The one time-to-failure model (docs/diagnosis.md "Forecast"). Pure.
 *
 * While a rupture is open, the diagnosed input's failure ETA is the time its trend needs to reach
 * the input's failure edge, the workload's failure objective for the input when one is set
 * (FailureEdges): (edge − now) / slope, the slope being the Theil-Sen slope of the
 * input's recent climb (from the window's trough, at most 30 min and at least 5 min back:
 * diagnosis-inputs.ts); when that does not rise, the mean of the input's 5-min regression slope
 * and its rise rate since the trough, of those that are positive (none → no estimate). Without a
 * diagnosed input the ETA is the health forecast's: the time the health line reaches the critical
 * edge 0.4. The narrative's "Estimated time to failure", the explain record's `ttf_seconds` and
 * the snapshot's `health_forecast.critical_eta_minutes` are all this one number. Outside a rupture
 * `critical_eta_minutes` is the soonest input ETA on the inputs' 60-min slopes (earliestInputEta),
 * else the health line's.
 */

export const TREND_INPUTS = ['memory', 'cpu', 'latency', 'error_rate'] as const;
export type TrendInput = (typeof TREND_INPUTS)[number];

/**
 * Failure edges of the normalised inputs: memory and cpu at 100 % (OOM kill, throttled to a
 * stand-still), latency at 1.0 (600 ms, the normalisation's ceiling), error rate at 25 %.
 */
export const FAILURE_EDGES = { memory: 1, cpu: 1, latency: 1, error_rate: 0.25, latencyMs: 600 } as const;

/**
 * The levels the failure ETA aims at for one workload, normalised as the analysis holds its inputs:
 * the workload's failure objective for an input where one is set (objectives/objective-edges.ts),
 * else the fixed edge above. `objective` says which inputs take the workload's objective.
 */
export interface FailureEdges {
  readonly level: Readonly<Record<TrendInput, number>>;
  readonly objective: Readonly<Record<TrendInput, boolean>>;
}

export const DEFAULT_FAILURE_EDGES: FailureEdges = Object.freeze({
  level: Object.freeze({ memory: FAILURE_EDGES.memory, cpu: FAILURE_EDGES.cpu, latency: FAILURE_EDGES.latency, error_rate: FAILURE_EDGES.error_rate }),
  objective: Object.freeze({ memory: false, cpu: false, latency: false, error_rate: false }),
});

/** Longest ETA reported (6 h); `ttf_seconds` is this value when there is no estimate. */
export const ETA_CAP_SECONDS = 6 * 3600;

/** seconds until `value` rising at `slopePerSecond` reaches the input's edge (of `edges`); null when not rising; 0 at or past the edge; ≤ cap */
export function failureEtaSeconds(input: TrendInput, value: number, slopePerSecond: number, edges: FailureEdges = DEFAULT_FAILURE_EDGES): number | null {
  if (!Number.isFinite(value)) return null;
  const edge = edges.level[input];
  if (value >= edge) return 0;
  if (!(slopePerSecond > 0) || !Number.isFinite(slopePerSecond)) return null;
  return Math.floor(Math.min(ETA_CAP_SECONDS, (edge - value) / slopePerSecond));
}

/** the fallback slope: mean of the positive ones of the 5-min slope and the rise rate; 0 when neither rises */
export function trendSlope(burstSlope: number, riseRate: number): number {
  const rising = [burstSlope, riseRate].filter((s) => Number.isFinite(s) && s > 0);
  return rising.length === 0 ? 0 : rising.reduce((a, b) => a + b, 0) / rising.length;
}

/** the slope the ETA uses: the robust (Theil-Sen) slope of the recent climb when it rises, else trendSlope */
export function etaSlope(t: { robustSlopePerSecond: number; burstSlopePerSecond: number; slopePerSecond: number }): number {
  const r = t.robustSlopePerSecond;
  return Number.isFinite(r) && r > 0 ? r : trendSlope(t.burstSlopePerSecond, t.slopePerSecond);
}

/** points a Theil-Sen fit takes at most (evenly spaced): ≤ 1830 pairwise slopes */
export const THEIL_SEN_MAX_POINTS = 61;

// Scratch space of theilSenSlope, reused by every call (the function runs for every input of every
// workload on every step, docs/performance.md): the chosen points and their pairwise slopes.
const pointX = new Float64Array(THEIL_SEN_MAX_POINTS);
const pointY = new Float64Array(THEIL_SEN_MAX_POINTS);
const pairSlopes = new Float64Array((THEIL_SEN_MAX_POINTS * (THEIL_SEN_MAX_POINTS - 1)) / 2);

/**
 * Theil-Sen slope of the points from index `from` to the end (index `points` − 1; by default the
 * shorter array's end): the median of the pairwise slopes
 * (a third of the points can be outliers before it moves). Over more than THEIL_SEN_MAX_POINTS
 * points an evenly spaced subset (always the last point) is used. NaN with fewer than 3 points
 * or no pair of distinct finite x. The median is selected in place (quickselect), not sorted.
 */
export function theilSenSlope(xs: ArrayLike<number>, ys: ArrayLike<number>, from = 0, points = Math.min(xs.length, ys.length)): number {
  const last = points - 1;
  const start = Math.max(0, from);
  const n = last - start + 1;
  if (n < 3) return Number.NaN;
  const take = Math.min(n, THEIL_SEN_MAX_POINTS);
  for (let k = take - 1, i = 0; k >= 0; k--, i++) {
    const at = last - Math.round((k * (n - 1)) / Math.max(1, take - 1));
    pointX[i] = xs[at]!;
    pointY[i] = ys[at]!;
  }
  let count = 0;
  for (let i = 0; i < take; i++) {
    const xi = pointX[i]!;
    const yi = pointY[i]!;
    for (let j = i + 1; j < take; j++) {
      const dx = pointX[j]! - xi;
      const dy = pointY[j]! - yi;
      if (dx > 0 && Number.isFinite(dx) && Number.isFinite(dy)) pairSlopes[count++] = dy / dx;
    }
  }
  if (count === 0) return Number.NaN;
  const m = count >> 1;
  const upper = selectInPlace(pairSlopes, count, m);
  if (count % 2 === 1) return upper;
  // after the selection every slope before index m is ≤ the m-th: the (m−1)-th is their largest
  let lower = -Infinity;
  for (let k = 0; k < m; k++) if (pairSlopes[k]! > lower) lower = pairSlopes[k]!;
  return (lower + upper) / 2;
}

/**
 * The k-th smallest of a[0..n) (0-based), a left partly ordered: every value before index k is
 * ≤ a[k] ≤ every value after it. Hoare partition around a median of three; no NaN in a.
 */
export function selectInPlace(a: Float64Array, n: number, k: number): number {
  let left = 0;
  let right = n - 1;
  while (right > left) {
    const lo = a[left]!;
    const mid = a[(left + right) >> 1]!;
    const hi = a[right]!;
    const pivot = lo < mid ? (mid < hi ? mid : lo < hi ? hi : lo) : lo < hi ? lo : mid < hi ? hi : mid;
    let i = left;
    let j = right;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else break;
  }
  return a[k]!;
}

export interface FailureEta {
  /** integer seconds, ETA_CAP_SECONDS when there is no estimate */
  ttfSeconds: number;
  /** whole minutes, 0 when there is no estimate (the contract's "none") */
  criticalEtaMinutes: number;
  /** which model gave it */
  basis: 'input-trend' | 'health-trend' | 'none';
}

/**
 * The ETA from the diagnosis' (null: none) or else the health forecast's critical ETA in minutes
 * (0: none).
 */
export function failureEta(diagnosisEtaSeconds: number | null, healthCriticalEtaMinutes: number): FailureEta {
  if (diagnosisEtaSeconds !== null && Number.isFinite(diagnosisEtaSeconds)) {
    const s = Math.floor(Math.min(ETA_CAP_SECONDS, Math.max(0, diagnosisEtaSeconds)));
    return { ttfSeconds: s, criticalEtaMinutes: Math.floor(s / 60), basis: 'input-trend' };
  }
  if (healthCriticalEtaMinutes > 0 && Number.isFinite(healthCriticalEtaMinutes)) {
    const m = Math.min(ETA_CAP_SECONDS / 60, Math.floor(healthCriticalEtaMinutes));
    return { ttfSeconds: m * 60, criticalEtaMinutes: m, basis: 'health-trend' };
  }
  return { ttfSeconds: ETA_CAP_SECONDS, criticalEtaMinutes: 0, basis: 'none' };
}

/** an input as the early warning reads it: its latest value and its 60-min slope per second */
export interface EtaInput {
  input: TrendInput;
  last: number;
  stableSlope: number;
}

/**
 * The early warning outside a rupture: the soonest time any input reaches its edge, in seconds;
 * null when none gets there within the cap. An input counts only when its 60-min slope (robust
 * to the 5-min window's noise) gets it there within the cap; its ETA then uses the trend slope
 * (`refine`: the 5-min slope and the rise rate since the trough, as inside a rupture), which does
 * not lag a ramp younger than the hour.
 */
export function earliestInputEta(
  inputs: readonly EtaInput[],
  refine: (input: TrendInput) => number = () => Number.NaN,
  edges: FailureEdges = DEFAULT_FAILURE_EDGES,
): number | null {
  let best: number | null = null;
  for (const i of inputs) {
    const rough = failureEtaSeconds(i.input, i.last, i.stableSlope, edges);
    if (rough === null || rough >= ETA_CAP_SECONDS) continue;
    // at or past its edge an input's ETA is 0 whatever the slope: no refined slope is needed
    if (i.last >= edges.level[i.input]) {
      if (best === null || 0 < best) best = 0;
      continue;
    }
    const slope = refine(i.input);
    const eta = Number.isFinite(slope) && slope > 0 ? (failureEtaSeconds(i.input, i.last, slope, edges) ?? rough) : rough;
    if (best === null || eta < best) best = eta;
  }
  return best;
}
