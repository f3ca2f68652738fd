/**
 * The memory of one series: every scalar and window of its ensemble (the five models, their
 * residuals, the weights) and of its §5.6 detectors lives in ONE Float64Array at fixed offsets, so
 * a series costs two heap objects (the array and its buffer) instead of some thirty, and one
 * observe touches a few adjacent cache lines reached from one pointer instead of a chain of
 * objects (docs/performance.md).
 *
 * Layout: the scalars first (the models', the residuals' statistics, ARI's coefficients, the
 * burst and stable lines'), then the growing windows. Those start with room for 16 points (1 KB),
 * then take each window's full size at the 17th point (6.3 KB): a series seen
 * for four minutes does not hold an hour's storage. A stage change copies every region to its
 * place in a larger array (growSeriesMemory); while a window fills, its points are a prefix of its
 * region, so the copy keeps them in place. Two stages, not a doubling: every array a series
 * outgrows is freed to malloc, which keeps it (docs/memory.md); stages of 16, 32, 64, 128, 256
 * and 300 points left 51 KB of freed arrays per series behind a 25.5 KB one (the layout then),
 * two stages leave the first stage's array.
 *
 * The value window's ring of 300 values (floats, read and written through the memory's Uint16
 * view: 1 200 bytes; ADR 0018, value-precision.ts) has a ring of the points' sample times beside it, as
 * integer offsets from a base the stable line keeps (time = base + offset; line-times.ts), in the
 * memory's Uint16 view (positionsView: a third view would cost more V8 heap than the bytes it
 * saves). The stable line's 240 points and the burst line's 20 are the last of those 300 (time,
 * value) points, so the lines read them there (line-slots.ts lineSplitPoints) instead of keeping
 * copies. The offsets are 16 bits (600 bytes, not 2 400 as doubles) while the window spans less
 * than 65 536 s: a time past that moves the base to the window's oldest time (lineRebase, about
 * every 17 hours of 15-s steps). When no base holds the whole window in 16 bits (a gap of 18
 * hours inside it, a first time far from the next) the series moves to the TIMES32 stage for good
 * (widenTimes): 32-bit offsets, 600 bytes more, a time past int32 moving the base to it. When even
 * those cannot (a fractional time, -0, a window spanning 2^31 s or more) it moves to the WIDE
 * stage for good: its times and values as doubles, (time, value) pairs, 3 000 bytes more than
 * the 300-point stage (widenSeriesMemory); so does a series whose values need doubles
 * (value-precision.ts). The service's times are seconds since a workload's first step, whole
 * multiples of its step of 15 s. The
 * window's sorted order is kept as 16-bit positions in its ring (sorted-slots.ts), not as a sorted
 * copy of the values (600 bytes instead of 2 400).
 */
import { lineSharePoints, lineRingX, lineSplitPoints } from '../regression/line-slots.js';
import { LINE_SPLIT_REGION, lineRebase, lineSetXBase, lineTimeFits, lineXBase } from '../regression/line-times.js';
import { SORTED_META, sortedCount, sortedUseFloats } from './sorted-slots.js';
import { SEASONAL_RESIDUAL_BLOCKS, errorBlocksSize, errorStats } from './error-slots.js';
import { floatFromHalves } from '../packed/sixteen-bit.js';

export const MODEL_COUNT = 5;
/** the stable line (ca_ilr, §5.6 ca_ilr's stable window) and the burst line, in points */
export const STABLE_POINTS = 240;
export const BURST_POINTS = 20;
/** the value window (mad model, zscore, mad) and the replayed points */
export const VALUE_POINTS = 300;
export const SEASON = 240;
export const ARI_DIFFS = 64;
export const RESIDUAL_POINTS = 200;

