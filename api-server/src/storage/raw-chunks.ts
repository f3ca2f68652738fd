/**
 * The raw tier's layout in LevelDB (analytics.md §11: 15-s metric means kept 7 days): the means a
 * tick hands over are stored as one entry per series and clock hour, not one per 15-s mean. A live
 * series hands over one mean a tick, so it still makes one entry a tick; a backfill that catches
 * up on an hour of a series in one tick makes one entry where it made 240 (the shared ingest
 * comparison's round: 4 032 puts instead of 1 000 000, docs/ingest-performance.md).
 *
 * Key: `<first mean's bucket start>!<workload>!<metric>!<last mean's bucket start>`, times as
 * 15-digit milliseconds, so entries sort by their first mean and an hour's entries of two ticks
 * never share a key. Value: the means as flat triples `[t, mean, count, t, mean, count, ...]` in
 * the order handed over.
 *
 * Entries written before this layout, `<bucket start>!<workload>!<metric>` → `[mean, count]`,
 * are still read (`readRawEntry`); both age out with the 7-day retention.
 */

export interface RawMetricPoint {
  workload: string;
  metric: string;
  bucketStartMs: number;
  mean: number;
  count: number;
}

/** one raw mean as read back */
export interface RawMean {
  t: number;
  mean: number;
  count: number;
}

/** the span one entry covers at most: a read of [from, to] starts its scan at the hour of `from` */
export const RAW_CHUNK_MS = 3_600_000;

export const padTime = (t: number): string => Math.max(0, Math.floor(t)).toString().padStart(15, '0');

/** the start of the clock hour holding `t` (where a read of the raw tier from `t` starts) */
export const rawChunkStart = (t: number): number => Math.floor(t / RAW_CHUNK_MS) * RAW_CHUNK_MS;

interface Chunk {
  first: number;
  last: number;
  /** flat (t, mean, count) triples */
  value: number[];
}

/**
 * Groups raw means into their entries, one mean at a time (so that a caller can pause between
 * means while it groups a large tick): by workload, metric and clock hour, with no string made per
 * mean.
 */
export class RawChunks {
  private readonly byWorkload = new Map<string, Map<string, Map<number, Chunk>>>();

  add(p: RawMetricPoint): void {
    let byMetric = this.byWorkload.get(p.workload);
    if (byMetric === undefined) {
      byMetric = new Map();
      this.byWorkload.set(p.workload, byMetric);
    }
    let byHour = byMetric.get(p.metric);
    if (byHour === undefined) {
      byHour = new Map();
      byMetric.set(p.metric, byHour);
    }
    const hour = rawChunkStart(p.bucketStartMs);
    const chunk = byHour.get(hour);
    if (chunk === undefined) byHour.set(hour, { first: p.bucketStartMs, last: p.bucketStartMs, value: [p.bucketStartMs, p.mean, p.count] });
    else {
      if (p.bucketStartMs < chunk.first) chunk.first = p.bucketStartMs;
      if (p.bucketStartMs > chunk.last) chunk.last = p.bucketStartMs;
      chunk.value.push(p.bucketStartMs, p.mean, p.count);
    }
  }

  /** the entries of every mean added, each mean once, in the order added within its entry */
  entries(): { key: string; value: number[] }[] {
    const out: { key: string; value: number[] }[] = [];
    for (const [workload, byMetric] of this.byWorkload) {
      for (const [metric, byHour] of byMetric) {
        for (const c of byHour.values()) out.push({ key: `${padTime(c.first)}!${workload}!${metric}!${padTime(c.last)}`, value: c.value });
      }
    }
    return out;
  }
}

/** The entries of `points` at once (RawChunks, for callers that need no pauses). */
export function rawChunks(points: readonly RawMetricPoint[]): { key: string; value: number[] }[] {
  const chunks = new RawChunks();
  for (const p of points) chunks.add(p);
  return chunks.entries();
}

/**
 * The means of `series` (`<workload>!<metric>`) in one stored entry, whatever its layout: the
 * hourly entry's triples, or the single mean of an entry written before it; none when the entry is
 * another series' or its value is not one of the two shapes.
 */
export function readRawEntry(key: string, value: unknown, series: string): RawMean[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'number')) return [];
  const numbers = value as number[];
  const first = key.indexOf('!');
  if (numbers.length === 2) {
    return key.slice(first + 1) === series ? [{ t: Number(key.slice(0, first)), mean: numbers[0]!, count: numbers[1]! }] : [];
  }
  if (numbers.length % 3 !== 0 || key.slice(first + 1, key.lastIndexOf('!')) !== series) return [];
  const out: RawMean[] = [];
  for (let i = 0; i < numbers.length; i += 3) out.push({ t: numbers[i]!, mean: numbers[i + 1]!, count: numbers[i + 2]! });
  return out;
}
