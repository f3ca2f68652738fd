/**
 * The zero fixed point of a series' models: a series that reads exactly +0 for a while (FusedR of
 * a workload that sends metrics only, fatigue while rested, an error rate of a healthy service)
 * reaches a state that a further +0 leaves as it is, except for its counters, ring heads and
 * sample times. Past it, SeriesEnsemble.observe and detectPoint skip the work whose result they
 * know: the five forecasts (+0 again), the residual slot (+0 over +0), the differences' and the
 * season's slots, the median and the deviation's search. Every skip is exact: the state after it
 * is bit for bit the state the full update would leave (test/unit/ensemble/zero-point.test.ts).
 *
 * A point leaves the models at the fixed point when y is +0 and, after its update:
 * - the forecasts it was compared with were all +0 (so were the residuals it stored);
 * - Holt-Winters' level and trend, and the season value it wrote, are +0 (past the first season);
 * - the EWMA level is +0; the difference ARI stored is +0;
 * - the stable line's y mean is +0 and its co-moment zero (it predicts +0 at every x).
 * After VALUE_POINTS such points in a row (the longest window), every window holds +0 only, and
 * each of the forecasts of the next point is +0 again; a point of +0 then keeps all of the above.
 */
import { lineFlatAtZero } from '../regression/line-slots.js';
import { ariNewestDiff } from './models.js';
import { EWMA_LEVEL, HW_LEVEL, HW_N, HW_TREND, MODEL_COUNT, ONE_STEP, SEASON, STABLE_LINE, VALUE_POINTS, ZERO_RUN, type StageLayout } from './series-memory.js';
import { fromBfloat16 } from '../packed/sixteen-bit.js';

/** whether the models are at the fixed point: the last VALUE_POINTS full updates left them there */
export function zeroPointReached(d: Float64Array): boolean {
  return (d[ZERO_RUN] as number) >= VALUE_POINTS;
}

/** whether the next point of y can take the shortcuts: y is +0 and the models are at the fixed point */
export function atZeroPoint(d: Float64Array, y: number): boolean {
  return Object.is(y, 0) && zeroPointReached(d);
}

/** after a full update with y: whether it left the models at the fixed point (see above) */
export function leftAtZeroPoint(d: Float64Array, u: Uint16Array, layout: StageLayout, y: number): boolean {
  if (!Object.is(y, 0)) return false;
  for (let m = 0; m < MODEL_COUNT; m += 1) if (!Object.is(d[ONE_STEP + m], 0)) return false;
  // a +0 Holt-Winters forecast means the first season is over: the update wrote the season slot of point HW_N (a bfloat16)
  const seasonWritten = layout.season + ((((d[HW_N] as number) | 0) - 1) % SEASON);
  return (
    Object.is(d[HW_LEVEL], 0) &&
    Object.is(d[HW_TREND], 0) &&
    Object.is(fromBfloat16(u[seasonWritten] as number), 0) &&
    Object.is(d[EWMA_LEVEL], 0) &&
    Object.is(ariNewestDiff(d, u, layout), 0) &&
    lineFlatAtZero(d, STABLE_LINE)
  );
}

/** counts a full update: one more point at the fixed point (up to VALUE_POINTS), or none in a row */
export function countZeroRun(d: Float64Array, u: Uint16Array, layout: StageLayout, y: number): void {
  d[ZERO_RUN] = leftAtZeroPoint(d, u, layout, y) ? Math.min(VALUE_POINTS, (d[ZERO_RUN] as number) + 1) : 0;
}
