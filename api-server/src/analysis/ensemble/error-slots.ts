/**
 * The models' signed one-step residuals over the last hour as sufficient statistics of blocks of
 * ERROR_BLOCK (40) points, functions over regions of a Float64Array: no residual is kept.
 *
 * Per model and block: the residuals' count n, their mean, M2 (the sum of squared deviations
 * from that mean, Welford's update within the block) and the sum of their absolute values. The
 * block's counts, at most 40 each, are one double for all its models, six bits a model (count m
 * is bits 6m to 6m + 5: up to five models in 30 bits, integer arithmetic in int32); each model's
 * mean, M2 and sum are three doubles after it. Five models take 16 doubles a block, not 20 with a
 * double a count (192 bytes fewer over a series' six blocks); one model keeps 4. The blocks are a
 * ring of ERROR_BLOCKS (6) slots; the newest holds the block in progress (1 to 40 points), and a
 * push that starts a new block empties the oldest slot first. So:
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
 * 1 920; 768 now, the counts packed); docs/memory.md has the evaluation of both sizes.
 *
 * The MAE/MSE window's sums of the blocks before the one in progress (count, sum of |e|, sum of
 * squares per model) are kept among the scalars: they change only when a block starts, so the sums
 * are added up then, oldest block first as errorWindowSums adds them, and a read adds the block in
 * progress to them: the same additions in the same order, so the same bits, reading two blocks'
 * worth of lines instead of six (the weights are read every fourth point, the fused series'
 * confidence every step).
 *
 * Every function takes the blocks' shape (BlockShape: points a block, blocks in the ring, the newest
 * of them sigma reads, what is kept of the closed blocks), the models' by default; the seasonal
 * detector keeps its residuals in a region of its own shape (SEASONAL_RESIDUAL_BLOCKS), of which it
 * reads only sigma, at every point: its scalars keep sigma's combination of the closed blocks
 * instead of the MAE/MSE sums.
 *
 * Regions: `errorStats(models)` scalars at `st` (the points pushed, then what is kept of the closed blocks),
 * and the blocks at `bl`: slot s at bl + s * errorBlockStride(models), its counts first, then model
 * m's three fields at 1 + m * ERROR_FIELDS (a push writes one slot: 128 bytes for five models).
 * A region sized for fewer points (`errorBlocksSize(models, room)`) holds the first
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
  /**
   * what the scalars keep of the closed blocks, computed when a block starts: `sums`, the MAE/MSE
   * window's sums (errorWindowSums; sigma sweeps its blocks when read); `sigma`, sigma's combination
   * of them (count, mean, M2), to which errorSigma adds the block in progress (for a region read
   * for sigma at every point and never for MAE/MSE)
   */
  readonly closed: 'sums' | 'sigma';
}
/** the ensemble models' residuals (the default of every function here) */
export const MODEL_ERROR_BLOCKS: BlockShape = Object.freeze({ block: ERROR_BLOCK, blocks: ERROR_BLOCKS, sigmaBlocks: SIGMA_BLOCKS, closed: 'sums' });
/**
 * the seasonal detector's residuals (anomaly/series-detectors.ts): only sigma is read, over the
 * last 181-200 residuals (10 blocks of 20; with 5 of 40, 161-200, its NAB score fell from 22.9
 * to 19.6, docs/memory.md)
 */
export const SEASONAL_RESIDUAL_BLOCKS: BlockShape = Object.freeze({ block: 20, blocks: 10, sigmaBlocks: 10, closed: 'sigma' });

