/**
 * The models' signed one-step residuals over the last hour (240 points) with running sums, as
 * functions over regions of a Float64Array: each model's MAE and MSE are O(1) to read; the sums
 * are recomputed exactly every 1000 points to bound drift. The sigma of a model's residuals over
 * the last 200 points (forecast bands only, read per request, not per point) is computed when
 * asked, exactly, from the ring.
 *
 * Regions: `errorStats(models)` scalars at `st` of a Float64Array (points pushed, then three
 * running sums per model), and the ring at `ring` of a Float32Array (`r`: a view of the same
 * memory, or another), one slot per point holding every model's residual side by side (NaN: the
 * model made no forecast there), so a point writes one cache line, not five.
 *
 * The ring holds residuals in single precision (half the memory: 4.7 KB per full series instead
 * of 9.4), and the sums add exactly the stored values (a residual rounded to the nearest float,
 * beyond ±FLT_MAX the largest float of its sign), so that a value leaving the ring takes out what
 * it brought in. The weights and confidence read these sums: their relative difference from
 * double-precision residuals is of order 1e-7 (docs/memory.md measures the outputs). The ring needs room
 * for points + 1 slots while it fills and 240 once full. A model forecasts at every point once it
 * is usable (usability only grows), so "its residuals over the last 240 points" are "its last 240
 * residuals". Zeros are an empty record.
 */
export const ERROR_RING = 240;
const SIGMA_WINDOW = 200;
const RECOMPUTE_EVERY = 1000;

// at st: the points pushed; per-model sums at st + 1 + m * STATS + field
const POINTS = 0;
const COUNT = 0;
const SUM_ABS = 1;
const SUM_SQ = 2;
const STATS = 3;

/** the largest finite float */
const FLOAT_MAX = 3.4028234663852886e38;

/** a residual as the ring holds it: the nearest float, ±FLOAT_MAX beyond the floats' range; NaN stays */
function stored(e: number): number {
  const f = Math.fround(e);
  return f === Number.POSITIVE_INFINITY ? FLOAT_MAX : f === Number.NEGATIVE_INFINITY ? -FLOAT_MAX : f;
}

/** size of the scalars region for `models` models */
export const errorStats = (models: number): number => 1 + models * STATS;

export function errorPoints(d: Float64Array, st: number): number {
  return d[st + POINTS] as number;
}

export function errorCount(d: Float64Array, st: number, m: number): number {
  return d[st + 1 + m * STATS + COUNT] as number;
}

/** the ring element where the next push writes model 0's residual (the other models' follow) */
export function errorNextAt(d: Float64Array, st: number, ring: number, models: number): number {
  return ring + (((d[st + POINTS] as number) | 0) % ERROR_RING) * models;
}

/** one point: `residuals[m]` is model m's residual, NaN when it made no forecast */
export function errorPush(d: Float64Array, st: number, r: Float32Array, ring: number, models: number, residuals: Float64Array): void {
  // an integer held in Float64 memory: `| 0` keeps the ring arithmetic in int32 (no fmod)
  const points = (d[st + POINTS] as number) | 0;
  const slot = ring + (points % ERROR_RING) * models;
  const full = points >= ERROR_RING;
  for (let m = 0; m < models; m += 1) {
    const s = st + 1 + m * STATS;
    if (full) {
      const old = r[slot + m] as number;
      if (!Number.isNaN(old)) {
        d[s + COUNT] = (d[s + COUNT] as number) - 1;
        d[s + SUM_ABS] = (d[s + SUM_ABS] as number) - Math.abs(old);
        d[s + SUM_SQ] = (d[s + SUM_SQ] as number) - old * old;
      }
    }
    const e = stored(residuals[m] as number);
    r[slot + m] = e;
    if (Number.isNaN(e)) continue;
    d[s + COUNT] = (d[s + COUNT] as number) + 1;
    d[s + SUM_ABS] = (d[s + SUM_ABS] as number) + Math.abs(e);
    d[s + SUM_SQ] = (d[s + SUM_SQ] as number) + e * e;
  }
  d[st + POINTS] = points + 1;
  if ((points + 1) % RECOMPUTE_EVERY === 0) recompute(d, st, r, ring, models);
}

