/**
 * The models' signed one-step residuals over the last hour (240 points) with running sums, as
 * functions over regions of a Float64Array: each model's MAE, MSE and the sigma of its residuals
 * over the last 200 points are O(1) to read; the sums are recomputed exactly every 1000 points to
 * bound drift.
 *
 * Regions: `errorStats(models)` scalars at `st` (points pushed, then six running figures per model),
 * and the ring at `ring`, one slot per point holding every model's residual side by side (NaN: the
 * model made no forecast there), so a point writes one cache line, not five. The ring needs room
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
// the last 200 residuals' count, mean and sum of squared deviations from the mean (updated as
// points enter and leave, Welford-style: a sum of squares minus the squared mean would lose the
// sigma of large residuals that barely vary)
const COUNT_200 = 3;
const MEAN_200 = 4;
const M2_200 = 5;
const STATS = 6;

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

/**
 * The ring element of model 0's residual that the next push takes out of the 200-point sigma
 * window (the other models' follow), or -1 while fewer than 200 points were pushed.
 */
export function errorLeavingAt(d: Float64Array, st: number, ring: number, models: number): number {
  const points = (d[st + POINTS] as number) | 0;
  return points >= SIGMA_WINDOW ? ring + ((points - SIGMA_WINDOW) % ERROR_RING) * models : -1;
}

/** one point: `residuals[m]` is model m's residual, NaN when it made no forecast */
export function errorPush(d: Float64Array, st: number, ring: number, models: number, residuals: Float64Array): void {
  // an integer held in Float64 memory: `| 0` keeps the ring arithmetic in int32 (no fmod)
  const points = (d[st + POINTS] as number) | 0;
  const slot = ring + (points % ERROR_RING) * models;
  const slot200 = points >= SIGMA_WINDOW ? ring + ((points - SIGMA_WINDOW) % ERROR_RING) * models : -1;
  const full = points >= ERROR_RING;
  for (let m = 0; m < models; m += 1) {
    const s = st + 1 + m * STATS;
    if (full) {
      const old = d[slot + m] as number;
      if (!Number.isNaN(old)) {
        d[s + COUNT] = (d[s + COUNT] as number) - 1;
        d[s + SUM_ABS] = (d[s + SUM_ABS] as number) - Math.abs(old);
        d[s + SUM_SQ] = (d[s + SUM_SQ] as number) - old * old;
      }
    }
    if (slot200 >= 0) {
      const leaving = d[slot200 + m] as number;
      if (!Number.isNaN(leaving)) windowRemove(d, s, leaving);
    }
    const e = residuals[m] as number;
    d[slot + m] = e;
    if (Number.isNaN(e)) continue;
    d[s + COUNT] = (d[s + COUNT] as number) + 1;
    d[s + SUM_ABS] = (d[s + SUM_ABS] as number) + Math.abs(e);
    d[s + SUM_SQ] = (d[s + SUM_SQ] as number) + e * e;
    windowAdd(d, s, e);
  }
  d[st + POINTS] = points + 1;
  if ((points + 1) % RECOMPUTE_EVERY === 0) recompute(d, st, ring, models);
}

/** model m's k-th oldest residual, k < count(m) */
export function errorAt(d: Float64Array, st: number, ring: number, models: number, m: number, k: number): number {
  const points = (d[st + POINTS] as number) | 0;
  const held = Math.min(points, ERROR_RING);
  const p = points - held + (held - errorCount(d, st, m)) + k;
  return d[ring + (p % ERROR_RING) * models + m] as number;
}

export function errorMae(d: Float64Array, st: number, m: number): number {
  const s = st + 1 + m * STATS;
  return Math.max(0, d[s + SUM_ABS] as number) / (d[s + COUNT] as number);
}

export function errorMse(d: Float64Array, st: number, m: number): number {
  const s = st + 1 + m * STATS;
  return Math.max(0, d[s + SUM_SQ] as number) / (d[s + COUNT] as number);
}

/** population standard deviation of model m's residuals over the last 200 points */
export function errorSigma(d: Float64Array, st: number, m: number): number {
  const s = st + 1 + m * STATS;
  const n = d[s + COUNT_200] as number;
  if (n < 2) return 0;
  return Math.sqrt(Math.max(0, d[s + M2_200] as number) / n);
}

/** residual e enters model stats `s`'s 200-point window */
function windowAdd(d: Float64Array, s: number, e: number): void {
  const n = (d[s + COUNT_200] as number) + 1;
  const mean = d[s + MEAN_200] as number;
  const delta = e - mean;
  const meanNew = mean + delta / n;
  d[s + COUNT_200] = n;
  d[s + MEAN_200] = meanNew;
  d[s + M2_200] = (d[s + M2_200] as number) + delta * (e - meanNew);
}

/** residual e leaves model stats `s`'s 200-point window */
function windowRemove(d: Float64Array, s: number, e: number): void {
  const n = (d[s + COUNT_200] as number) - 1;
  if (n <= 0) {
    d[s + COUNT_200] = 0;
    d[s + MEAN_200] = 0;
    d[s + M2_200] = 0;
    return;
  }
  const mean = d[s + MEAN_200] as number;
  const meanNew = mean - (e - mean) / n;
  d[s + COUNT_200] = n;
  d[s + MEAN_200] = meanNew;
  d[s + M2_200] = (d[s + M2_200] as number) - (e - mean) * (e - meanNew);
}

function recompute(d: Float64Array, st: number, ring: number, models: number): void {
  const points = (d[st + POINTS] as number) | 0;
  const held = Math.min(points, ERROR_RING);
  for (let m = 0; m < models; m += 1) {
    let count = 0;
    let sumAbs = 0;
    let sumSq = 0;
    let count200 = 0;
    let sum200 = 0;
    for (let k = 0; k < held; k += 1) {
      const p = points - held + k;
      const e = d[ring + (p % ERROR_RING) * models + m] as number;
      if (Number.isNaN(e)) continue;
      count += 1;
      sumAbs += Math.abs(e);
      sumSq += e * e;
      if (p >= points - SIGMA_WINDOW) {
        count200 += 1;
        sum200 += e;
      }
    }
    // the 200-point window's mean, then the squared deviations from it (two passes, exact)
    const mean200 = count200 > 0 ? sum200 / count200 : 0;
    let m2 = 0;
    for (let p = Math.max(points - SIGMA_WINDOW, points - held); p < points; p += 1) {
      const e = d[ring + (p % ERROR_RING) * models + m] as number;
      if (!Number.isNaN(e)) m2 += (e - mean200) * (e - mean200);
    }
    const s = st + 1 + m * STATS;
    d[s + COUNT] = count;
    d[s + SUM_ABS] = sumAbs;
    d[s + SUM_SQ] = sumSq;
    d[s + COUNT_200] = count200;
    d[s + MEAN_200] = mean200;
    d[s + M2_200] = m2;
  }
}
