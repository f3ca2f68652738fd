/**
 * LevelDB persistence of the analysis (analytics.md §11, runtime.md "Durability"): each tick
 * writes the latest snapshot of every workload that stepped, the KPI history points, anomalies,
 * explain records, fingerprints and raw points in batches of about TICK_BATCH_BYTES; the
 * exported states of the workloads whose checkpoint is due (engine/state-checkpoints.ts) in batches of about STATE_BATCH_BYTES beside
 * it. Startup reads it all back.
 *
 * Sublevels: `snap` (key → snapshot), `state` (key → exported analysis state), `hist`
 * (`tier!key!time` → KPI point), `anom` (`time!id` → anomaly), `rupt` (id → explain record),
 * `fp` (id → fingerprint); cluster mode also `repl` (`<topic>:<partition>` → the next offset of
 * the history topic to store, written in the same batch as what was read before it).
 */
import type { ClassicLevel } from 'classic-level';
import type { AnomalyEvent, ExplainRecord, Fingerprint, WorkloadSnapshot } from '../analysis/contract.js';
import type { HistoryTier } from '../model/retention.js';
import type { KpiSignalName } from '../model/signals.js';
import { padTime as pad, RawChunks, rawChunkStart, readRawEntry, type RawMean, type RawMetricPoint } from './raw-chunks.js';

export type { RawMetricPoint } from './raw-chunks.js';

/** one KPI history point: FusedR, health and the other nine signals (model/signals.ts) */
export interface KpiPoint extends Record<KpiSignalName, number> {
  t: number;
  fused_r: number;
  health: number;
}

export interface TickWrite {
  /** the latest snapshot of each workload that stepped (the states are written by writeStates) */
  snapshots: WorkloadSnapshot[];
  history: { tier: HistoryTier; key: string; point: KpiPoint }[];
  anomalies: AnomalyEvent[];
  ruptures: ExplainRecord[];
  fingerprints: Fingerprint[];
  /** 15-second metric means for the raw tier */
  rawPoints?: RawMetricPoint[];
}

/** What cluster mode hands from the owner to every replica's store (history topic). */
export interface ReplicatedWrite {
  history: { tier: HistoryTier; key: string; point: KpiPoint }[];
  ruptures: ExplainRecord[];
  fingerprints: Fingerprint[];
}

/** Something that wants every tick's write once it is stored (cluster mode publishes it). */
export type TickWriteListener = (w: TickWrite) => void;

/** small entries put into a tick's batch between two checks whether to pause (a workload's state is large: checked after each) */
const PUTS_PER_PAUSE_CHECK = 256;

/**
 * Bytes of keys and JSON values after which a tick's batch is written and the next one begun:
 * LevelDB's write buffer (classic-level's default, 4 MB). LevelDB puts a whole batch into its
 * memtable, whatever the write buffer's size, on the libuv thread that writes it: a backfill's
 * catch-up tick wrote one batch of a few hundred MB (a 106 MB table after snappy, 500 workloads),
 * whose memtable was freed into that thread's malloc arena after the flush and stayed resident
 * (404 MB free in one arena; bench:memory --breakdown, docs/memory.md "The RSS by component").
 */
export const TICK_BATCH_BYTES = 4 * 1_048_576;

/** `put` of every item, asking `pause` every `every` items and awaiting it when it says so; a put may wait (its batch being written) */
async function putEach<T>(items: readonly T[], put: (item: T) => Promise<void> | undefined, pause: (() => Promise<void> | undefined) | undefined, every = PUTS_PER_PAUSE_CHECK): Promise<void> {
  for (let i = 0; i < items.length; i++) {
    const writing = put(items[i]!);
    if (writing !== undefined) await writing;
    if (pause !== undefined && (i + 1) % every === 0) {
      const wait = pause();
      if (wait !== undefined) await wait;
    }
  }
}