/**
 * errorPush of +0 for every model into a full ring whose slot to be replaced holds +0 for every
 * model (the zero fixed point, zero-point.ts), without reading or writing the ring's slot: the
 * counts stay (one out, one in); of errorPush's `- |+0|` and `+ |+0|` on the sums only the
 * second can change a sum (x - +0 is x for every x, while -0 + +0 is +0), so only it is kept.
 */
export function errorPushZeros(d: Float64Array, st: number, r: Float32Array, ring: number, models: number): void {
  const points = (d[st + POINTS] as number) | 0;
  for (let m = 0; m < models; m += 1) {
    const s = st + 1 + m * STATS;
    d[s + SUM_ABS] = (d[s + SUM_ABS] as number) + 0;
    d[s + SUM_SQ] = (d[s + SUM_SQ] as number) + 0;
  }
  d[st + POINTS] = points + 1;
  if ((points + 1) % RECOMPUTE_EVERY === 0) recompute(d, st, r, ring, models);
}

/** model m's k-th oldest residual, k < count(m) */
export function errorAt(d: Float64Array, st: number, r: Float32Array, ring: number, models: number, m: number, k: number): number {
  const points = (d[st + POINTS] as number) | 0;
  const held = Math.min(points, ERROR_RING);
  const p = points - held + (held - errorCount(d, st, m)) + k;
  return r[ring + (p % ERROR_RING) * models + m] as number;
}

export function errorMae(d: Float64Array, st: number, m: number): number {
  const s = st + 1 + m * STATS;
  return Math.max(0, d[s + SUM_ABS] as number) / (d[s + COUNT] as number);
}

export function errorMse(d: Float64Array, st: number, m: number): number {
  const s = st + 1 + m * STATS;
  return Math.max(0, d[s + SUM_SQ] as number) / (d[s + COUNT] as number);
}

/**
 * population standard deviation of model m's residuals over the last 200 points: their mean, then
 * the squared deviations from it (two passes over the ring, exact; 0 with fewer than two)
 */
export function errorSigma(d: Float64Array, st: number, r: Float32Array, ring: number, models: number, m: number): number {
  const points = (d[st + POINTS] as number) | 0;
  const from = Math.max(0, points - SIGMA_WINDOW);
  let n = 0;
  let sum = 0;
  for (let p = from; p < points; p += 1) {
    const e = r[ring + (p % ERROR_RING) * models + m] as number;
    if (Number.isNaN(e)) continue;
    n += 1;
    sum += e;
  }
  if (n < 2) return 0;
  const mean = sum / n;
  let m2 = 0;
  for (let p = from; p < points; p += 1) {
    const e = r[ring + (p % ERROR_RING) * models + m] as number;
    if (!Number.isNaN(e)) m2 += (e - mean) * (e - mean);
  }
  return Math.sqrt(m2 / n);
}

function recompute(d: Float64Array, st: number, r: Float32Array, ring: number, models: number): void {
  const points = (d[st + POINTS] as number) | 0;
  const held = Math.min(points, ERROR_RING);
  for (let m = 0; m < models; m += 1) {
    let count = 0;
    let sumAbs = 0;
    let sumSq = 0;
    for (let p = points - held; p < points; p += 1) {
      const e = r[ring + (p % ERROR_RING) * models + m] as number;
      if (Number.isNaN(e)) continue;
      count += 1;
      sumAbs += Math.abs(e);
      sumSq += e * e;
    }
    const s = st + 1 + m * STATS;
    d[s + COUNT] = count;
    d[s + SUM_ABS] = sumAbs;
    d[s + SUM_SQ] = sumSq;
  }
}
