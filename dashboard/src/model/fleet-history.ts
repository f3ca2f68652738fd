/**
 * Recent FusedR values per workload for the fleet sparklines: one point per distinct snapshot
 * timestamp, the newest `capacity` kept. Seeded from the stored history when a workload view
 * loads it, fed by every poll of /ruptures.
 */
export interface SparkPoint {
  t: number;
  r: number;
}

export class FleetHistory {
  private readonly series = new Map<string, SparkPoint[]>();

  constructor(private readonly capacity = 60) {}

  add(key: string, t: number, r: number): void {
    if (!Number.isFinite(t) || !Number.isFinite(r)) return;
    const list = this.series.get(key) ?? [];
    const last = list[list.length - 1];
    if (last !== undefined && t <= last.t) {
      if (t === last.t) last.r = r;
      return;
    }
    list.push({ t, r });
    if (list.length > this.capacity) list.splice(0, list.length - this.capacity);
    this.series.set(key, list);
  }

  points(key: string): readonly SparkPoint[] {
    return this.series.get(key) ?? [];
  }

  forget(keep: ReadonlySet<string>): void {
    for (const key of [...this.series.keys()]) if (!keep.has(key)) this.series.delete(key);
  }
}

/** SVG polyline points for values in a `width` × `height` box; y grows down, FusedR axis 0..max(4, peak). */
export function sparklinePath(points: readonly SparkPoint[], width: number, height: number): string {
  if (points.length === 0) return '';
  const first = points[0]!.t;
  const last = points[points.length - 1]!.t;
  const span = Math.max(1, last - first);
  const top = Math.max(4, ...points.map((p) => p.r));
  return points
    .map((p) => {
      const x = points.length === 1 ? width : ((p.t - first) / span) * width;
      const y = height - (Math.max(0, p.r) / top) * height;
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
}