/**
 * JSON bytes of exported analysis state after which a LevelDB batch of states is written (it
 * exceeds this by less than one state): a checkpoint of many workloads holds this much encoded state at a time, not all of it
 * (a workload's state is ~200 KB at full windows: docs/memory-soak.md). Below one full state, so
 * that a full state is written as soon as it is stringified: held in a batch of 16 MB across the
 * checkpoint's pauses, the JSON strings and the arrays exported beside them lived through
 * scavenges into the old generation, 20 KB a workload a tick at 1 000 settled workloads against
 * 10 with this bound (bench/memory/promoted-profile.ts, docs/memory.md); small states (new
 * workloads) still share batches.
 */
export const STATE_BATCH_BYTES = 128 * 1024;

/** a sublevel whose values are JSON already encoded (utf8) */
type EncodedSublevel = ReturnType<typeof encodedSublevel>;
const encodedSublevel = (db: ClassicLevel<string, string>, name: string) => db.sublevel<string, string>(name, { valueEncoding: 'utf8' });

/**
 * Batches of the database, each written once it holds `maxBytes` of keys and JSON values. Written
 * as an array of operations (`db.batch(ops)`), not a chained batch: classic-level frees a chained
 * batch's native WriteBatch (every key and value it holds, copied out of V8) only when the batch
 * object is garbage collected, which for an object that lived through the write is the next major
 * collection, and V8 does not know that memory to hurry it; the array form's WriteBatch is freed
 * as soon as its write is done. With chained batches the service held 468 MB of such mmapped
 * copies at 2 000 workloads (bench:memory --breakdown, docs/memory.md "The RSS by component").
 */
class BoundedBatches {
  private ops: { type: 'put'; sublevel: EncodedSublevel; key: string; value: string }[] = [];
  private bytes = 0;

  constructor(
    private readonly db: ClassicLevel<string, string>,
    private readonly maxBytes: number,
  ) {}

  /** puts `value` as JSON under `key`; a promise when that filled the batch and it is being written */
  put(sublevel: EncodedSublevel, key: string, value: unknown): Promise<void> | undefined {
    const json = JSON.stringify(value);
    // the sublevel per operation: a sublevel's own batch throws while it is still opening, right after the store is made
    this.ops.push({ type: 'put', sublevel, key, value: json });
    this.bytes += key.length + json.length;
    return this.bytes >= this.maxBytes ? this.flush() : undefined;
  }

  /** writes what is left */
  async end(): Promise<void> {
    if (this.ops.length > 0) await this.flush();
  }

  private async flush(): Promise<void> {
    const ops = this.ops;
    this.ops = [];
    this.bytes = 0;
    await this.db.batch(ops);
  }
}

export class AnalysisStore {
  private readonly snap;
  private readonly state;
  private readonly hist;
  private readonly anom;
  private readonly rupt;
  private readonly fp;
  private readonly raw;
  private readonly repl;
  /** the same sublevels (the same prefixes, the same stored bytes) taking values already encoded as JSON, for the tick's bounded batches */
  private readonly encoded;
  private readonly listeners: TickWriteListener[] = [];

  /** `tickBatchBytes`: see TICK_BATCH_BYTES */
  constructor(
    private readonly db: ClassicLevel<string, string>,
    private readonly tickBatchBytes = TICK_BATCH_BYTES,
  ) {
    this.snap = db.sublevel<string, WorkloadSnapshot>('snap', { valueEncoding: 'json' });
    // JSON, encoded here (not by the sublevel) to count the bytes of a batch
    this.state = db.sublevel<string, string>('state', { valueEncoding: 'utf8' });
    this.hist = db.sublevel<string, KpiPoint>('hist', { valueEncoding: 'json' });
    this.anom = db.sublevel<string, AnomalyEvent>('anom', { valueEncoding: 'json' });
    this.rupt = db.sublevel<string, ExplainRecord>('rupt', { valueEncoding: 'json' });
    this.fp = db.sublevel<string, Fingerprint>('fp', { valueEncoding: 'json' });
    this.raw = db.sublevel<string, number[]>('raw', { valueEncoding: 'json' });
    this.repl = db.sublevel<string, string>('repl', { valueEncoding: 'utf8' });
    const utf8 = (name: string): EncodedSublevel => encodedSublevel(db, name);
    this.encoded = { snap: utf8('snap'), hist: utf8('hist'), anom: utf8('anom'), rupt: utf8('rupt'), fp: utf8('fp'), raw: utf8('raw') };
  }