// scalars
export const POINTS = 0;
export const STAGE = 1;
/** the last value observed, as it was given (the value window keeps it as a float outside the WIDE stage) */
export const LAST_Y = 2;
/** the value the last observe pushed out of the value window (NaN: none) */
export const EVICTED = 3;
/** [WEIGHTS, +5): the weights; [ONE_STEP, +5): each model's forecast made by the last observe (NaN: not usable) */
export const WEIGHTS = 4;
export const ONE_STEP = WEIGHTS + MODEL_COUNT;
export const CA_ILR_X = ONE_STEP + MODEL_COUNT;
export const EWMA_LEVEL = CA_ILR_X + 1;
export const HW_N = EWMA_LEVEL + 1;
export const HW_LEVEL = HW_N + 1;
export const HW_TREND = HW_LEVEL + 1;
export const HW_LAST = HW_TREND + 1;
export const HW_BUFFER_SUM = HW_LAST + 1;
/** ARI's last value (NaN before the first); its differences are the value window's (models.ts ariDiffBack) */
export const ARI_LAST = HW_BUFFER_SUM + 1;
export const ARI_SINCE_FIT = ARI_LAST + 1;
/** the value window's scalars (ring head, count, deviation search hint; sorted-slots.ts) */
export const VALUE_META = ARI_SINCE_FIT + 1;
// the detectors' running sums of the value window, and their seasonal residuals' statistics
export const DET_SUM = VALUE_META + SORTED_META;
export const DET_SUM_SQ = DET_SUM + 1;
/**
 * the seasonal residuals' block statistics' scalars (error-slots.ts, one "model": the residuals
 * pushed, sigma's combination of the closed blocks); their blocks are StageLayout.residualBlocks
 */
export const RES_STATS = DET_SUM_SQ + 1;
// derived scalars (not saved: a restore's replay rebuilds them)
/** points in a row, up to VALUE_POINTS, that left the models at their zero fixed point (zero-point.ts) */
export const ZERO_RUN = RES_STATS + errorStats(1);
/** the detectors' seasonal residuals in a row, up to RESIDUAL_POINTS, that were +0 (series-detectors.ts) */
export const RES_ZERO_RUN = ZERO_RUN + 1;
/** changes in a row (repeats aside) finer than floats resolve (value-precision.ts) */
export const FINE_RUN = RES_ZERO_RUN + 1;
export const ERROR_STATS = FINE_RUN + 1;
// fixed windows
/** [ARI_PHI, +3): the AR coefficients (of the last ARI_DIFFS differences of the value window) */
export const ARI_PHI = ERROR_STATS + errorStats(MODEL_COUNT);
/**
 * the burst line: its scalars here, its points (the last 20 of the value window's) in the value
 * window's and the times' rings, as the stable line's; its x base follows the stable line's (timeFits)
 */
export const BURST_LINE = ARI_PHI + 3;
/** the stable line: its scalars here (the times' base among them), its points in the value window's and the times' rings */
export const STABLE_LINE = BURST_LINE + LINE_SPLIT_REGION;
const GROWING = STABLE_LINE + LINE_SPLIT_REGION;

const STAGE_ROOMS = [16, 300] as const;

/** where a stage puts the growing windows */
export interface StageLayout {
  /** points the stage has room for */
  readonly room: number;
  /**
   * the value window's ring: value k at valueRing + valueStride * k, a float element of the memory
   * (bytes 4i to 4i + 3; read and written through its Uint16 view, sorted-slots.ts sortedUseFloats),
   * or a double in the WIDE stage
   */
  readonly valueRing: number;
  /** 1; 2 in the WIDE stage, where each value (a double) has its time before it */
  readonly valueStride: number;
  /** the value window's sorted positions (sorted-slots.ts), an element of the memory's Uint16 view (positionsView) */
  readonly valueSorted: number;
  /**
   * the sample times of the last 300 points, as offsets from the stable line's base in the
   * memory's Uint16 view (positionsView): time k's at element times + timeHalves * k (16-bit
   * offsets), its low half there and its high half after it (32-bit offsets); -1 in the WIDE stage
   */
  readonly times: number;
  /** 1 (16-bit offsets: STAGES) or 2 (32-bit: TIMES32); 2 in the WIDE stage, which has none */
  readonly timeHalves: 1 | 2;
  /**
   * WIDE stage only (else -1): the times as doubles, time k at recentX + 2k (valueRing - 1: each
   * before its value, so that the ring is (x, y) pairs the stable line reads as its points)
   */
  readonly recentX: number;
  /** Holt-Winters' season: 240 bfloat16s, elements of the memory's Uint16 view (models.ts hwUpdate) */
  readonly season: number;
  /** the models' residual blocks (error-slots.ts): one for the 16-point stage, six from the 300 stage */
  readonly errorBlocks: number;
  /**
   * the seasonal detector's residuals as block statistics (error-slots.ts SEASONAL_RESIDUAL_BLOCKS,
   * one model; present from the 256 stage: residuals start after one season), not the residuals
   */
  readonly residualBlocks: number;
  readonly size: number;
  /** [offset, length] of every region, for the copy to the next stage */
  readonly regions: readonly (readonly [number, number])[];
}

