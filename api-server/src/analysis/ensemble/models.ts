/**
 * The five streaming forecasters of analytics.md §5.2, as functions over a series' memory
 * (series-memory.ts). Each sees one point per analysis step (x in seconds, y the value) and
 * predicts y `h` steps (15 s each) ahead. Non-finite input is ignored by the owner
 * (SeriesEnsemble) before it reaches a model.
 */
import { lineCount, linePredict, linePush, lineSlope } from '../regression/line-slots.js';
import { fromBfloat16, toBfloat16 } from '../packed/sixteen-bit.js';
import { sortedAt, sortedCount, sortedMedian, sortedPush, sortedSlotOf, sortedSlotValue } from './sorted-slots.js';
import {
  ARI_DIFFS,
  ARI_LAST,
  ARI_PHI,
  ARI_SINCE_FIT,
  CA_ILR_X,
  EWMA_LEVEL,
  HW_BUFFER_SUM,
  HW_LAST,
  HW_LEVEL,
  HW_N,
  HW_TREND,
  SEASON,
  STABLE_LINE,
  STABLE_POINTS,
  VALUE_META,
  VALUE_POINTS,
  type StageLayout,
} from './series-memory.js';

export const STEP_SECONDS = 15;

// ca_ilr: the stable-window regression line (240 points), usable after 3 points.
/** `u`: the memory's Uint16 view, where the times are (series-memory.ts), x fitting them (timeFits) */
export function caIlrUpdate(d: Float64Array, u: Uint16Array, y: number, x: number): void {
  d[CA_ILR_X] = x;
  linePush(d, STABLE_LINE, STABLE_POINTS, x, y, u);
}
export function caIlrUsable(d: Float64Array): boolean {
  return lineCount(d, STABLE_LINE) >= 3;
}
export function caIlrPredict(d: Float64Array, h: number): number {
  return linePredict(d, STABLE_LINE, (d[CA_ILR_X] as number) + STEP_SECONDS * h);
}
/** the stable line's slope per step */
export function caIlrSlopePerStep(d: Float64Array): number {
  return lineSlope(d, STABLE_LINE) * STEP_SECONDS;
}

/** fit's scratch (synchronous, so one set serves every series): autocorrelations, coefficients */
const RHO = new Float64Array(4);
const PHI = new Float64Array(3);
const PHI_PREVIOUS = new Float64Array(3);

// arima: ARI(3,1) with Yule-Walker (Levinson-Durbin) over the last 64 differences, refitted every
// 10 points. The differences are not stored: difference k is the value window's value k minus
// value k - 1 (the window holds the last 300 values, so the last 65 give the 64), the subtraction
// the stored difference was (so the same double). The value window must hold y before
// ariUpdate(y) (madUpdate first, as SeriesEnsemble.observe does).
/** how many differences ARI has: the value window's values but one, at most ARI_DIFFS (-1 before the first value) */
function ariCount(d: Float64Array): number {
  return Math.min(sortedCount(d, VALUE_META) - 1, ARI_DIFFS);
}
/** the difference j places before the newest (0: the newest), j < ariCount */
function ariDiffBack(d: Float64Array, u: Uint16Array, layout: StageLayout, j: number): number {
  const newest = sortedCount(d, VALUE_META) - 1 - j;
  const { valueRing, valueStride } = layout;
  return sortedAt(d, VALUE_META, valueRing, u, VALUE_POINTS, newest, valueStride) - sortedAt(d, VALUE_META, valueRing, u, VALUE_POINTS, newest - 1, valueStride);
}
/** y pushed to the value window first (madUpdate) */
export function ariUpdate(d: Float64Array, u: Uint16Array, layout: StageLayout, y: number): void {
  if (!Number.isNaN(d[ARI_LAST] as number)) {
    const count = ariCount(d);
    const sinceFit = (d[ARI_SINCE_FIT] as number) + 1;
    d[ARI_SINCE_FIT] = sinceFit;
    if (count >= 8 && (sinceFit >= 10 || count === 8)) {
      ariFit(d, u, layout, count);
      d[ARI_SINCE_FIT] = 0;
    }
  }
  d[ARI_LAST] = y;
}
/**
 * ariUpdate of y = +0 at the zero fixed point (zero-point.ts: the last value and all 64 differences
 * +0): a refit due now would find every difference zero and keep the coefficients (ariFit returns
 * before writing), so only the refit counter and the last value move.
 */
