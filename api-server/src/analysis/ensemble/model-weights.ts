/**
 * The ensemble's weights and confidence from the models' residuals (analytics.md §5.3, §5.5): a
 * model's weight is its inverse MAE over the residual window, normalised and floored at 0.05 (a
 * model with fewer than 5 residuals has none); the confidence is 1 / (1 + the models' mean MSE),
 * a model without residuals counting 1. Both read every model's counts and sums in one pass over
 * the residual blocks (error-slots.ts errorWindowSums), at `bl` of a series' memory.
 */
import { CA_ILR } from './models.js';
import { errorWindowSums } from './error-slots.js';
import { ERROR_STATS, MODEL_COUNT, WEIGHTS } from './series-memory.js';

const WEIGHT_FLOOR = 0.05;
// scratch of one call (synchronous, so one array serves every series)
const INVERSE = new Float64Array(MODEL_COUNT);
const COUNTS = new Float64Array(MODEL_COUNT);
const SUM_ABS = new Float64Array(MODEL_COUNT);
const SUM_SQ = new Float64Array(MODEL_COUNT);

/** the confidence of the ensemble whose residual blocks are at `bl` of `d` */
export function confidenceOf(d: Float64Array, bl: number): number {
  errorWindowSums(d, ERROR_STATS, bl, MODEL_COUNT, COUNTS, SUM_ABS, SUM_SQ);
  let total = 0;
  for (let m = 0; m < MODEL_COUNT; m += 1) {
    const n = COUNTS[m] as number;
    total += n === 0 ? 1 : (SUM_SQ[m] as number) / n;
  }
  const c = 1 / (1 + total / MODEL_COUNT);
  return Number.isFinite(c) ? c : 0;
}

/** the weights from the models' MAE, written at WEIGHTS of `d`; `bl`: where the residual blocks are */
export function reweigh(d: Float64Array, bl: number): void {
  const inv = INVERSE;
  let total = 0;
  errorWindowSums(d, ERROR_STATS, bl, MODEL_COUNT, COUNTS, SUM_ABS, SUM_SQ);
  for (let m = 0; m < MODEL_COUNT; m += 1) {
    const n = COUNTS[m] as number;
    inv[m] = n < 5 ? Number.NaN : 1 / Math.max((SUM_ABS[m] as number) / n, 1e-9);
    if (!Number.isNaN(inv[m] as number)) total += inv[m] as number;
  }
  if (total === 0) {
    d.fill(0, WEIGHTS, WEIGHTS + MODEL_COUNT);
    d[WEIGHTS + CA_ILR] = 1;
    return;
  }
  let sum = 0;
  for (let m = 0; m < MODEL_COUNT; m += 1) {
    const v = inv[m] as number;
    const w = Number.isNaN(v) ? 0 : Math.max(v / total, WEIGHT_FLOOR);
    d[WEIGHTS + m] = w;
    sum += w;
  }
  for (let m = 0; m < MODEL_COUNT; m += 1) d[WEIGHTS + m] = (d[WEIGHTS + m] as number) / sum;
}