  /** calls `listener` with every tick's write once it is stored */
  afterWrite(listener: TickWriteListener): void {
    this.listeners.push(listener);
  }

  /**
   * Stores what the history topic carried (cluster mode) and the offsets read up to, in one batch.
   * KPI points and fingerprints are keyed by time and id, so storing one twice changes nothing; an
   * explain record replaces the stored one only when it is not older (a late record of a previous
   * owner must not move it back).
   */
  async writeReplicated(w: ReplicatedWrite, offsets: ReadonlyMap<string, bigint>): Promise<void> {
    const batch = this.db.batch();
    for (const h of w.history) batch.put(`${h.tier}!${h.key}!${pad(h.point.t)}`, h.point, { sublevel: this.hist });
    const newest = new Map<string, ExplainRecord>();
    for (const r of w.ruptures) {
      const seen = newest.get(r.ruptureId);
      if (seen === undefined || seen.updatedAtMs <= r.updatedAtMs) newest.set(r.ruptureId, r);
    }
    for (const r of newest.values()) {
      const stored = await this.rupt.get(r.ruptureId);
      if (stored === undefined || stored.updatedAtMs <= r.updatedAtMs) batch.put(r.ruptureId, r, { sublevel: this.rupt });
    }
    for (const f of w.fingerprints) batch.put(f.id, f, { sublevel: this.fp });
    for (const [key, offset] of offsets) batch.put(key, offset.toString(), { sublevel: this.repl });
    await batch.write();
  }

  /** the next offset to read per `<topic>:<partition>`, as stored by writeReplicated */
  async replicatedOffsets(topic: string): Promise<Map<number, bigint>> {
    const out = new Map<number, bigint>();
    for await (const [key, value] of this.repl.iterator({ gte: `${topic}:`, lt: `${topic}:\xff` })) {
      const p = Number(key.slice(topic.length + 1));
      if (Number.isInteger(p) && /^\d+$/.test(value)) out.set(p, BigInt(value));
    }
    return out;
  }

  /**
   * Everything of the tick, in LevelDB batches of about `tickBatchBytes` (keys and JSON values),
   * written one after the other: a kill -9 loses at most the tick in progress, as with one batch,
   * of which the batches written before it stay (every entry is keyed by its workload, time or
   * id: writing one again changes nothing). `pause` (optional) is asked every few entries and
   * awaited when it returns a promise, so that building a large write (the raw points of many
   * buckets) can let the event loop serve requests meanwhile.
   */
  async writeTick(w: TickWrite, pause?: () => Promise<void> | undefined): Promise<void> {
    const raw = w.rawPoints ?? [];
    if (w.snapshots.length + w.history.length + w.anomalies.length + w.ruptures.length + w.fingerprints.length + raw.length === 0) return;
    const out = new BoundedBatches(this.db, this.tickBatchBytes);
    const e = this.encoded;
    await putEach(w.snapshots, (snapshot) => out.put(e.snap, snapshot.key, snapshot), pause);
    await putEach(w.history, (h) => out.put(e.hist, `${h.tier}!${h.key}!${pad(h.point.t)}`, h.point), pause);
    await putEach(w.anomalies, (a) => out.put(e.anom, `${pad(a.timeMs)}!${a.id}`, a), pause);
    await putEach(w.ruptures, (r) => out.put(e.rupt, r.ruptureId, r), undefined);
    await putEach(w.fingerprints, (f) => out.put(e.fp, f.id, f), undefined);
    const chunks = new RawChunks();
    await putEach(raw, (p) => void chunks.add(p), pause);
    await putEach(chunks.entries(), (c) => out.put(e.raw, c.key, c.value), pause);
    await out.end();
    for (const listener of this.listeners) listener(w);
  }