// at st: the points pushed, then per model the closed blocks' count, sum of |e| and sum of squares
// (shape.closed 'sums'), or sigma's count, mean and M2 of them ('sigma')
const POINTS = 0;
const CLOSED = 1;
const CLOSED_COUNT = 0;
const CLOSED_ABS = 1;
const CLOSED_SQ = 2;
const CLOSED_MEAN = 1;
const CLOSED_M2 = 2;
const CLOSED_FIELDS = 3;
// a block: its models' counts (COUNT_BITS each, model m's at bit COUNT_BITS * m), then per model
// its fields
const COUNTS = 0;
const COUNT_BITS = 6;
const COUNT_MASK = (1 << COUNT_BITS) - 1;
/** the most models a block's one double of counts holds (int32 arithmetic) */
const MAX_BLOCK_MODELS = 5;
// per model in a block, from the block's element 1 + m * ERROR_FIELDS
const MEAN = 0;
const M2 = 1;
const SUM_ABS = 2;
export const ERROR_FIELDS = 3;

/** elements a block takes for `models` models: their counts, then their fields */
export const errorBlockStride = (models: number): number => 1 + models * ERROR_FIELDS;

/** model m's count in a block whose counts double is `counts` */
const countOf = (counts: number, m: number): number => (counts >>> (COUNT_BITS * m)) & COUNT_MASK;

/** a block's counts double with every one of `models` models' counts 1 */
function onePerModel(models: number): number {
  let ones = 0;
  for (let m = 0; m < models; m += 1) ones += 1 << (COUNT_BITS * m);
  return ones;
}
const ONES = Array.from({ length: MAX_BLOCK_MODELS + 1 }, (_, models) => onePerModel(models));

/** the largest finite float: the bound of a residual */
const FLOAT_MAX = 3.4028234663852886e38;

/** size of the scalars region for `models` models */
export const errorStats = (models: number): number => CLOSED + CLOSED_FIELDS * models;

/** size of the blocks region of `models` models for `room` points (at most the shape's ring of blocks) */
export function errorBlocksSize(models: number, room: number, shape = MODEL_ERROR_BLOCKS): number {
  if (!Number.isInteger(models) || models < 1 || models > MAX_BLOCK_MODELS) throw new RangeError(`residual blocks hold 1 to ${MAX_BLOCK_MODELS} models, got ${models}`);
  if (shape.block > COUNT_MASK) throw new RangeError(`a residual block holds at most ${COUNT_MASK} points, got ${shape.block}`);
  return Math.min(shape.blocks, Math.ceil(room / shape.block)) * errorBlockStride(models);
}

export function errorPoints(d: Float64Array, st: number): number {
  return d[st + POINTS] as number;
}

/** the element where the next push writes (the first of its block's slot) */
export function errorNextAt(d: Float64Array, st: number, bl: number, models: number, shape = MODEL_ERROR_BLOCKS): number {
  const { block, blocks } = shape;
  const points = (d[st + POINTS] as number) | 0;
  return bl + (((points / block) | 0) % blocks) * errorBlockStride(models);
}

/** one point: `residuals[m]` is model m's residual, NaN when it made no forecast */
export function errorPush(d: Float64Array, st: number, bl: number, models: number, residuals: Float64Array, shape = MODEL_ERROR_BLOCKS): void {
  const { block, blocks } = shape;
  // an integer held in Float64 memory: `| 0` keeps the arithmetic in int32
  const points = (d[st + POINTS] as number) | 0;
  const slot = bl + (((points / block) | 0) % blocks) * errorBlockStride(models);
  // a new block empties its slot (the oldest block's, once the ring is full)
  if (points % block === 0) {
    d.fill(0, slot, slot + errorBlockStride(models));
    closeBlocks(d, st, bl, models, points, shape);
  }
  let counts = (d[slot + COUNTS] as number) | 0;
  for (let m = 0; m < models; m += 1) {
    let e = residuals[m] as number;
    if (Number.isNaN(e)) continue;
    if (e > FLOAT_MAX) e = FLOAT_MAX;
    else if (e < -FLOAT_MAX) e = -FLOAT_MAX;
    const s = slot + 1 + m * ERROR_FIELDS;
    const n = countOf(counts, m) + 1;
    counts += 1 << (COUNT_BITS * m);
    const mean = d[s + MEAN] as number;
    const delta = e - mean;
    const next = mean + delta / n;
    d[s + MEAN] = next;
    d[s + M2] = (d[s + M2] as number) + delta * (e - next);
    d[s + SUM_ABS] = (d[s + SUM_ABS] as number) + Math.abs(e);
  }
  d[slot + COUNTS] = counts;
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
  const slot = bl + (((points / block) | 0) % blocks) * errorBlockStride(models);
  if (points % block === 0) {
    d.fill(0, slot, slot + errorBlockStride(models));
    closeBlocks(d, st, bl, models, points, shape);
    d[slot + COUNTS] = ONES[models] as number;
  } else {
    d[slot + COUNTS] = (d[slot + COUNTS] as number) + (ONES[models] as number);
  }
  d[st + POINTS] = points + 1;
}