export function ariUpdateAtZero(d: Float64Array): void {
  const sinceFit = (d[ARI_SINCE_FIT] as number) + 1;
  d[ARI_SINCE_FIT] = sinceFit >= 10 ? 0 : sinceFit;
  d[ARI_LAST] = 0;
}
export function ariUsable(d: Float64Array): boolean {
  return ariCount(d) >= 10;
}
/** the newest difference (+0 before there is one) */
export function ariNewestDiff(d: Float64Array, u: Uint16Array, layout: StageLayout): number {
  return ariCount(d) > 0 ? ariDiffBack(d, u, layout, 0) : 0;
}

/** over the last n differences, n >= 8 */
function ariFit(d: Float64Array, u: Uint16Array, layout: StageLayout, n: number): void {
  const ring = layout.valueRing;
  const stride = layout.valueStride;
  // r_k = sum over i >= k of x_i x_{i-k}, for k = 0..3, in one pass over the differences (x_i: the
  // i-th oldest, its value's ring slot advanced in place); each sum adds the same products in the
  // same order as a pass per lag would, from 0 (0 + -0 is +0, as before).
  let slot = sortedSlotOf(d, VALUE_META, VALUE_POINTS, sortedCount(d, VALUE_META) - 1 - n);
  let previous = sortedSlotValue(d, VALUE_META, ring, u, slot, stride);
  slot = slot + 1 === VALUE_POINTS ? 0 : slot + 1;
  let value = sortedSlotValue(d, VALUE_META, ring, u, slot, stride);
  const x0 = value - previous;
  previous = value;
  slot = slot + 1 === VALUE_POINTS ? 0 : slot + 1;
  value = sortedSlotValue(d, VALUE_META, ring, u, slot, stride);
  const x1 = value - previous;
  previous = value;
  slot = slot + 1 === VALUE_POINTS ? 0 : slot + 1;
  value = sortedSlotValue(d, VALUE_META, ring, u, slot, stride);
  const x2 = value - previous;
  previous = value;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  s0 += x0 * x0;
  s0 += x1 * x1;
  s1 += x1 * x0;
  s0 += x2 * x2;
  s1 += x2 * x1;
  s2 += x2 * x0;
  let back1 = x2;
  let back2 = x1;
  let back3 = x0;
  for (let i = 3; i < n; i += 1) {
    slot = slot + 1 === VALUE_POINTS ? 0 : slot + 1;
    value = sortedSlotValue(d, VALUE_META, ring, u, slot, stride);
    const x = value - previous;
    previous = value;
    s0 += x * x;
    s1 += x * back1;
    s2 += x * back2;
    s3 += x * back3;
    back3 = back2;
    back2 = back1;
    back1 = x;
  }
  RHO[0] = s0 / n;
  RHO[1] = s1 / n;
  RHO[2] = s2 / n;
  RHO[3] = s3 / n;
  const r0 = RHO[0] as number;
  if (Math.abs(r0) < 1e-12) return;
  for (let lag = 0; lag <= 3; lag += 1) RHO[lag] = (RHO[lag] as number) / r0;
  if (!levinsonDurbinInto(RHO, 3, PHI, PHI_PREVIOUS)) return;
  if (Math.abs(PHI[0] as number) + Math.abs(PHI[1] as number) + Math.abs(PHI[2] as number) < 1) d.set(PHI, ARI_PHI);
}
export function ariPredict(d: Float64Array, u: Uint16Array, layout: StageLayout, h: number): number {
  const steps = Math.min(Math.max(1, h), 20);
  const count = ariCount(d);
  let r0 = count > 0 ? ariDiffBack(d, u, layout, 0) : 0;
  let r1 = count > 1 ? ariDiffBack(d, u, layout, 1) : 0;
  let r2 = count > 2 ? ariDiffBack(d, u, layout, 2) : 0;
  const p0 = d[ARI_PHI] as number;
  const p1 = d[ARI_PHI + 1] as number;
  const p2 = d[ARI_PHI + 2] as number;
  let y = d[ARI_LAST] as number;
  for (let s = 0; s < steps; s += 1) {
    const dy = p0 * r0 + p1 * r1 + p2 * r2;
    y += dy;
    r2 = r1;
    r1 = r0;
    r0 = dy;
  }
  return y;
}
/** the AR coefficients of the differences */
export function ariPhi(d: Float64Array): [number, number, number] {
  return [d[ARI_PHI] as number, d[ARI_PHI + 1] as number, d[ARI_PHI + 2] as number];
}

