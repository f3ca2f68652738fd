/**
 * What a persisted series holds (`{points: [[x, y], ...]}`, the last 300 points a series ensemble
 * or a series' detectors replay on restore), validated: anything else restores nothing.
 */
export function replayPoints(state: unknown): [number, number][] {
  if (typeof state !== 'object' || state === null || !Array.isArray((state as { points?: unknown }).points)) return [];
  return ((state as { points: unknown[] }).points).filter(
    (p): p is [number, number] => Array.isArray(p) && p.length === 2 && Number.isFinite(p[0]) && Number.isFinite(p[1]),
  );
}

/** whether a persisted series kept its values as doubles (`doubles: true`; series-ensemble.ts), so that its replay does too */
export function replayKeepsDoubles(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as { doubles?: unknown }).doubles === true;
}