/** the slot index of the newest block, the one in progress (points > 0) */
function newestSlot(points: number, block: number, blocks: number): number {
  return (((points - 1) / block) | 0) % blocks;
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

/** what the scalars keep of the closed blocks (shape.closed), at a block's start (`points`: the points pushed before its first) */
function closeBlocks(d: Float64Array, st: number, bl: number, models: number, points: number, shape: BlockShape): void {
  if (shape.closed === 'sums') sumClosedBlocks(d, st, bl, models, points, shape.block, shape.blocks);
  else sigmaClosedBlocks(d, st, bl, models, points, shape);
}

/**
 * Sigma's combination of the closed blocks it reads with the block that starts (`points`: the
 * points pushed before its first): the min(sigmaBlocks - 1, points / block) blocks before it, per
 * model, combined oldest first as errorSigma's sweep combines them, so that errorSigma's adding the
 * block in progress to it gives the sweep's sigma bit for bit.
 */
function sigmaClosedBlocks(d: Float64Array, st: number, bl: number, models: number, points: number, shape: BlockShape): void {
  const closed = Math.min(shape.sigmaBlocks - 1, (points / shape.block) | 0);
  const first = (((points / shape.block) | 0) - closed) % shape.blocks;
  for (let m = 0, c = st + CLOSED; m < models; m += 1, c += CLOSED_FIELDS) {
    chanSweep(d, bl, models, m, first, closed, shape.blocks);
    d[c + CLOSED_COUNT] = CHAN[CHAN_N] as number;
    d[c + CLOSED_MEAN] = CHAN[CHAN_MEAN] as number;
    d[c + CLOSED_M2] = CHAN[CHAN_M2] as number;
  }
}

/**
 * The closed blocks' sums at a block's start (`points`: the points pushed before its first), per
 * model over the blocks before it that stay in the MAE/MSE window (at most ERROR_BLOCKS - 1),
 * added oldest first from 0, so that errorWindowSums' adding the block in progress last gives a
 * sweep's sums bit for bit. A block's sum of squares is M2 + n * mean^2 (two non-negative terms).
 */
function sumClosedBlocks(d: Float64Array, st: number, bl: number, models: number, points: number, block: number, blocks: number): void {
  const closed = Math.min(blocks - 1, (points / block) | 0);
  const stride = errorBlockStride(models);
  const sums = st + CLOSED;
  d.fill(0, sums, sums + CLOSED_FIELDS * models);
  let i = (((points / block) | 0) - closed) % blocks;
  for (let b = 0; b < closed; b += 1) {
    const counts = (d[bl + i * stride + COUNTS] as number) | 0;
    let s = bl + i * stride + 1;
    let c = sums;
    for (let m = 0; m < models; m += 1, s += ERROR_FIELDS, c += CLOSED_FIELDS) {
      const k = countOf(counts, m);
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
 * (a `sums` shape's region only)
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
  const slot = bl + newestSlot(points, block, blocks) * errorBlockStride(models);
  const blockCounts = (d[slot + COUNTS] as number) | 0;
  let s = slot + 1;
  let c = st + CLOSED;
  for (let m = 0; m < models; m += 1, s += ERROR_FIELDS, c += CLOSED_FIELDS) {
    const k = countOf(blockCounts, m);
    const mean = d[s + MEAN] as number;
    counts[m] = (d[c + CLOSED_COUNT] as number) + k;
    sumAbs[m] = (d[c + CLOSED_ABS] as number) + (d[s + SUM_ABS] as number);
    sumSq[m] = (d[c + CLOSED_SQ] as number) + ((d[s + M2] as number) + k * mean * mean);
  }
}

/**
 * population standard deviation of model m's residuals in the 5 newest blocks (the last 161 to
 * 200 points; the shape's sigmaBlocks), 0 with fewer than two: the blocks' (n, mean, M2) combined
 * oldest first (Chan et al.). A `sigma` shape keeps the closed blocks' combination since the block
 * in progress started (sigmaClosedBlocks) and adds that block to it: the same operations in the
 * same order, so the same bits, reading one block instead of ten.
 */
export function errorSigma(d: Float64Array, st: number, bl: number, models: number, m: number, shape = MODEL_ERROR_BLOCKS): number {
  const { block, blocks } = shape;
  const points = (d[st + POINTS] as number) | 0;
  if (shape.closed === 'sigma') {
    if (points === 0) return 0;
    // the closed blocks' combination, kept since the block in progress started, then that block
    const c = st + CLOSED + m * CLOSED_FIELDS;
    CHAN[CHAN_N] = d[c + CLOSED_COUNT] as number;
    CHAN[CHAN_MEAN] = d[c + CLOSED_MEAN] as number;
    CHAN[CHAN_M2] = d[c + CLOSED_M2] as number;
    chanAdd(d, bl + newestSlot(points, block, blocks) * errorBlockStride(models), m);
  } else {
    const held = heldBlocks(points, shape.sigmaBlocks, block);
    chanSweep(d, bl, models, m, oldestSlot(points, held, block, blocks), held, blocks);
  }
  const n = CHAN[CHAN_N] as number;
  return n < 2 ? 0 : Math.sqrt((CHAN[CHAN_M2] as number) / n);
}

/** (count, mean, M2) of a combination of blocks (chanSweep, chanAdd): one array for every region, as the calls are synchronous */
const CHAN = new Float64Array(3);
const CHAN_N = 0;
const CHAN_MEAN = 1;
const CHAN_M2 = 2;

/** CHAN := model m's `count` blocks from slot `first` on, combined oldest first */
function chanSweep(d: Float64Array, bl: number, models: number, m: number, first: number, count: number, blocks: number): void {
  CHAN.fill(0);
  const stride = errorBlockStride(models);
  let i = first;
  for (let b = 0; b < count; b += 1) {
    chanAdd(d, bl + i * stride, m);
    i = i === blocks - 1 ? 0 : i + 1;
  }
}

/** CHAN combined with model m's part of the block at `b` (Chan et al.; an empty block adds nothing) */
function chanAdd(d: Float64Array, b: number, m: number): void {
  const k = countOf((d[b + COUNTS] as number) | 0, m);
  if (k === 0) return;
  const s = b + 1 + m * ERROR_FIELDS;
  const n = CHAN[CHAN_N] as number;
  if (n === 0) {
    CHAN[CHAN_N] = k;
    CHAN[CHAN_MEAN] = d[s + MEAN] as number;
    CHAN[CHAN_M2] = d[s + M2] as number;
    return;
  }
  const total = n + k;
  const delta = (d[s + MEAN] as number) - (CHAN[CHAN_MEAN] as number);
  CHAN[CHAN_MEAN] = (CHAN[CHAN_MEAN] as number) + (delta * k) / total;
  CHAN[CHAN_M2] = (CHAN[CHAN_M2] as number) + ((d[s + M2] as number) + ((delta * delta * n) / total) * k);
  CHAN[CHAN_N] = total;
}
