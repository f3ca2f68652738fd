/**
 * Raw metric points for the 7-day raw tier (analytics.md §11): the mean of every (workload, metric)
 * per 15-second bucket of sample time, accumulated as records are drained and handed to storage
 * once a later bucket of the same series has started (or at shutdown). Bounded: at most
 * `maxOpen` open buckets; beyond that the oldest are flushed early.
 *
 * A workload's open buckets are one row of doubles (start, sum, count, opening number per metric
 * slot) beside its metric names: no object per bucket while it is open, only the RawPoint it
 * becomes when handed over (docs/memory.md, "The V8 heap per workload").
 */
import type { MetricRecord } from '../model/records.js';

export const RAW_BUCKET_MS = 15_000;

export interface RawPoint {
  workload: string;
  metric: string;
  bucketStartMs: number;
  mean: number;
  count: number;
}

/** queue slots of handed-over buckets tolerated beyond twice the open ones before compacting */
const QUEUE_SLACK = 1024;

/** numbers per metric slot of a row: the bucket's start, the sum of its values, their count (0: no open bucket), its opening number */
const START = 0;
const SUM = 1;
const COUNT = 2;
const OPENED = 3;
const SLOT = 4;

/** a workload's open buckets, by metric slot */
interface Row {
  workload: string;
  metrics: string[];
  /** SLOT numbers per metric */
  v: number[];
  /** slots with an open bucket */
  open: number;
}

export class RawPointBuckets {
  /** each workload with an open bucket: its row */
  private readonly rows = new Map<string, Row>();
  /**
   * buckets in the order they were opened, as (row, slot, opening number) in three arrays; an
   * entry is live while its slot is open with that opening number (the bound evicts the first)
   */
  private queueRows: Row[] = [];
  private queueSlots: number[] = [];
  private queueOpened: number[] = [];
  private head = 0;
  private size = 0;
  /** buckets opened so far: each opening's number (a double: it passes 2^31 within days) */
  private opened = 0;
  private done: RawPoint[] = [];

  constructor(
    private readonly maxOpen = 200_000,
    private readonly queueSlack = QUEUE_SLACK,
  ) {}

  /** open buckets (series with a bucket not handed over yet) */
  get openCount(): number {
    return this.size;
  }

  add(record: MetricRecord): void {
    const bucketStartMs = Math.floor(record.timeMs / RAW_BUCKET_MS) * RAW_BUCKET_MS;
    let row = this.rows.get(record.workload);
    if (row === undefined) {
      row = { workload: record.workload, metrics: [], v: [], open: 0 };
      this.rows.set(record.workload, row);
    }
    let slot = row.metrics.indexOf(record.name);
    if (slot < 0) {
      slot = row.metrics.length;
      row.metrics.push(record.name);
      // doubles from the start (0.5, then overwritten), so the array keeps them unboxed
      for (let i = 0; i < SLOT; i++) row.v.push(0.5);
      row.v[slot * SLOT + COUNT] = 0;
    }
    const v = row.v;
    const at = slot * SLOT;
    if (v[at + COUNT]! > 0) {
      if (v[at + START] === bucketStartMs) {
        v[at + SUM] += record.value;
        v[at + COUNT] += 1;
        return;
      }
      if (bucketStartMs < v[at + START]!) return; // late sample of a bucket already handed over: the analysis has it, the raw tier keeps the first mean
      this.finish(row, slot);
    }
    v[at + START] = bucketStartMs;
    v[at + SUM] = record.value;
    v[at + COUNT] = 1;
    v[at + OPENED] = this.opened;
    row.open += 1;
    this.queueRows.push(row);
    this.queueSlots.push(slot);
    this.queueOpened.push(this.opened);
    this.opened += 1;
    this.size += 1;
    if (this.size > this.maxOpen) this.evictOldest();
    if (this.queueRows.length - this.head > 2 * this.size + this.queueSlack) this.compact();
  }

  /** Finished buckets since the last call; with `all`, the open ones too (shutdown). */
  take(all = false): RawPoint[] {
    if (all) {
      for (let i = this.head; i < this.queueRows.length; i++) if (this.isOpen(i)) this.finish(this.queueRows[i]!, this.queueSlots[i]!);
      this.rows.clear();
      this.queueRows = [];
      this.queueSlots = [];
      this.queueOpened = [];
      this.head = 0;
    }
    const out = this.done;
    this.done = [];
    return out;
  }

  /** hands the oldest open bucket over early and forgets its series (its workload's row once none is open) */
  private evictOldest(): void {
    while (this.head < this.queueRows.length) {
      const i = this.head;
      this.head += 1;
      if (!this.isOpen(i)) continue;
      const row = this.queueRows[i]!;
      this.finish(row, this.queueSlots[i]!);
      if (row.open === 0) this.rows.delete(row.workload);
      return;
    }
  }

  private compact(): void {
    const rows: Row[] = [];
    const slots: number[] = [];
    const opened: number[] = [];
    for (let i = this.head; i < this.queueRows.length; i++) {
      if (!this.isOpen(i)) continue;
      rows.push(this.queueRows[i]!);
      slots.push(this.queueSlots[i]!);
      opened.push(this.queueOpened[i]!);
    }
    this.queueRows = rows;
    this.queueSlots = slots;
    this.queueOpened = opened;
    this.head = 0;
  }

  /** whether queue entry `i` is its series' open bucket (not handed over yet) */
  private isOpen(i: number): boolean {
    const row = this.queueRows[i]!;
    const at = this.queueSlots[i]! * SLOT;
    // a row dropped from `rows` has no slot open (it is dropped when its last one closes)
    return row.v[at + COUNT]! > 0 && row.v[at + OPENED] === this.queueOpened[i];
  }

  /** hands the open bucket of `slot` over and closes the slot */
  private finish(row: Row, slot: number): void {
    const v = row.v;
    const at = slot * SLOT;
    const count = v[at + COUNT]!;
    this.size -= 1;
    row.open -= 1;
    v[at + COUNT] = 0;
    this.done.push({ workload: row.workload, metric: row.metrics[slot]!, bucketStartMs: v[at + START]!, mean: v[at + SUM]! / count, count });
  }
}