/** Levinson-Durbin recursion on autocorrelations rho[0..p] (rho[0] = 1); undefined when unstable. */
export function levinsonDurbin(rho: number[], p: number): number[] | undefined {
  const phi = new Float64Array(p);
  return levinsonDurbinInto(Float64Array.from(rho), p, phi, new Float64Array(p)) ? Array.from(phi) : undefined;
}

/**
 * levinsonDurbin without allocation: the coefficients go to `phi` (length >= p), `previous` is
 * scratch of the same length; false when the recursion is unstable or not finite.
 */
function levinsonDurbinInto(rho: Float64Array, p: number, phi: Float64Array, previous: Float64Array): boolean {
  let err = rho[0] as number;
  for (let k = 1; k <= p; k += 1) {
    let acc = rho[k] as number;
    for (let j = 1; j < k; j += 1) acc -= (phi[j - 1] as number) * (rho[k - j] as number);
    if (Math.abs(err) < 1e-12) return false;
    const kappa = acc / err;
    for (let j = 0; j < k - 1; j += 1) previous[j] = phi[j] as number;
    for (let j = 1; j < k; j += 1) phi[j - 1] = (previous[j - 1] as number) - kappa * (previous[k - j - 1] as number);
    phi[k - 1] = kappa;
    err *= 1 - kappa * kappa;
  }
  for (let j = 0; j < p; j += 1) if (!Number.isFinite(phi[j] as number)) return false;
  return true;
}

/** the damped trend's multiplier after h steps: phi (1 - phi^h) / (1 - phi), phi = 0.98 */
const dampAfter = (h: number): number => (0.98 * (1 - 0.98 ** h)) / (1 - 0.98);
const DAMP_ONE_STEP = dampAfter(1);

// holt_winters: damped additive, alpha 0.3, beta 0.05, gamma 0.2, phi 0.98, season 240; the
// season's values are bfloat16s, 16-bit elements of the memory's Uint16 view `u` (8 significant
// bits: packed/sixteen-bit.ts toBfloat16; ADR 0019). The first season's points are buffered in the
// season's storage as their difference from the first point (kept in HW_LEVEL until the season
// ends), so a large level loses no precision there.
export function hwUpdate(d: Float64Array, u: Uint16Array, layout: StageLayout, y: number): void {
  const season = layout.season;
  const n = ((d[HW_N] as number) | 0) + 1;
  d[HW_N] = n;
  d[HW_LAST] = y;
  if (n <= SEASON) {
    if (n === 1) d[HW_LEVEL] = y;
    const origin = d[HW_LEVEL] as number;
    u[season + n - 1] = toBfloat16(y - origin);
    const bufferSum = (d[HW_BUFFER_SUM] as number) + y;
    d[HW_BUFFER_SUM] = bufferSum;
    if (n === SEASON) {
      const level = bufferSum / SEASON;
      d[HW_LEVEL] = level;
      d[HW_TREND] = 0;
      const shift = origin - level;
      for (let i = 0; i < SEASON; i += 1) u[season + i] = toBfloat16(fromBfloat16(u[season + i] as number) + shift);
    }
    return;
  }
  const i = season + ((n - 1) % SEASON);
  const s = fromBfloat16(u[i] as number);
  const level = d[HW_LEVEL] as number;
  const trend = d[HW_TREND] as number;
  const levelNew = 0.3 * (y - s) + 0.7 * (level + 0.98 * trend);
  d[HW_TREND] = 0.05 * (levelNew - level) + 0.95 * 0.98 * trend;
  u[i] = toBfloat16(0.2 * (y - levelNew) + 0.8 * s);
  d[HW_LEVEL] = levelNew;
}
/**
 * hwUpdate of y = +0 at the zero fixed point (level, trend and every season value +0, past the
 * first season): the level, trend and season value it would write are +0 again, so only the
 * counter and the last value move.
 */
