/**
 * What an owner last wrote to the state topic: per workload the last processed bucket of the
 * state written (or restored), per partition the read position written. A write (checkpoint,
 * hand-over) carries only what moved past it; `confirm` records it once Kafka acknowledged.
 */
import type { AnalysisCore } from '../analysis/contract.js';
import type { ReplayOffsets } from './replay-offsets.js';
import type { OutgoingRecord, SerialProducer } from './serial-producer.js';
import { positionKey, stateKey } from './state-records.js';
import { partitionOf } from './workload-partition.js';

export interface StateWrite {
  messages: OutgoingRecord[];
  /** workload → the last processed bucket its written state holds */
  workloads: [string, number][];
  /** partition → the read position written */
  positions: [number, bigint][];
}

const emptyWrite = (): StateWrite => ({ messages: [], workloads: [], positions: [] });

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
   * bucket since its last write, then the read position where it moved since its last write; as
   * writes of at most `maxBytes` of record values each (a state larger than that alone in its
   * write; Infinity: one write), each state exported and encoded only when its write is asked
   * for: a checkpoint holds one write's states at a time, not every owned workload's (~165-200 KB
   * of JSON each at full windows), and no produce request carries more than the broker takes in
   * one partition's record batch (`message.max.bytes`, 1 MB by default). The read positions go in
   * the last write, after every state: a position counts the records below it as replayed, so it
   * is not stored ahead of the states that hold them. Ask for the next write once the previous
   * one is confirmed: the workloads' buckets are read as each state is exported.
   */
  *writes(include: (partition: number) => boolean, maxBytes: number): Generator<StateWrite> {
    let out = emptyWrite();
    let bytes = 0;
    for (const key of this.core.workloadKeys()) {
      const last = this.core.lastProcessedBucket(key);
      if (last === undefined || last === (this.bucket.get(key) ?? Number.NEGATIVE_INFINITY)) continue;
      const p = partitionOf(key, this.partitions);
      if (!include(p)) continue;
      const state = this.core.exportWorkload(key);
      if (state === undefined) continue;
      const value = JSON.stringify(state);
      if (out.messages.length > 0 && bytes + value.length > maxBytes) {
        yield out;
        out = emptyWrite();
        bytes = 0;
      }
      out.messages.push({ topic: this.topic, partition: p, key: stateKey(key), value });
      out.workloads.push([key, last]);
      bytes += value.length;
    }
    for (const p of this.replay.partitions()) {
      const next = this.replay.nextOffset(p);
      if (next === undefined || !include(p) || next === this.position.get(p)) continue;
      out.messages.push({ topic: this.topic, partition: p, key: positionKey(p), value: String(next) });
      out.positions.push([p, next]);
    }
    if (out.messages.length > 0) yield out;
  }

  /** Kafka acknowledged `write`: record what of it is still this owner's (`keep`) */
  confirm(write: StateWrite, keep: (partition: number) => boolean): void {
    for (const [key, bucket] of write.workloads) if (keep(partitionOf(key, this.partitions))) this.bucket.set(key, bucket);
    for (const [p, offset] of write.positions) if (keep(p)) this.position.set(p, offset);
  }
}

/** record values a state write carries at most (StateLedger.writes): half of Kafka's default `message.max.bytes` */
export const STATE_WRITE_BYTES = 512 * 1024;

/**
 * Sends the ledger's pending records of the partitions `include` accepts write by write
 * (StateLedger.writes), each confirmed for the partitions `keep` accepts once Kafka acknowledged
 * it; resolves to the number of states written. A failed send rejects: the writes confirmed
 * before it stay confirmed, the rest stays pending for the next call.
 */
export async function sendPendingStates(ledger: StateLedger, producer: Pick<SerialProducer, 'send'>, include: (partition: number) => boolean, keep: (partition: number) => boolean, maxBytes = STATE_WRITE_BYTES): Promise<number> {
  let states = 0;
  for (const write of ledger.writes(include, maxBytes)) {
    await producer.send(write.messages);
    ledger.confirm(write, keep);
    states += write.workloads.length;
  }
  return states;
}
