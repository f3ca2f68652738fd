/**
 * Every replica's copy of the history topic (history-records.ts) in its own LevelDB. It resumes
 * at the offsets it stored with the data (the same LevelDB batch), so a restart neither skips nor
 * needs to re-read what it has; a new replica starts at the topic's earliest retained record.
 * Records are stored in batches of whatever arrived while the previous batch was written.
 */
import { ListOffsetTimestamps, type MessagesStream } from '../kafka/kafka-client.js';
import type { AnalysisStore, ReplicatedWrite } from '../storage/analysis-store.js';
import { addHistoryRecord } from './history-records.js';
import { closeConsumer, newReadConsumer, type TopicRecord } from './partition-reader.js';

export interface HistoryFollowerOptions {
  brokers: string[];
  topic: string;
  partitions: number;
  clientId: string;
  warn(fields: Record<string, unknown>, message: string): void;
}

/** the stream is paused while this many records wait for LevelDB */
const HIGH_WATER = 20_000;

export class HistoryFollower {
  private readonly consumer;
  private stream: MessagesStream<string, string, string, string> | undefined;
  private pending: TopicRecord[] = [];
  private flushing: Promise<void> | undefined;
  private unreadable = 0;
  private closed = false;
  /** records stored since start (for the tests) */
  stored = 0;

  constructor(
    private readonly store: AnalysisStore,
    private readonly options: HistoryFollowerOptions,
  ) {
    this.consumer = newReadConsumer(options.brokers, `${options.clientId}-history`, (error) => options.warn({ err: error }, 'history: consumer error'));
  }

  async start(): Promise<void> {
    const { topic } = this.options;
    const stored = await this.store.replicatedOffsets(topic);
    const earliest = (await this.consumer.listOffsets({ topics: [topic], timestamp: ListOffsetTimestamps.EARLIEST })).get(topic) ?? [];
    const offsets = Array.from({ length: this.options.partitions }, (_, partition) => {
      const from = stored.get(partition) ?? 0n;
      const first = earliest[partition] ?? 0n;
      return { topic, partition, offset: from > first ? from : first };
    });
    this.stream = await this.consumer.consume({ topics: [topic], mode: 'manual', offsets, autocommit: false, maxWaitTime: 200 });
    this.stream.on('data', (m: TopicRecord) => {
      this.pending.push({ key: m.key, value: m.value, partition: m.partition, offset: m.offset });
      if (this.pending.length >= HIGH_WATER) this.stream?.pause();
      this.schedule();
    });
    this.stream.on('error', (error: unknown) => this.options.warn({ err: error }, 'history: topic stream failed'));
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stream?.close().catch(() => undefined);
    await this.flushing;
    await closeConsumer(this.consumer, true);
  }

  private schedule(): void {
    if (this.flushing !== undefined || this.pending.length === 0) return;
    this.flushing = this.flush().finally(() => {
      this.flushing = undefined;
      if (!this.closed) this.schedule();
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    const write: ReplicatedWrite = { history: [], ruptures: [], fingerprints: [] };
    const offsets = new Map<string, bigint>();
    for (const r of batch) {
      const next = r.offset + 1n;
      const key = `${this.options.topic}:${r.partition}`;
      if ((offsets.get(key) ?? -1n) < next) offsets.set(key, next);
      if (r.key === undefined || r.value === undefined || r.value === '' || addHistoryRecord(write, r.key, r.value)) continue;
      this.unreadable += 1;
      if (this.unreadable <= 10) this.options.warn({ partition: r.partition, offset: String(r.offset) }, 'history: unreadable record skipped');
    }
    try {
      await this.store.writeReplicated(write, offsets);
      this.stored += batch.length;
    } catch (error) {
      this.options.warn({ err: error, records: batch.length }, 'history: storing records failed; retried in 1 s');
      this.pending = [...batch, ...this.pending];
      await new Promise((r) => setTimeout(r, 1_000));
    }
    if (this.pending.length < HIGH_WATER && this.stream?.isPaused() === true) this.stream.resume();
  }
}
