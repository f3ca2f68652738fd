/**
 * The models' signed one-step residuals over the last hour as sufficient statistics of blocks of
 * ERROR_BLOCK (40) points, functions over regions of a Float64Array: no residual is kept.
 *
 * Per model and block, four doubles: the residuals' count n, their mean, M2 (the sum of squared
 * deviations from that mean, Welford's update within the block) and the sum of their absolute
 * values. The blocks are a ring of ERROR_BLOCKS (6) slots; the newest holds the block in progress
 * (1 to 40 points), and a push that starts a new block empties the oldest slot first. So:
 * - MAE and MSE (weights, confidence) are over the points of the 6 newest blocks: the last
 *   201 to 240 points (201 right after a block starts, 240 when it completes), never more than the
 *   last 240. MSE's sum of squares is, per block, M2 + n * mean^2 (two non-negative terms).
 * - sigma (forecast bands, read per request) is over the 5 newest blocks: the last 161 to 200
 *   points, the blocks' (n, mean, M2) combined with Chan et al.'s parallel formula. That adds
 *   non-negative terms only; sum of squares minus n * mean^2 would subtract two numbers that agree
 *   in all their digits when the residuals are large and barely vary (a model that is off by 3000
 *   +- 0.001: the difference keeps none of sigma's digits), Welford and Chan keep them.
 * Block size: 40 points (10 minutes) keeps the windows within 40 points (17 %) of the 240 and 200
 * they were over a ring of residuals, at 960 bytes a series instead of 4 800 (20-point blocks:
 * 1 920); docs/memory.md has the evaluation of both sizes.
 *
 * The MAE/MSE window's sums of the blocks before the one in progress (count, sum of |e|, sum of
 * squares per model) are kept among the scalars: they change only when a block starts, so the sums
 * are added up then, oldest block first as errorWindowSums adds them, and a read adds the block in
 * progress to them: the same additions in the same order, so the same bits, reading two blocks'
 * worth of lines instead of six (the weights are read every fourth point, the fused series'
 * confidence every step).
 *
 * Every function takes the blocks' shape (BlockShape: points a block, blocks in the ring, the newest
 * of them sigma reads), the models' by default; the seasonal detector keeps its residuals in a
 * region of its own shape (SEASONAL_RESIDUAL_BLOCKS), of which it reads only sigma.
 *
 * Regions: `errorStats(models)` scalars at `st` (the points pushed, then the closed blocks' sums),
 * and the blocks at `bl`: slot
 * s at bl + s * models * FIELDS, model m's four fields next (a push writes one slot: 160 bytes for
 * five models). A region sized for fewer points (`errorBlocksSize(models, room)`) holds the first
 * blocks: while the ring fills, block b is in slot b, so a larger region takes them as a prefix.
 *
 * A residual NaN (the model made no forecast) adds nothing; one beyond ±FLT_MAX counts as ±FLT_MAX
 * (as the ring of floats held it), so that no sum overflows. A model forecasts at every point once
 * it is usable (usability only grows).
 */
export const ERROR_WINDOW = 240;
export const ERROR_BLOCK = 40;
export const ERROR_BLOCKS = ERROR_WINDOW / ERROR_BLOCK;
/** the blocks sigma reads: 200 points at most */
export const SIGMA_BLOCKS = 200 / ERROR_BLOCK;

/** a region's blocks: points a block, blocks in the ring, the newest of them sigma reads */
export interface BlockShape {
  readonly block: number;
  readonly blocks: number;
  readonly sigmaBlocks: number;
}
/** the ensemble models' residuals (the default of every function here) */
export const MODEL_ERROR_BLOCKS: BlockShape = Object.freeze({ block: ERROR_BLOCK, blocks: ERROR_BLOCKS, sigmaBlocks: SIGMA_BLOCKS });
/**
 * the seasonal detector's residuals (anomaly/series-detectors.ts): only sigma is read, over the
 * last 181-200 residuals (10 blocks of 20; with 5 of 40, 161-200, its NAB score fell from 22.9
 * to 19.6, docs/memory.md)
 */
export const SEASONAL_RESIDUAL_BLOCKS: BlockShape = Object.freeze({ block: 20, blocks: 10, sigmaBlocks: 10 });

// at st: the points pushed, then per model the closed blocks' count, sum of |e| and sum of squares
const POINTS = 0;
const CLOSED = 1;
const CLOSED_COUNT = 0;
const CLOSED_ABS = 1;
const CLOSED_SQ = 2;
const CLOSED_FIELDS = 3;
// per model in a block
const N = 0;
const MEAN = 1;
const M2 = 2;
const SUM_ABS = 3;
export const ERROR_FIELDS = 4;