  /**
   * Writes the exported analysis state of each workload of `keys`, exporting one at a time
   * (`exportState`; undefined: the analysis no longer holds it, nothing is written) into batches
   * written once they hold `maxBatchBytes` of JSON, so that only one batch's states are held at once.
   * `pause` is asked after each state, as in writeTick. Returns the keys whose state was undefined.
   */
  async writeStates(keys: readonly string[], exportState: (key: string) => unknown, pause?: () => Promise<void> | undefined, maxBatchBytes = STATE_BATCH_BYTES): Promise<string[]> {
    const missing: string[] = [];
    const out = new BoundedBatches(this.db, maxBatchBytes);
    for (const key of keys) {
      const state = exportState(key);
      if (state === undefined) missing.push(key);
      else {
        const writing = out.put(this.state, key, state);
        if (writing !== undefined) await writing;
      }
      const wait = pause?.();
      if (wait !== undefined) await wait;
    }
    await out.end();
    return missing;
  }

  /** every stored snapshot with the workload's stored state (undefined when none) */
  async loadWorkloads(): Promise<{ snapshot: WorkloadSnapshot; state: unknown }[]> {
    const out: { snapshot: WorkloadSnapshot; state: unknown }[] = [];
    for await (const [key, snapshot] of this.snap.iterator()) {
      const json = await this.state.get(key);
      out.push({ snapshot, state: json === undefined ? undefined : (JSON.parse(json) as unknown) });
    }
    return out;
  }

  /** Newest first, at most `limit`, not older than `sinceMs`. */
  async anomalies(sinceMs: number, limit: number, filter?: (a: AnomalyEvent) => boolean): Promise<AnomalyEvent[]> {
    const out: AnomalyEvent[] = [];
    for await (const a of this.anom.values({ gte: pad(sinceMs), reverse: true })) {
      if (filter !== undefined && !filter(a)) continue;
      out.push(a);
      if (out.length >= limit) break;
    }
    return out;
  }

  async rupture(id: string): Promise<ExplainRecord | undefined> {
    return this.rupt.get(id);
  }

  async ruptures(): Promise<ExplainRecord[]> {
    return this.rupt.values().all();
  }

  async fingerprints(): Promise<Fingerprint[]> {
    return this.fp.values().all();
  }

  async history(tier: HistoryTier, key: string, fromMs: number, toMs: number): Promise<KpiPoint[]> {
    return this.hist.values({ gte: `${tier}!${key}!${pad(fromMs)}`, lte: `${tier}!${key}!${pad(toMs)}` }).all();
  }

  /** Deletes history of `tier` older than `beforeMs`, anomalies and explain records past retention. */
  async expire(tier: HistoryTier, beforeMs: number): Promise<number> {
    let n = 0;
    const batch = this.db.batch();
    for await (const key of this.hist.keys({ gte: `${tier}!`, lt: `${tier}!\xff` })) {
      const t = Number(key.slice(key.lastIndexOf('!') + 1));
      if (t < beforeMs) {
        batch.del(key, { sublevel: this.hist });
        n += 1;
      }
    }
    await batch.write();
    return n;
  }

  /** Raw 15-second metric means of one workload and metric within [fromMs, toMs], oldest first (raw-chunks.ts). */
  async rawPoints(workload: string, metric: string, fromMs: number, toMs: number): Promise<RawMean[]> {
    const series = `${workload}!${metric}`;
    const out: RawMean[] = [];
    for await (const [key, value] of this.raw.iterator({ gte: pad(rawChunkStart(fromMs)), lte: `${pad(toMs)}\xff` })) {
      for (const m of readRawEntry(key, value, series)) if (m.t >= fromMs && m.t <= toMs) out.push(m);
    }
    return out.sort((a, b) => a.t - b.t);
  }

  /** Removes the raw means older than `beforeMs` (whole hourly entries: the hour holding `beforeMs` is kept whole). */
  async expireRaw(beforeMs: number): Promise<void> {
    await this.raw.clear({ lt: pad(rawChunkStart(beforeMs)) });
  }

  async expireAnomalies(beforeMs: number): Promise<void> {
    await this.anom.clear({ lt: pad(beforeMs) });
  }

  async expireRuptures(beforeMs: number): Promise<void> {
    const batch = this.db.batch();
    for await (const [id, r] of this.rupt.iterator()) if (r.updatedAtMs < beforeMs) batch.del(id, { sublevel: this.rupt });
    await batch.write();
  }
}
