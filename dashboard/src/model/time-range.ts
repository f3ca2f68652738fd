/**
 * The x range of the FusedR history chart, in epoch seconds: the selected span ending now (or at
 * the last point when it is later), so one point, a few points and a year of points all sit on
 * the span's own time axis (uPlot's automatic range around a single point runs over years).
 */
export function historyRange(times: readonly number[], spanMs: number, nowMs: number): [number, number] {
  let last = Number.NEGATIVE_INFINITY;
  for (const t of times) if (Number.isFinite(t) && t > last) last = t;
  const end = Math.max(Number.isFinite(nowMs) ? nowMs : 0, last);
  const span = Number.isFinite(spanMs) && spanMs > 0 ? spanMs : 3_600_000;
  return [(end - span) / 1000, end / 1000];
}

/**
 * The time axis' label template (uPlot.fmtDate) for a span in seconds: the time of day up to a
 * day, the date and time up to 60 days, the date with its year beyond. A label names its own
 * moment, so a test (and a reader) can tell one hour ending now from years away.
 */
export function axisTemplate(spanSeconds: number): string {
  if (!(spanSeconds > 24 * 3600)) return '{HH}:{mm}';
  if (spanSeconds <= 60 * 24 * 3600) return '{MMM} {D} {HH}:{mm}';
  return '{MMM} {D} {YYYY}';
}

/** the least room (px) between two time-axis labels for the template: wider labels, fewer ticks */
export function axisSpace(template: string): number {
  return template === '{HH}:{mm}' ? 60 : 120;
}