/** how a stage keeps its times: 16-bit offsets, 32-bit offsets, doubles (WIDE) */
type TimesKind = 16 | 32 | 'wide';

function stageLayout(room: number, kind: TimesKind): StageLayout {
  const wide = kind === 'wide';
  const timeHalves = kind === 16 ? 1 : 2;
  const regions: [number, number][] = [[0, GROWING]];
  let at = GROWING;
  const take = (length: number): number => {
    const start = at;
    regions.push([start, length]);
    at += length;
    return start;
  };
  const points = Math.min(VALUE_POINTS, room);
  // the value ring and the sample times advance together (one slot per point); in the WIDE stage
  // interleaved, time first (the stable line's (x, y) pairs), the times' region then empty
  const recentX = wide ? take(2 * points) : -1;
  // floats (two per Float64), but doubles beside their times in the WIDE stage
  const valueRing = wide ? recentX + 1 : 2 * take(Math.ceil(points / 2));
  // offsets of 16 bits (four per Float64) or 32 bits (two, each two 16-bit halves); an empty region
  // in the WIDE stage, so that regions match by index
  const timesRegion = take(wide ? 0 : Math.ceil((points * timeHalves) / 4));
  const times = wide ? -1 : 4 * timesRegion;
  // 16-bit positions in the ring (sorted-slots.ts): four per Float64
  const valueSorted = 4 * take(Math.ceil(Math.min(VALUE_POINTS, room) / 4));
  // bfloat16s (models.ts hwUpdate): four per Float64
  const season = 4 * take(Math.ceil(Math.min(SEASON, room) / 4));
  // the sufficient statistics of the residuals' blocks, not the residuals (error-slots.ts)
  const errorBlocks = take(errorBlocksSize(MODEL_COUNT, room));
  // a ring of 10 blocks of 20 residuals, whose sigma the detector reads (the last 181-200 residuals)
  const residualBlocks = take(room >= 256 ? errorBlocksSize(1, room, SEASONAL_RESIDUAL_BLOCKS) : 0);
  const valueStride = wide ? 2 : 1;
  return Object.freeze({ room, valueRing, valueStride, valueSorted, times, timeHalves, recentX, season, errorBlocks, residualBlocks, size: at, regions: Object.freeze(regions) });
}

/** the stages a series grows through (its times as 16-bit offsets) */
export const STAGES: readonly StageLayout[] = Object.freeze(STAGE_ROOMS.map((room) => stageLayout(room, 16)));
const LAST_STAGE = STAGES.length - 1;
/** the stage of a series whose times do not all fit 16-bit offsets (widenTimes): all the room, 32-bit offsets */
export const TIMES32 = STAGES.length;
/** the stage of a series whose times do not all fit 32-bit offsets (widenSeriesMemory): all the room, times as doubles */
export const WIDE = TIMES32 + 1;
const LAYOUTS: readonly StageLayout[] = Object.freeze([...STAGES, stageLayout(VALUE_POINTS, 32), stageLayout(VALUE_POINTS, 'wide')]);

