/**
 * Where a new owner must start reading a telemetry partition so that nothing is lost and nothing
 * counted twice (pure; no Kafka, no clock).
 *
 * The analysis state written at a checkpoint holds every processed bucket, but not the open ones
 * (still gathering samples). So the offset committed for a partition is the offset of its oldest
 * record whose bucket is not processed yet (or the next offset when every record is settled). A
 * new owner restores the state and reads from there: records of processed buckets are refused
 * as late by the analysis (no double count), records of open buckets are added again (no loss).
 *
 * Per partition, a FIFO of consumed records: offset, workload, and the bucket of its latest
 * sample. A record is settled once its workload's last processed bucket reached that bucket,
 * or when the workload is not in the analysis at all (every sample was refused).
 */
export interface ProcessedBuckets {
  /**
   * the workload's last processed bucket index: −Infinity while the analysis holds it with none
   * processed yet (its records stay unsettled), undefined when the analysis does not hold it
   */
  lastProcessedBucket(workload: string): number | undefined;
}

interface Pending {
  offset: bigint;
  workload: string;
  bucket: number;
}

export class ReplayOffsets {
  private readonly pending = new Map<number, Pending[]>();
  private readonly next = new Map<number, bigint>();

  /** a record was handed to the analysis */
  consumed(partition: number, offset: bigint, workload: string, bucket: number): void {
    let list = this.pending.get(partition);
    if (list === undefined) {
      list = [];
      this.pending.set(partition, list);
    }
    if (Number.isFinite(bucket)) list.push({ offset, workload, bucket });
    const n = this.next.get(partition);
    if (n === undefined || offset + 1n > n) this.next.set(partition, offset + 1n);
  }

  /** the partition continues at `offset` (restored from the committed offset) */
  startAt(partition: number, offset: bigint): void {
    this.pending.set(partition, []);
    this.next.set(partition, offset);
  }

  /** the next offset not yet handed over, undefined before the first record or startAt */
  nextOffset(partition: number): bigint | undefined {
    return this.next.get(partition);
  }

  /** the offset to commit: the oldest unsettled record, else the next offset */
  replayFrom(partition: number, processed: ProcessedBuckets): bigint | undefined {
    const list = this.pending.get(partition);
    const next = this.next.get(partition);
    if (list === undefined || next === undefined) return next;
    let settled = 0;
    while (settled < list.length) {
      const p = list[settled] as Pending;
      const last = processed.lastProcessedBucket(p.workload);
      if (last !== undefined && last < p.bucket) break;
      settled += 1;
    }
    if (settled > 0) list.splice(0, settled);
    const head = list[0];
    return head === undefined ? next : head.offset;
  }

  /** records waiting to settle (bounded by about two buckets of traffic) */
  waiting(partition: number): number {
    return this.pending.get(partition)?.length ?? 0;
  }

  forget(partition: number): void {
    this.pending.delete(partition);
    this.next.delete(partition);
  }

  partitions(): number[] {
    return [...this.next.keys()];
  }
}