/** the largest finite float: the bound of a residual */
const FLOAT_MAX = 3.4028234663852886e38;

/** size of the scalars region for `models` models */
export const errorStats = (models: number): number => CLOSED + CLOSED_FIELDS * models;

/** size of the blocks region of `models` models for `room` points (at most the shape's ring of blocks) */
export const errorBlocksSize = (models: number, room: number, shape = MODEL_ERROR_BLOCKS): number => Math.min(shape.blocks, Math.ceil(room / shape.block)) * models * ERROR_FIELDS;

export function errorPoints(d: Float64Array, st: number): number {
  return d[st + POINTS] as number;
}

/** the element where the next push writes (the first of its block's slot) */
export function errorNextAt(d: Float64Array, st: number, bl: number, models: number, shape = MODEL_ERROR_BLOCKS): number {
  const { block, blocks } = shape;
  const points = (d[st + POINTS] as number) | 0;
  return bl + (((points / block) | 0) % blocks) * models * ERROR_FIELDS;
}

/** one point: `residuals[m]` is model m's residual, NaN when it made no forecast */
export function errorPush(d: Float64Array, st: number, bl: number, models: number, residuals: Float64Array, shape = MODEL_ERROR_BLOCKS): void {
  const { block, blocks } = shape;
  // an integer held in Float64 memory: `| 0` keeps the arithmetic in int32
  const points = (d[st + POINTS] as number) | 0;
  const slot = bl + (((points / block) | 0) % blocks) * models * ERROR_FIELDS;
  // a new block empties its slot (the oldest block's, once the ring is full)
  if (points % block === 0) {
    d.fill(0, slot, slot + models * ERROR_FIELDS);
    sumClosedBlocks(d, st, bl, models, points, block, blocks);
  }
  for (let m = 0; m < models; m += 1) {
    let e = residuals[m] as number;
    if (Number.isNaN(e)) continue;
    if (e > FLOAT_MAX) e = FLOAT_MAX;
    else if (e < -FLOAT_MAX) e = -FLOAT_MAX;
    const s = slot + m * ERROR_FIELDS;
    const n = (d[s + N] as number) + 1;
    const mean = d[s + MEAN] as number;
    const delta = e - mean;
    const next = mean + delta / n;
    d[s + N] = n;
    d[s + MEAN] = next;
    d[s + M2] = (d[s + M2] as number) + delta * (e - next);
    d[s + SUM_ABS] = (d[s + SUM_ABS] as number) + Math.abs(e);
  }
  d[st + POINTS] = points + 1;
}

/**
 * errorPush of +0 for every model when the block in progress holds +0 residuals only, for every
 * model (the zero fixed point, zero-point.ts: its last 300 points were such): a new block's slot
 * becomes n 1, mean, M2 and sum +0 (what errorPush's emptying and update of +0 leave); in a block
 * in progress only the counts move (+0 + (+0 - +0) / n is +0, +0 + +0 * +0 is +0, +0 + |+0| is +0).
 */
export function errorPushZeros(d: Float64Array, st: number, bl: number, models: number, shape = MODEL_ERROR_BLOCKS): void {
  const { block, blocks } = shape;
  const points = (d[st + POINTS] as number) | 0;
  const slot = bl + (((points / block) | 0) % blocks) * models * ERROR_FIELDS;
  if (points % block === 0) {
    d.fill(0, slot, slot + models * ERROR_FIELDS);
    sumClosedBlocks(d, st, bl, models, points, block, blocks);
    for (let m = 0; m < models; m += 1) d[slot + m * ERROR_FIELDS + N] = 1;
  } else {
    for (let m = 0; m < models; m += 1) d[slot + m * ERROR_FIELDS + N] = (d[slot + m * ERROR_FIELDS + N] as number) + 1;
  }
  d[st + POINTS] = points + 1;
}

/** the slot index of the oldest of the `held` newest blocks (the newest is the block in progress) */
function oldestSlot(points: number, held: number, block: number, blocks: number): number {
  const newest = ((points - 1) / block) | 0;
  return (newest - held + 1) % blocks;
}

/** the blocks holding points, at most `most` */
function heldBlocks(points: number, most: number, block: number): number {
  return Math.min(most, Math.ceil(points / block));
}

