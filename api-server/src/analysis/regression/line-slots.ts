/**
 * Exact sliding ordinary least squares over the last `capacity` points (analytics.md §2.1), as
 * functions over a region of a Float64Array: the co-moment form, O(1) per add and per eviction,
 * with an exact recomputation from the stored points every 1000 updates to bound drift.
 *
 * Region at `at`: 9 scalars (ring head, count, mean x, mean y, x co-moment, xy co-moment, updates,
 * where the points are, the ring's size) then the ring of points, x and y side by side, as many as
 * the owner gave it room for. While the line fills, the ring is the prefix [0, count) (head 0), so
 * an owner can grow the region by copying it into a larger one; once full it holds exactly
 * `capacity` points.
 *
 * A line may instead read its points from a longer ring of (x, y) pairs the owner keeps anyway
 * (lineSharePoints): a series' stable line in the WIDE stage (series-memory.ts) is the last 240
 * of the 300 (time, value) pairs of its value window, its burst line the last 20, so neither holds
 * a copy of them. The line then
 * writes each pushed point where that ring's next pair goes (the same x and y the owner writes
 * there) and its ring positions wrap at the longer ring's size; the owner must push both in step,
 * and update the ring it evicts from before pushing the line (the line's oldest point is not the
 * one the longer ring evicts).
 *
 * Or the owner keeps the two apart (lineSplitPoints; a series' lines in its other stages), with
 * the same rules: the ys in a ring of floats of the memory, one per slot, read and written through
 * the memory's Uint16 view (`t`) as two halves each (packed/sixteen-bit.ts), and the xs as integer
 * offsets from a base in a ring of that view, 16 or 32 bits each (line-times.ts: the region's
 * three more scalars, fitting and rebasing the xs). Every function that reads or writes points
 * takes that view (`t`; NO_TIMES for the other kinds, which never read it). A split line is pushed
 * floats only (Math.fround(y) === y: what its ring gives back).
 *
 * A region of zeros is an empty line with its points after its scalars. Callers pass finite x and
 * y only.
 */
import { TIMES_AT, TIME_HALVES, X_BASE, lineTimeHalves, offsetAt, setOffset } from './line-times.js';
import { floatFromHalves, setFloatHalves } from '../packed/sixteen-bit.js';

const HEAD = 0;
const N = 1;
const MX = 2;
const MY = 3;
const VX = 4;
const CXY = 5;
const UPDATES = 6;
/** where the points start, relative to `at` (0: at LINE_POINTS, right after the scalars) */
const POINTS_AT = 7;
/** the ring's size in points (0: the line's capacity; negative: split points, lineSplitPoints) */
const RING = 8;
/** where the points start in a line's region (unless shared: lineSharePoints); split points' scalars follow (line-times.ts) */
export const LINE_POINTS = 9;
if (X_BASE !== LINE_POINTS) throw new Error("split points' scalars must follow the line's");
/** the `t` of a line whose points are not split: (x, y) pairs (it reads none) */
export const NO_TIMES = new Uint16Array(0);
/** a line region's size for room for `points` points */
export const lineRegion = (points: number): number => LINE_POINTS + 2 * points;

const RECOMPUTE_EVERY = 1000;

/** the running moments a saved line carries: [mx, my, vx, cxy, updates] */
export type LineMoments = [number, number, number, number, number];

export function lineCount(d: Float64Array, at: number): number {
  return d[at + N] as number;
}

/**
 * The line reads and writes its points in a ring of (x, y) pairs at `pointsAt` (an element of the
 * same memory) of `ring` points instead of its own region: ring >= capacity, and while the line
 * fills that ring must fill with it (the same pairs at the same positions).
 */
export function lineSharePoints(d: Float64Array, at: number, pointsAt: number, ring: number): void {
  d[at + POINTS_AT] = pointsAt - at;
  d[at + RING] = ring;
}

/**
 * The line reads and writes its points in two rings of the owner, both of `ring` slots: the ys at
 * `ysAt` (one float a slot: slot k's at float element ysAt + k of the memory, its bytes
 * 4(ysAt + k) to 4(ysAt + k) + 3) and the xs at `timesAt`, an element of the memory's Uint16
 * view (`t` of every function that reads or writes points; `halves` elements a slot), as offsets
 * from the base at the region's X_BASE (0 at first; lineRebase moves it; line-times.ts). The
 * region needs LINE_SPLIT_REGION elements; timesAt > 0. As for lineSharePoints, ring >= capacity,
 * and while the line fills those rings fill with it.
 */
