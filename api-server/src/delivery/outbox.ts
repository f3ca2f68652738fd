/**
 * The durable outbox of outbound events (issue 7): every envelope is written to LevelDB with a
 * strictly increasing sequence number before any channel (bus driver, sink) sees it, and each
 * channel keeps its own cursor (the last sequence it delivered), also in LevelDB. A channel that
 * cannot deliver (broker down, receiver failing) leaves its envelopes in the outbox; on restart it
 * resumes from its cursor, so nothing stored is lost by an outage or a restart.
 *
 * Bounded: a channel more than `capacity` envelopes behind loses the oldest ones (its cursor jumps
 * forward; the loss is counted and reported), so one dead channel cannot grow the database without
 * limit. Envelopes every channel has delivered are deleted. With no channel registered, envelopes
 * are not kept at all: only the sequence advances (ids stay unique across restarts).
 */
import type { ClassicLevel } from 'classic-level';
import { numberEnvelope, type Envelope, type EnvelopeDraft } from './envelope.js';

const SEQ_KEY = 'seq';
const CURSOR_PREFIX = 'cursor!';
const pad = (seq: number): string => String(seq).padStart(16, '0');

export interface OutboxHooks {
  /** a channel lagged more than `capacity` behind and lost `count` envelopes */
  overflow(channel: string, count: number): void;
}

export class EventOutbox {
  private readonly log;
  private readonly meta;
  private head = 0; // last sequence handed out
  private committed = 0; // last sequence whose batch is written (readers never look past it)
  private writes: Promise<unknown> = Promise.resolve();
  private tail = 0; // lowest sequence still stored (0 when nothing is)
  private readonly cursors = new Map<string, number>();
  private readonly waiters = new Set<() => void>();

  constructor(
    private readonly db: ClassicLevel<string, string>,
    private readonly capacity: number,
    private readonly hooks: OutboxHooks = { overflow: () => undefined },
  ) {
    this.log = db.sublevel<string, Envelope>('outbox', { valueEncoding: 'json' });
    this.meta = db.sublevel<string, number>('outbox-meta', { valueEncoding: 'json' });
  }

  /** Reads the sequence and the cursors; call once before use. */
  async load(): Promise<void> {
    this.head = (await this.meta.get(SEQ_KEY)) ?? 0;
    this.committed = this.head;
    for await (const [key, value] of this.meta.iterator({ gt: CURSOR_PREFIX, lt: `${CURSOR_PREFIX}\xff` })) {
      this.cursors.set(key.slice(CURSOR_PREFIX.length), value);
    }
    for await (const key of this.log.keys({ limit: 1 })) this.tail = Number(key);
  }

  /** The last sequence written. */
  get sequence(): number {
    return this.committed;
  }

  /**
   * Adds a channel; a new one starts at the current end (it is not sent the past), a known one
   * resumes where it stopped. Channels present in the database but not registered after a restart
   * are forgotten by `forget`.
   */
  async register(channel: string): Promise<void> {
    if (this.cursors.has(channel)) return;
    this.cursors.set(channel, this.committed);
    await this.meta.put(CURSOR_PREFIX + channel, this.committed);
  }

  /** Drops the cursors of channels no longer configured, so they keep nothing alive. */
  async forget(keep: ReadonlySet<string>): Promise<void> {
    for (const channel of [...this.cursors.keys()]) {
      if (keep.has(channel)) continue;
      this.cursors.delete(channel);
      await this.meta.del(CURSOR_PREFIX + channel);
    }
    await this.trim();
  }

  /**
   * Numbers the drafts (in call order), writes them and the sequence in one batch, then wakes the
   * channels. Appends are serialised, so a reader never sees sequence n+1 before n is written.
   */
  append(drafts: readonly EnvelopeDraft[]): Promise<Envelope[]> {
    if (drafts.length === 0) return Promise.resolve([]);
    const envelopes = drafts.map((d) => {
      this.head += 1;
      return numberEnvelope(d, this.head);
    });
    const written = this.writes.then(() => this.write(envelopes));
    this.writes = written.catch(() => undefined);
    return written;
  }

  private async write(envelopes: Envelope[]): Promise<Envelope[]> {
    const last = envelopes[envelopes.length - 1]!.seq;
    const batch = this.db.batch();
    if (this.cursors.size > 0) {
      for (const e of envelopes) batch.put(pad(e.seq), e, { sublevel: this.log });
      if (this.tail === 0) this.tail = envelopes[0]!.seq;
    }
    batch.put(SEQ_KEY, last, { sublevel: this.meta });
    await batch.write();
    this.committed = last;
    await this.enforceCapacity();
    for (const wake of [...this.waiters]) wake();
    return envelopes;
  }

  /** Up to `limit` envelopes after the channel's cursor, oldest first. */
  async read(channel: string, limit: number): Promise<Envelope[]> {
    const cursor = this.cursorOf(channel);
    if (cursor >= this.committed) return [];
    const out: Envelope[] = [];
    for await (const value of this.log.values({ gt: pad(cursor), lte: pad(this.committed), limit })) out.push(value);
    return out;
  }

  /** How many envelopes the channel has not delivered yet. */
  backlog(channel: string): number {
    return Math.max(0, this.committed - this.cursorOf(channel));
  }

  /** Marks everything up to `seq` delivered for the channel (persisted), then deletes what no channel needs. */
  async ack(channel: string, seq: number): Promise<void> {
    if (seq <= this.cursorOf(channel)) return;
    this.cursors.set(channel, seq);
    await this.meta.put(CURSOR_PREFIX + channel, seq);
    await this.trim();
  }

  /** Resolves when an append happens or after `timeoutMs`, whichever is first. */
  waitForAppend(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.add(done);
    });
  }

  /** Wakes every waiting channel (used at shutdown). */
  wakeAll(): void {
    for (const wake of [...this.waiters]) wake();
  }

  private cursorOf(channel: string): number {
    const cursor = this.cursors.get(channel);
    if (cursor === undefined) throw new Error(`outbox channel not registered: ${channel}`);
    return cursor;
  }

  private async enforceCapacity(): Promise<void> {
    const floor = this.committed - this.capacity;
    if (floor <= 0) return;
    for (const [channel, cursor] of this.cursors) {
      if (cursor >= floor) continue;
      this.cursors.set(channel, floor);
      await this.meta.put(CURSOR_PREFIX + channel, floor);
      this.hooks.overflow(channel, floor - cursor);
    }
    await this.trim();
  }

  /** Deletes stored envelopes at or below the lowest cursor. */
  private async trim(): Promise<void> {
    if (this.tail === 0) return;
    const lowest = this.cursors.size === 0 ? this.committed : Math.min(...this.cursors.values());
    if (lowest < this.tail) return;
    await this.log.clear({ lte: pad(lowest) });
    this.tail = lowest < this.committed ? lowest + 1 : 0;
  }
}