/** the layout of the memory's current stage */
export function layoutOf(d: Float64Array): StageLayout {
  return LAYOUTS[(d[STAGE] as number) | 0] as StageLayout;
}

/**
 * The element of the memory's Uint16 view (positionsView) where the time of the value window's point
 * whose value is float element `valueAt` of the memory starts (its low half when the stage has 32-bit
 * offsets); -1 in the WIDE stage, whose times are doubles beside their values. What group
 * prefetching reads to touch the line of a point's time (SeriesEnsemble.touchNextPoint).
 */
export function timeElementOf(layout: StageLayout, valueAt: number): number {
  return layout.times < 0 ? -1 : layout.times + layout.timeHalves * (valueAt - layout.valueRing);
}

/** a fresh series' memory, at the first stage unless told (tests start at the last, or WIDE) */
export function newSeriesMemory(stage = 0): Float64Array {
  const d = new Float64Array((LAYOUTS[stage] as StageLayout).size);
  d[STAGE] = stage;
  d[WEIGHTS] = 1;
  d[EWMA_LEVEL] = Number.NaN;
  d[ARI_LAST] = Number.NaN;
  d[EVICTED] = Number.NaN;
  sortedUseFloats(d, VALUE_META, stage !== WIDE);
  shareLinePoints(d, LAYOUTS[stage] as StageLayout);
  return d;
}

/** the stable and burst lines read their points in the stage's value and time rings (which wrap at VALUE_POINTS once full) */
function shareLinePoints(d: Float64Array, layout: StageLayout): void {
  for (const line of LINES) {
    if (layout.valueStride === 2) lineSharePoints(d, line, layout.recentX, VALUE_POINTS);
    else lineSplitPoints(d, line, layout.valueRing, layout.times, VALUE_POINTS, layout.timeHalves);
  }
}
const LINES = [STABLE_LINE, BURST_LINE] as const;

/**
 * Float element `i` of the memory (its bytes 4i to 4i + 3), read through its Uint16 view `u`
 * (positionsView): its two halves (packed/sixteen-bit.ts), bit for bit the float a Float32Array
 * would read there.
 */
export function memoryFloat(u: Uint16Array, i: number): number {
  return floatFromHalves(u, 2 * i);
}

/** the memory seen as 16-bit integers (the value window's sorted positions: StageLayout.valueSorted) */
export function positionsView(d: Float64Array): Uint16Array {
  return new Uint16Array(d.buffer, d.byteOffset, d.length * 4);
}

/**
 * Reads the word of the memory where value element `at` of the value window is (a double in the
 * WIDE stage, else a float's low half; `u`: positionsView): what prefetching reads to touch its line.
 */
export function touchValue(d: Float64Array, u: Uint16Array, layout: StageLayout, at: number): number {
  return layout.valueStride === 2 ? (d[at] as number) : (u[2 * at] as number);
}

/** the sample time at slot k of the value window's ring (`u`: positionsView) */
export function ringTime(d: Float64Array, u: Uint16Array, k: number): number {
  return lineRingX(d, STABLE_LINE, u, k);
}

/**
 * Whether time x can be stored next as it is (`u`: positionsView): always in the WIDE stage; else
 * when it is the stable line's base plus an offset the stage's times hold, or after moving the
 * base so that it is, which rewrites the stored times' offsets (line-times.ts lineRebase). False:
 * the memory must take wider times first (loosenTimes).
 */
export function timeFits(d: Float64Array, u: Uint16Array, x: number): boolean {
  if ((d[STAGE] as number) === WIDE || lineTimeFits(d, STABLE_LINE, x)) return true;
  if (!lineRebase(d, STABLE_LINE, u, sortedCount(d, VALUE_META), x)) return false;
  // the burst line's points are among the rewritten offsets: its base moves with them
  lineSetXBase(d, BURST_LINE, lineXBase(d, STABLE_LINE));
  return true;
}