export function lineSplitPoints(d: Float64Array, at: number, ysAt: number, timesAt: number, ring: number, halves: 1 | 2): void {
  d[at + POINTS_AT] = ysAt - at;
  // a negative ring size marks split points (ringSize reads its magnitude)
  d[at + RING] = -ring;
  d[at + TIMES_AT] = timesAt;
  d[at + TIME_HALVES] = halves;
}

/** where a split line's offsets are (a Uint16 element); 0 for (x, y) pairs, own or shared */
function splitOf(d: Float64Array, at: number): number {
  return ((d[at + RING] as number) | 0) < 0 ? (d[at + TIMES_AT] as number) | 0 : 0;
}

/** the x at slot i of the line's ring (the owner's: the times' reader of a series, series-memory.ts ringTime) */
export function lineRingX(d: Float64Array, at: number, t: Uint16Array, i: number): number {
  return xAt(d, t, at, splitOf(d, at), pointsBase(d, at), i);
}

/** the x of ring slot i (`times`: splitOf, 0 for (x, y) pairs) */
function xAt(d: Float64Array, t: Uint16Array, at: number, times: number, base: number, i: number): number {
  return times === 0 ? (d[base + 2 * i] as number) : (d[at + X_BASE] as number) + offsetAt(t, times, lineTimeHalves(d, at), i);
}

/** the y of ring slot i (`times`: splitOf, 0 for (x, y) pairs: a double of d; else a float, through t's halves) */
function yAt(d: Float64Array, t: Uint16Array, times: number, base: number, i: number): number {
  return times === 0 ? (d[base + 2 * i + 1] as number) : floatFromHalves(t, 2 * (base + i));
}

/** the element of the ring's first point */
function pointsBase(d: Float64Array, at: number): number {
  // integers held in Float64 memory: `| 0` keeps the arithmetic in int32
  const p = (d[at + POINTS_AT] as number) | 0;
  return at + (p === 0 ? LINE_POINTS : p);
}

function ringSize(d: Float64Array, at: number, capacity: number): number {
  const r = (d[at + RING] as number) | 0;
  return r === 0 ? capacity : r < 0 ? -r : r;
}

/** ring index of the k-th oldest point */
function slot(d: Float64Array, at: number, capacity: number, k: number): number {
  const i = ((d[at + HEAD] as number) | 0) + k;
  const ring = ringSize(d, at, capacity);
  return i >= ring ? i - ring : i;
}

/**
 * The element where the next push writes its x (its y follows; of split points, the y's float element):
 * the slot after the newest point, or the oldest point's once the line is full (that point is read
 * first, then replaced).
 */
export function lineNextPointAt(d: Float64Array, at: number, capacity: number): number {
  const n = (d[at + N] as number) | 0;
  const i = n === capacity ? (d[at + HEAD] as number) | 0 : slot(d, at, capacity, n);
  return splitOf(d, at) === 0 ? pointsBase(d, at) + 2 * i : pointsBase(d, at) + i;
}

/** `t`: the memory's Uint16 view when the points are split (lineSplitPoints; x must fit: line-times.ts lineTimeFits), else NO_TIMES */
export function linePush(d: Float64Array, at: number, capacity: number, x: number, y: number, t: Uint16Array): void {
  let n = (d[at + N] as number) | 0;
  if (n === capacity) {
    lineRemoveOldest(d, t, at, capacity);
    n -= 1;
  }
  const i = slot(d, at, capacity, n);
  const base = pointsBase(d, at);
  const times = splitOf(d, at);
  if (times === 0) {
    d[base + 2 * i] = x;
    d[base + 2 * i + 1] = y;
  } else {
    setOffset(t, times, lineTimeHalves(d, at), i, x - (d[at + X_BASE] as number));
    setFloatHalves(t, 2 * (base + i), y);
  }
  n += 1;
  d[at + N] = n;
  const mx = d[at + MX] as number;
  const dx = x - mx;
  const mxNew = mx + dx / n;
  const myNew = (d[at + MY] as number) + (y - (d[at + MY] as number)) / n;
  d[at + MX] = mxNew;
  d[at + MY] = myNew;
  d[at + CXY] = (d[at + CXY] as number) + dx * (y - myNew);
  d[at + VX] = (d[at + VX] as number) + dx * (x - mxNew);
  const updates = ((d[at + UPDATES] as number) | 0) + 1;
  d[at + UPDATES] = updates;
  if (updates % RECOMPUTE_EVERY === 0) lineRecompute(d, t, at, capacity);
}

