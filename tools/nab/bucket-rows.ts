/**
 * Rows as the service sees them: the analysis runs on 15-second buckets, so rows whose timestamps
 * fall in one bucket become one point, their mean, at the bucket's end (analytics.md §1.2). NAB
 * files repeat a timestamp at daylight-saving changes; this is where those rows meet.
 */
export const BUCKET_MS = 15_000;

export interface BucketPoint {
  /** end of the bucket, epoch ms */
  endMs: number;
  /** mean of the rows' values */
  value: number;
  /** index of the bucket's first row and one past its last */
  firstRow: number;
  endRow: number;
}

/** `times` ascending epoch ms (equal times allowed), `values` the same length. */
export function bucketRows(times: ArrayLike<number>, values: ArrayLike<number>, bucketMs = BUCKET_MS): BucketPoint[] {
  const out: BucketPoint[] = [];
  let i = 0;
  while (i < times.length) {
    const endMs = (Math.floor((times[i] as number) / bucketMs) + 1) * bucketMs;
    let sum = 0;
    let j = i;
    while (j < times.length && (Math.floor((times[j] as number) / bucketMs) + 1) * bucketMs === endMs) {
      sum += values[j] as number;
      j += 1;
    }
    out.push({ endMs, value: sum / (j - i), firstRow: i, endRow: j });
    i = j;
  }
  return out;
}