/** the memory with wider times (`u`: positionsView): 16-bit offsets as 32-bit ones (widenTimes), 32-bit ones as doubles (widenSeriesMemory) */
export function loosenTimes(d: Float64Array, u: Uint16Array): Float64Array {
  return (d[STAGE] as number) < TIMES32 ? widenTimes(d, u) : widenSeriesMemory(d, u);
}

/**
 * The memory moved from a 16-bit stage to TIMES32 (`u`: positionsView): every region copied to its
 * place there (as growSeriesMemory), the offsets rewritten as 32-bit ones from the same base.
 * Outputs continue bit for bit: the same values, times and order.
 */
function widenTimes(d: Float64Array, u: Uint16Array): Float64Array {
  const from = layoutOf(d);
  const to = LAYOUTS[TIMES32] as StageLayout;
  const next = new Float64Array(to.size);
  for (let r = 0; r < from.regions.length; r += 1) {
    const [start, length] = from.regions[r] as readonly [number, number];
    // the times are region 2 (stageLayout), rewritten below
    if (r !== 2) next.set(d.subarray(start, start + length), (to.regions[r] as readonly [number, number])[0]);
  }
  const p = positionsView(next);
  const slots = Math.min(VALUE_POINTS, from.room);
  // a 16-bit offset is its 32-bit one's low half, the high half 0
  for (let k = 0; k < slots; k += 1) p[to.times + 2 * k] = u[from.times + k] as number;
  next[STAGE] = TIMES32;
  shareLinePoints(next, to);
  return next;
}

/**
 * The memory moved to the WIDE stage from any other (`u`: positionsView): every region copied to its place there, the
 * times and the values as doubles, each time before its value, the sorted positions doubled (a
 * value every other element). Outputs continue bit for bit: the same values, times and order;
 * the values observed next are kept as doubles (value-precision.ts).
 */
export function widenSeriesMemory(d: Float64Array, u: Uint16Array): Float64Array {
  const from = layoutOf(d);
  const to = LAYOUTS[WIDE] as StageLayout;
  const next = new Float64Array(to.size);
  for (let r = 0; r < from.regions.length; r += 1) {
    const [start, length] = from.regions[r] as readonly [number, number];
    // the value ring and the times' are regions 1 and 2 (stageLayout), rewritten below
    if (r === 1 || r === 2) continue;
    next.set(d.subarray(start, start + length), (to.regions[r] as readonly [number, number])[0]);
  }
  const slots = Math.min(VALUE_POINTS, from.room);
  for (let k = 0; k < slots; k += 1) {
    next[to.recentX + 2 * k] = ringTime(d, u, k);
    next[to.valueRing + 2 * k] = memoryFloat(u, from.valueRing + k);
  }
  sortedUseFloats(next, VALUE_META, false);
  const p = positionsView(next);
  const n = sortedCount(d, VALUE_META);
  for (let k = 0; k < n; k += 1) p[to.valueSorted + k] = 2 * (p[to.valueSorted + k] as number);
  next[STAGE] = WIDE;
  shareLinePoints(next, to);
  return next;
}

/** true when the next point needs the next stage's room */
export function needsGrowth(d: Float64Array): boolean {
  const stage = d[STAGE] as number;
  return stage < LAST_STAGE && (d[POINTS] as number) >= (STAGES[stage] as StageLayout).room;
}

/** the memory moved to the next stage: every region copied to its place there */
export function growSeriesMemory(d: Float64Array): Float64Array {
  const stage = d[STAGE] as number;
  const from = STAGES[stage] as StageLayout;
  const to = STAGES[stage + 1] as StageLayout;
  const next = new Float64Array(to.size);
  for (let r = 0; r < from.regions.length; r += 1) {
    const [start, length] = from.regions[r] as readonly [number, number];
    next.set(d.subarray(start, start + length), (to.regions[r] as readonly [number, number])[0]);
  }
  next[STAGE] = stage + 1;
  shareLinePoints(next, to);
  return next;
}
