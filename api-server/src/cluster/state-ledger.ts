/**
 * What an owner last wrote to the state topic: per workload the last processed bucket of the
 * state written (or restored), per partition the read position written. A write (checkpoint,
 * hand-over) carries only what moved past it; `confirm` records it once Kafka acknowledged.
 */
import type { AnalysisCore } from '../analysis/contract.js';
import type { ReplayOffsets } from './replay-offsets.js';
import type { OutgoingRecord } from './serial-producer.js';
import { positionKey, stateKey } from './state-records.js';
import { partitionOf } from './workload-partition.js';

export interface StateWrite {
  messages: OutgoingRecord[];
  /** workload → the last processed bucket its written state holds */
  workloads: [string, number][];
  /** partition → the read position written */
  positions: [number, bigint][];
}

export class StateLedger {
  private readonly bucket = new Map<string, number>();
  private readonly position = new Map<number, bigint>();

  constructor(
    private readonly core: AnalysisCore,
    private readonly replay: ReplayOffsets,
    private readonly topic: string,
    private readonly partitions: number,
  ) {}

  /** a workload imported from the state topic: its state there is the one it holds */
  restoredWorkload(workload: string): void {
    this.bucket.set(workload, this.core.lastProcessedBucket(workload) ?? Number.NEGATIVE_INFINITY);
  }

  restoredPosition(partition: number, offset: bigint): void {
    this.position.set(partition, offset);
  }

  forgetWorkload(workload: string): void {
    this.bucket.delete(workload);
  }

  forgetPartition(partition: number): void {
    this.position.delete(partition);
  }

  /**
   * The records of partitions `include` accepts: the state of every workload that processed a
   * bucket since its last write, and the read position where it moved since its last write.
   */
  pending(include: (partition: number) => boolean): StateWrite {
    const out: StateWrite = { messages: [], workloads: [], positions: [] };
    for (const p of this.replay.partitions()) {
      const next = this.replay.nextOffset(p);
      if (next === undefined || !include(p) || next === this.position.get(p)) continue;
      out.messages.push({ topic: this.topic, partition: p, key: positionKey(p), value: String(next) });
      out.positions.push([p, next]);
    }
    for (const key of this.core.workloadKeys()) {
      const last = this.core.lastProcessedBucket(key);
      if (last === undefined || last === (this.bucket.get(key) ?? Number.NEGATIVE_INFINITY)) continue;
      const p = partitionOf(key, this.partitions);
      if (!include(p)) continue;
      const state = this.core.exportWorkload(key);
      if (state === undefined) continue;
      out.messages.push({ topic: this.topic, partition: p, key: stateKey(key), value: JSON.stringify(state) });
      out.workloads.push([key, last]);
    }
    return out;
  }

  /** Kafka acknowledged `write`: record what of it is still this owner's (`keep`) */
  confirm(write: StateWrite, keep: (partition: number) => boolean): void {
    for (const [key, bucket] of write.workloads) if (keep(partitionOf(key, this.partitions))) this.bucket.set(key, bucket);
    for (const [p, offset] of write.positions) if (keep(p)) this.position.set(p, offset);
  }
}