/**
 * The closed blocks' sums at a block's start (`points`: the points pushed before its first), per
 * model over the blocks before it that stay in the MAE/MSE window (at most ERROR_BLOCKS - 1),
 * added oldest first from 0, so that errorWindowSums' adding the block in progress last gives a
 * sweep's sums bit for bit. A block's sum of squares is M2 + n * mean^2 (two non-negative terms).
 */
function sumClosedBlocks(d: Float64Array, st: number, bl: number, models: number, points: number, block: number, blocks: number): void {
  const closed = Math.min(blocks - 1, (points / block) | 0);
  const stride = models * ERROR_FIELDS;
  const sums = st + CLOSED;
  d.fill(0, sums, sums + CLOSED_FIELDS * models);
  let i = (((points / block) | 0) - closed) % blocks;
  for (let b = 0; b < closed; b += 1) {
    let s = bl + i * stride;
    let c = sums;
    for (let m = 0; m < models; m += 1, s += ERROR_FIELDS, c += CLOSED_FIELDS) {
      const k = d[s + N] as number;
      const mean = d[s + MEAN] as number;
      d[c + CLOSED_COUNT] = (d[c + CLOSED_COUNT] as number) + k;
      d[c + CLOSED_ABS] = (d[c + CLOSED_ABS] as number) + (d[s + SUM_ABS] as number);
      // an empty block holds n = mean = M2 = 0: adds 0
      d[c + CLOSED_SQ] = (d[c + CLOSED_SQ] as number) + ((d[s + M2] as number) + k * mean * mean);
    }
    i = i === blocks - 1 ? 0 : i + 1;
  }
}

/**
 * every model's count, sum of |e| and sum of e^2 over the 6 newest blocks (the MAE/MSE window:
 * MAE = sumAbs / count, MSE = sumSq / count): `counts[m]`, `sumAbs[m]`, `sumSq[m]` for m <
 * models. Each is the closed blocks' sum (sumClosedBlocks, kept since the block in progress
 * started) plus the block in progress's: every block's term added oldest block first.
 */
export function errorWindowSums(d: Float64Array, st: number, bl: number, models: number, counts: Float64Array, sumAbs: Float64Array, sumSq: Float64Array, shape = MODEL_ERROR_BLOCKS): void {
  const { block, blocks } = shape;
  const points = (d[st + POINTS] as number) | 0;
  if (points === 0) {
    counts.fill(0, 0, models);
    sumAbs.fill(0, 0, models);
    sumSq.fill(0, 0, models);
    return;
  }
  let s = bl + (((points - 1) / block) | 0) % blocks * models * ERROR_FIELDS;
  let c = st + CLOSED;
  for (let m = 0; m < models; m += 1, s += ERROR_FIELDS, c += CLOSED_FIELDS) {
    const k = d[s + N] as number;
    const mean = d[s + MEAN] as number;
    counts[m] = (d[c + CLOSED_COUNT] as number) + k;
    sumAbs[m] = (d[c + CLOSED_ABS] as number) + (d[s + SUM_ABS] as number);
    sumSq[m] = (d[c + CLOSED_SQ] as number) + ((d[s + M2] as number) + k * mean * mean);
  }
}

/**
 * population standard deviation of model m's residuals in the 5 newest blocks (the last 161 to
 * 200 points), 0 with fewer than two: the blocks' (n, mean, M2) combined oldest first (Chan et al.)
 */
export function errorSigma(d: Float64Array, st: number, bl: number, models: number, m: number, shape = MODEL_ERROR_BLOCKS): number {
  const { block, blocks } = shape;
  const points = (d[st + POINTS] as number) | 0;
  const held = heldBlocks(points, shape.sigmaBlocks, block);
  const stride = models * ERROR_FIELDS;
  let i = oldestSlot(points, held, block, blocks);
  let n = 0;
  let mean = 0;
  let m2 = 0;
  for (let b = 0; b < held; b += 1) {
    const s = bl + i * stride + m * ERROR_FIELDS;
    i = i === blocks - 1 ? 0 : i + 1;
    const k = d[s + N] as number;
    if (k === 0) continue;
    if (n === 0) {
      n = k;
      mean = d[s + MEAN] as number;
      m2 = d[s + M2] as number;
      continue;
    }
    const total = n + k;
    const delta = (d[s + MEAN] as number) - mean;
    mean += (delta * k) / total;
    m2 += (d[s + M2] as number) + ((delta * delta * n) / total) * k;
    n = total;
  }
  return n < 2 ? 0 : Math.sqrt(m2 / n);
}
