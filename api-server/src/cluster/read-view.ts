/**
 * Every replica's view of every workload: materialises the `v|` records of the compacted state
 * topic (latest snapshot and latest anomalies per workload) into memory, and hands the `a|`
 * action records to the action engine's mirror (an owner's own records are ignored there). Start-up
 * reads the topic to its end before the replica reports ready, then follows it.
 */
import type { MessagesStream } from '../kafka/kafka-client.js';
import type { Action } from '../actions/action.js';
import type { AnomalyEvent, WorkloadSnapshot } from '../analysis/contract.js';
import { parseActionRecord } from './action-records.js';
import { closeConsumer, newReadConsumer, readPartitionsToEnd, type TopicRecord } from './partition-reader.js';
import { parseStateKey, parseViewRecord, type ViewRecord } from './state-records.js';

export interface ReadViewOptions {
  brokers: string[];
  topic: string;
  partitions: number;
  clientId: string;
  warn(fields: Record<string, unknown>, message: string): void;
  /** where the action records go (the action engine's mirror) */
  actions?: { mirror(action: Action): void; unmirror(id: string): void };
}

export class ReadView {
  private readonly views = new Map<string, ViewRecord>();
  private readonly consumer;
  private stream: MessagesStream<string, string, string, string> | undefined;
  private unreadable = 0;

  constructor(private readonly options: ReadViewOptions) {
    this.consumer = newReadConsumer(options.brokers, `${options.clientId}-view`, (error) => options.warn({ err: error }, 'read view: consumer error'));
  }

  async start(): Promise<void> {
    const all = Array.from({ length: this.options.partitions }, (_, p) => p);
    const ends = await readPartitionsToEnd(this.consumer, this.options.topic, all, (r) => this.apply(r));
    this.stream = await this.consumer.consume({
      topics: [this.options.topic],
      mode: 'manual',
      offsets: all.map((partition) => ({ topic: this.options.topic, partition, offset: ends.get(partition) ?? 0n })),
      autocommit: false,
      maxWaitTime: 200,
    });
    this.stream.on('data', (m: TopicRecord) => this.apply(m));
    this.stream.on('error', (error: unknown) => this.options.warn({ err: error }, 'read view: state topic stream failed'));
  }

  /** applies one state-topic record (the owner's own writes come back through here too) */
  apply(r: Pick<TopicRecord, 'key' | 'value'>): void {
    const key = parseStateKey(r.key);
    if (key?.kind === 'action') {
      this.applyAction(key.id, r.value);
      return;
    }
    if (key === undefined || key.kind !== 'view') return;
    const view = parseViewRecord(r.value);
    if (view === undefined) {
      this.unreadable += 1;
      if (this.unreadable <= 10) this.options.warn({ key: r.key }, 'read view: unreadable view record skipped');
      return;
    }
    const known = this.views.get(key.workload);
    // a late record of a previous owner must not move the view backwards
    if (known !== undefined && known.snapshot.timeMs > view.snapshot.timeMs) return;
    this.views.set(key.workload, view);
  }

  private applyAction(id: string, value: string | undefined): void {
    const sink = this.options.actions;
    if (sink === undefined) return;
    if (value === undefined || value === '') {
      sink.unmirror(id);
      return;
    }
    const action = parseActionRecord(value);
    if (action === undefined) {
      this.unreadable += 1;
      if (this.unreadable <= 10) this.options.warn({ key: `a|${id}` }, 'read view: unreadable action record skipped');
      return;
    }
    sink.mirror(action);
  }

  snapshot(key: string): WorkloadSnapshot | undefined {
    return this.views.get(key)?.snapshot;
  }

  anomalies(key: string): readonly AnomalyEvent[] {
    return this.views.get(key)?.anomalies ?? [];
  }

  workloadKeys(): string[] {
    return [...this.views.keys()];
  }

  async close(): Promise<void> {
    await this.stream?.close().catch(() => undefined);
    await closeConsumer(this.consumer, true);
  }
}
