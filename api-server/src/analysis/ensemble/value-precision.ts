/**
 * Whether a series' values can be kept as floats (series-memory.ts: the value window's ring holds
 * 4 bytes a value outside the WIDE stage, docs/memory.md "The value window in floats").
 *
 * A float has 24 significant bits: a value keeps about 7 decimal digits, a step of 2^-23 to 2^-24
 * of its magnitude. Telemetry changes by far more than that from point to point (a latency, a rate,
 * a count of requests), and rounding it moves the analysis' outputs by less than the noise does
 * (measured on NAB and the alert evaluation, docs/memory.md). Two kinds of series it would not
 * serve, which keep doubles for good (the WIDE stage):
 *
 * - a value a float does not hold at all: beyond its range (|y| > 3.4e38, which would round to ∞)
 *   or below its normal range (0 < |y| < 2^-126, which would lose digits or become 0);
 * - a series whose changes a float does not resolve: a large counter or timestamp moving by a few
 *   units (near 1e9 a float's step is 64, so a counter moving by 10 would look flat, then jump by
 *   64). A change under 2^-17 of the values' magnitude (fewer than 32 to 64 float steps) is "fine";
 *   FINE_RUN_LIMIT fine changes in a row, with repeats of the last value between them not breaking
 *   the run, move the series to doubles. A noisy series meets a fine change by chance now and then
 *   (the run then ends at its next coarse change); FINE_RUN_LIMIT in a row is what a series that
 *   moves in fine steps does.
 *
 * The changes are measured between the values as given (LAST_Y keeps the last one so), so a
 * steady value that is not a float (0.3 each step) is no change at all.
 */
import { FINE_RUN, LAST_Y, POINTS } from './series-memory.js';

/** the largest float (a larger double rounds to ∞ or to it) */
const FLOAT_MAX = 3.4028234663852886e38;
/** the smallest normal float: below it a float has fewer than 24 significant bits */
const FLOAT_MIN_NORMAL = 2 ** -126;
/** a change smaller than this share of the values' magnitude is finer than 32 to 64 float steps */
const FINE_SHARE = 2 ** -17;
/** fine changes in a row (repeats aside) that move a series to doubles */
export const FINE_RUN_LIMIT = 8;

/** whether a float holds y with a float's full precision: 0, or a normal float's magnitude */
export function floatHolds(y: number): boolean {
  const a = Math.abs(y);
  return a <= FLOAT_MAX && (a >= FLOAT_MIN_NORMAL || a === 0);
}

/**
 * Whether the series whose float memory is `d` must keep its values as doubles from y on (y finite,
 * before observe writes it): y is not held by a float, or it ends a run of FINE_RUN_LIMIT fine
 * changes. Counts the run in the memory's FINE_RUN.
 */
export function needsDoubles(d: Float64Array, y: number): boolean {
  if (!floatHolds(y)) return true;
  if ((d[POINTS] as number) === 0) return false;
  const last = d[LAST_Y] as number;
  const change = Math.abs(y - last);
  // a repeat neither starts nor ends a run
  if (change === 0) return false;
  if (change >= FINE_SHARE * Math.max(Math.abs(y), Math.abs(last))) {
    d[FINE_RUN] = 0;
    return false;
  }
  const run = (d[FINE_RUN] as number) + 1;
  d[FINE_RUN] = run;
  return run >= FINE_RUN_LIMIT;
}