function lineRemoveOldest(d: Float64Array, t: Uint16Array, at: number, capacity: number): void {
  const head = (d[at + HEAD] as number) | 0;
  const base = pointsBase(d, at);
  const times = splitOf(d, at);
  const x = xAt(d, t, at, times, base, head);
  const y = yAt(d, t, times, base, head);
  d[at + HEAD] = head + 1 === ringSize(d, at, capacity) ? 0 : head + 1;
  const n = d[at + N] as number;
  if (n === 1) {
    d[at + N] = 0;
    d[at + MX] = 0;
    d[at + MY] = 0;
    d[at + VX] = 0;
    d[at + CXY] = 0;
    return;
  }
  const mx = d[at + MX] as number;
  const my = d[at + MY] as number;
  const mxNew = mx - (x - mx) / (n - 1);
  const myNew = my - (y - my) / (n - 1);
  d[at + CXY] = (d[at + CXY] as number) - (x - mxNew) * (y - my);
  const vx = (d[at + VX] as number) - (x - mxNew) * (x - mx);
  d[at + VX] = vx < 0 ? 0 : vx;
  d[at + MX] = mxNew;
  d[at + MY] = myNew;
  d[at + N] = n - 1;
}

/** exact two-pass recomputation of the means and co-moments from the stored points */
function lineRecompute(d: Float64Array, t: Uint16Array, at: number, capacity: number): void {
  const n = d[at + N] as number;
  const base = pointsBase(d, at);
  const times = splitOf(d, at);
  let sx = 0;
  let sy = 0;
  for (let k = 0; k < n; k += 1) {
    const i = slot(d, at, capacity, k);
    sx += xAt(d, t, at, times, base, i);
    sy += yAt(d, t, times, base, i);
  }
  const mx = sx / n;
  const my = sy / n;
  let vx = 0;
  let cxy = 0;
  for (let k = 0; k < n; k += 1) {
    const i = slot(d, at, capacity, k);
    const dx = xAt(d, t, at, times, base, i) - mx;
    vx += dx * dx;
    cxy += dx * (yAt(d, t, times, base, i) - my);
  }
  d[at + MX] = mx;
  d[at + MY] = my;
  d[at + VX] = vx;
  d[at + CXY] = cxy;
}

/**
 * The standard error of the line's slope from its own residuals: sqrt(SSE / (n − 2) / Σ(x − x̄)²);
 * +Infinity with fewer than 3 points or no spread in x (no slope can be told from noise).
 */
export function lineSlopeStdError(d: Float64Array, at: number, capacity: number, t: Uint16Array): number {
  const n = (d[at + N] as number) | 0;
  const vx = d[at + VX] as number;
  if (n < 3 || !(vx > 0)) return Number.POSITIVE_INFINITY;
  const mx = d[at + MX] as number;
  const my = d[at + MY] as number;
  const b = (d[at + CXY] as number) / vx;
  // the points oldest first, the ring position advanced in place (slot() per point, without its reads)
  const base = pointsBase(d, at);
  const times = splitOf(d, at);
  const ring = ringSize(d, at, capacity);
  let i = (d[at + HEAD] as number) | 0;
  let sse = 0;
  for (let k = 0; k < n; k += 1) {
    const r = yAt(d, t, times, base, i) - my - b * (xAt(d, t, at, times, base, i) - mx);
    sse += r * r;
    i = i + 1 === ring ? 0 : i + 1;
  }
  return Math.sqrt(sse / (n - 2) / vx);
}

export function lineSlope(d: Float64Array, at: number): number {
  const vx = d[at + VX] as number;
  return (d[at + N] as number) >= 2 && vx > 0 ? (d[at + CXY] as number) / vx : 0;
}