export function hwUpdateAtZero(d: Float64Array): void {
  d[HW_N] = ((d[HW_N] as number) | 0) + 1;
  d[HW_LAST] = 0;
}
/** the season's element (of the memory's Uint16 view) the next update reads and writes (the buffer's next one during the first season) */
export function hwSeasonNextAt(d: Float64Array, layout: StageLayout): number {
  return layout.season + (((d[HW_N] as number) | 0) % SEASON);
}
export function hwUsable(d: Float64Array): boolean {
  return (d[HW_N] as number) > SEASON;
}
export function hwPredict(d: Float64Array, u: Uint16Array, layout: StageLayout, h: number): number {
  if (!hwUsable(d)) return d[HW_LAST] as number;
  const damp = h === 1 ? DAMP_ONE_STEP : dampAfter(h);
  return (d[HW_LEVEL] as number) + (d[HW_TREND] as number) * damp + fromBfloat16(u[layout.season + ((((d[HW_N] as number) | 0) + h - 1) % SEASON)] as number);
}

// mad: the median of the last 300 values (the value window), flat; usable after 10 values.
/** returns the value that left the window (NaN when none did) */
export function madUpdate(d: Float64Array, u: Uint16Array, layout: StageLayout, y: number): number {
  return sortedPush(d, VALUE_META, layout.valueRing, u, layout.valueSorted, VALUE_POINTS, y, layout.valueStride);
}
export function madUsable(d: Float64Array): boolean {
  return sortedCount(d, VALUE_META) >= 10;
}
export function madPredict(d: Float64Array, u: Uint16Array, layout: StageLayout): number {
  return sortedMedian(d, VALUE_META, layout.valueRing, u, layout.valueSorted);
}

// ewma: level <- 0.1 y + 0.9 level (first value starts it), flat.
export function ewmaUpdate(d: Float64Array, y: number): void {
  const level = d[EWMA_LEVEL] as number;
  d[EWMA_LEVEL] = Number.isNaN(level) ? y : 0.1 * y + 0.9 * level;
}
export function ewmaUsable(d: Float64Array): boolean {
  return !Number.isNaN(d[EWMA_LEVEL] as number);
}

/** the models' indexes in MODEL_NAMES (series-ensemble.ts) and in the series' per-model slots */
export const CA_ILR = 0;
export const ARIMA = 1;
export const HOLT_WINTERS = 2;
export const MAD = 3;
export const EWMA = 4;

/** whether model `m` (an index above) can forecast yet */
export function modelUsable(d: Float64Array, m: number): boolean {
  switch (m) {
    case CA_ILR:
      return caIlrUsable(d);
    case ARIMA:
      return ariUsable(d);
    case HOLT_WINTERS:
      return hwUsable(d);
    case MAD:
      return madUsable(d);
    default:
      return ewmaUsable(d);
  }
}

/** model `m`'s forecast `h` steps ahead */
export function modelPredict(d: Float64Array, u: Uint16Array, layout: StageLayout, m: number, h: number): number {
  switch (m) {
    case CA_ILR:
      return caIlrPredict(d, h);
    case ARIMA:
      return ariPredict(d, u, layout, h);
    case HOLT_WINTERS:
      return hwPredict(d, u, layout, h);
    case MAD:
      return madPredict(d, u, layout);
    default:
      return d[EWMA_LEVEL] as number;
  }
}