/**
 * Whether the line's y mean is +0 and its xy co-moment zero: it then predicts +0 at every x (its
 * slope is a zero), and a push of y = +0 over points whose y is +0 keeps both so.
 */
export function lineFlatAtZero(d: Float64Array, at: number): boolean {
  return Object.is(d[at + MY], 0) && d[at + CXY] === 0;
}

export function lineIntercept(d: Float64Array, at: number): number {
  return (d[at + MY] as number) - lineSlope(d, at) * (d[at + MX] as number);
}

export function linePredict(d: Float64Array, at: number, x: number): number {
  return lineSlope(d, at) * x + lineIntercept(d, at);
}

export function lineFirstX(d: Float64Array, at: number, t: Uint16Array): number {
  return (d[at + N] as number) === 0 ? 0 : xAt(d, t, at, splitOf(d, at), pointsBase(d, at), (d[at + HEAD] as number) | 0);
}

export function lineLastX(d: Float64Array, at: number, capacity: number, t: Uint16Array): number {
  const n = d[at + N] as number;
  return n === 0 ? 0 : xAt(d, t, at, splitOf(d, at), pointsBase(d, at), slot(d, at, capacity, n - 1));
}

export function lineLastY(d: Float64Array, at: number, capacity: number, t: Uint16Array): number {
  const n = d[at + N] as number;
  return n === 0 ? 0 : yAt(d, t, splitOf(d, at), pointsBase(d, at), slot(d, at, capacity, n - 1));
}

export function lineMeanY(d: Float64Array, at: number): number {
  return d[at + MY] as number;
}

/** the points oldest first, and the running moments */
export function linePoints(d: Float64Array, at: number, capacity: number, t: Uint16Array): { xs: number[]; ys: number[]; moments: LineMoments } {
  const xs: number[] = [];
  const ys: number[] = [];
  const n = d[at + N] as number;
  const base = pointsBase(d, at);
  const times = splitOf(d, at);
  for (let k = 0; k < n; k += 1) {
    const i = slot(d, at, capacity, k);
    xs.push(xAt(d, t, at, times, base, i));
    ys.push(yAt(d, t, times, base, i));
  }
  return { xs, ys, moments: [d[at + MX] as number, d[at + MY] as number, d[at + VX] as number, d[at + CXY] as number, d[at + UPDATES] as number] };
}

/**
 * Copies the points oldest first into `xs` and `ys` from index 0 (each with room for the line's
 * count, at most `capacity`); returns how many: linePoints without building arrays.
 */
export function lineCopyPoints(d: Float64Array, at: number, capacity: number, xs: Float64Array, ys: Float64Array, t: Uint16Array): number {
  const n = (d[at + N] as number) | 0;
  const base = pointsBase(d, at);
  const times = splitOf(d, at);
  const ring = ringSize(d, at, capacity);
  let i = (d[at + HEAD] as number) | 0;
  for (let k = 0; k < n; k += 1) {
    xs[k] = xAt(d, t, at, times, base, i);
    ys[k] = yAt(d, t, times, base, i);
    i = i + 1 === ring ? 0 : i + 1;
  }
  return n;
}

/** whether the line holds exactly these points, oldest first */
export function lineHolds(d: Float64Array, at: number, capacity: number, xs: readonly unknown[], ys: readonly unknown[], t: Uint16Array): boolean {
  const n = d[at + N] as number;
  if (xs.length !== n || ys.length !== n) return false;
  const base = pointsBase(d, at);
  const times = splitOf(d, at);
  for (let k = 0; k < n; k += 1) {
    const i = slot(d, at, capacity, k);
    if (xs[k] !== xAt(d, t, at, times, base, i) || ys[k] !== yAt(d, t, times, base, i)) return false;
  }
  return true;
}

/** sets the running moments (a line rebuilt from a saved one's points continues bit for bit) */
export function lineSetMoments(d: Float64Array, at: number, m: LineMoments): void {
  d[at + MX] = m[0];
  d[at + MY] = m[1];
  d[at + VX] = m[2];
  d[at + CXY] = m[3];
  d[at + UPDATES] = m[4];
}
