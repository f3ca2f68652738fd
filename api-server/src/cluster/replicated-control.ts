/**
 * Cluster mode's control plane writes (suppressions, context events, weight overrides): every
 * change goes to the control topic, one partition, compacted, and every replica applies the
 * topic in order to its own ControlPlane (and its LevelDB). A write answers once this replica
 * applied its own record, so a reader of the same replica sees it at once, and every other
 * replica within the time it takes to read one record.
 *
 * Records: `sup|<id>` → the window as JSON (no value: deleted); `ctx|<id>` → the event (no value:
 * deleted); `weights` → the whole ordered list; `objectives` → the whole ordered list of failure
 * objectives; `emergency-stop` → `{on, atMs}` (every replica's
 * Tier-1 automation stops or resumes). Compaction keeps the latest per key, so a new
 * replica reads the whole control state from the topic at start.
 *
 * `cmd|<request>` and `res|<request>` carry decisions on actions to the replica owning the
 * action's workload and its answer back (cluster/action-commands.ts). They are handed over only
 * when read live, never during the start-up read: a decision is answered once, when it is made,
 * and is not re-run by a replica starting later. Both are deleted (tombstones) once answered.
 */
import type { MessagesStream } from '../kafka/kafka-client.js';
import type { WeightOverride } from '../analysis/contract.js';
import type { FailureObjective } from '../model/failure-objective.js';
import type { ContextBody, ContextEvent } from '../control/context-events.js';
import type { ControlPlane, ControlWrites } from '../control/control-plane.js';
import type { Suppression, SuppressionBody } from '../control/suppressions.js';
import { ControlTopicError } from '../control/control-write-refused.js';
import { SerialProducer } from './serial-producer.js';
import { closeConsumer, newReadConsumer, readPartitionsToEnd, type TopicRecord } from './partition-reader.js';

/** the action engine's emergency stop, which every replica applies */
export interface EmergencyStopTarget {
  setEmergencyStop(on: boolean, nowMs: number): Promise<number | null>;
  readonly emergencyStopSinceMs: number | null;
}

export interface ReplicatedControlOptions {
  brokers: string[];
  topic: string;
  clientId: string;
  /** how long a write waits for its own record to come back */
  applyTimeoutMs?: number;
  warn(fields: Record<string, unknown>, message: string): void;
}

const WEIGHTS_KEY = 'weights';
const OBJECTIVES_KEY = 'objectives';
const STOP_KEY = 'emergency-stop';

/** receives the live `cmd|` / `res|` records (action decisions and their answers) */
export interface CommandRecords {
  record(key: string, value: string): void;
}

export class ReplicatedControl implements ControlWrites {
  private readonly consumer;
  private readonly producer: SerialProducer;
  private stream: MessagesStream<string, string, string, string> | undefined;
  private applying: Promise<void> = Promise.resolve();
  private applied = -1n;
  private readonly waiters: { offset: bigint; resolve: () => void }[] = [];
  /** false while the start-up read replays the topic */
  private live = false;
  private commands: CommandRecords | undefined;

  constructor(
    private readonly plane: ControlPlane,
    private readonly stop: EmergencyStopTarget,
    private readonly options: ReplicatedControlOptions,
  ) {
    this.consumer = newReadConsumer(options.brokers, `${options.clientId}-control`, (error) => options.warn({ err: error }, 'control topic: consumer error'));
    this.producer = new SerialProducer(options.brokers, `${options.clientId}-control`);
  }

  /** Applies the whole topic, then follows it. */
  async start(): Promise<void> {
    const ends = await readPartitionsToEnd(this.consumer, this.options.topic, [0], (r) => this.enqueue(r));
    await this.applying;
    this.live = true;
    this.stream = await this.consumer.consume({
      topics: [this.options.topic],
      mode: 'manual',
      offsets: [{ topic: this.options.topic, partition: 0, offset: ends.get(0) ?? 0n }],
      autocommit: false,
      maxWaitTime: 100,
    });
    this.stream.on('data', (m: TopicRecord) => this.enqueue(m));
    this.stream.on('error', (error: unknown) => this.options.warn({ err: error }, 'control topic stream failed'));
  }

  /** hands the live `cmd|` and `res|` records to `commands` from now on */
  attachCommands(commands: CommandRecords): void {
    this.commands = commands;
  }

  /** Writes one record (a tombstone without a value) and resolves once Kafka acknowledged it. */
  async send(key: string, value: string | undefined): Promise<void> {
    try {
      await this.producer.send([{ topic: this.options.topic, partition: 0, key, ...(value === undefined ? {} : { value }) }]);
    } catch (error) {
      throw new ControlTopicError(`the control topic ${this.options.topic} refused the record: ${(error as Error).message}`);
    }
  }

  async close(): Promise<void> {
    await this.stream?.close().catch(() => undefined);
    await closeConsumer(this.consumer, true);
    await this.producer.close();
  }

  async addSuppression(body: SuppressionBody, nowMs: number): Promise<Suppression> {
    const s = this.plane.newSuppression(body, nowMs);
    await this.write(`sup|${s.id}`, JSON.stringify(s));
    return s;
  }

  async replaceSuppression(id: string, body: SuppressionBody): Promise<Suppression | undefined> {
    const s = this.plane.updatedSuppression(id, body);
    if (s !== undefined) await this.write(`sup|${id}`, JSON.stringify(s));
    return s;
  }

  async removeSuppression(id: string): Promise<boolean> {
    if (this.plane.getSuppression(id) === undefined) return false;
    await this.write(`sup|${id}`, undefined);
    return true;
  }

  async addContext(body: ContextBody, nowMs: number): Promise<ContextEvent> {
    const event = this.plane.newContext(body, nowMs);
    await this.write(`ctx|${event.id}`, JSON.stringify(event));
    return event;
  }

  async removeContext(id: string): Promise<boolean> {
    if (!this.plane.hasContext(id)) return false;
    await this.write(`ctx|${id}`, undefined);
    return true;
  }

  async replaceWeights(list: WeightOverride[]): Promise<void> {
    await this.write(WEIGHTS_KEY, JSON.stringify(list));
  }

  async replaceObjectives(list: FailureObjective[]): Promise<void> {
    await this.write(OBJECTIVES_KEY, JSON.stringify(list));
  }

  /** Engages or releases the emergency stop on every replica; answers with this replica's state once applied. */
  async setEmergencyStop(on: boolean, nowMs: number): Promise<number | null> {
    await this.write(STOP_KEY, JSON.stringify({ on, atMs: nowMs }));
    return this.stop.emergencyStopSinceMs;
  }

  /** Writes one record and waits until this replica applied it. */
  private async write(key: string, value: string | undefined): Promise<void> {
    let offset: bigint | undefined;
    try {
      const offsets = await this.producer.send([{ topic: this.options.topic, partition: 0, key, ...(value === undefined ? {} : { value }) }]);
      offset = offsets.get(`${this.options.topic}:0`);
    } catch (error) {
      throw new ControlTopicError(`the control topic ${this.options.topic} refused the change: ${(error as Error).message}`);
    }
    if (offset === undefined) throw new ControlTopicError(`the control topic ${this.options.topic} gave no offset for the change`);
    if (this.applied >= offset) return;
    const target = offset;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new ControlTopicError(`the change was stored but not read back from ${this.options.topic} within ${this.timeoutMs()} ms`)), this.timeoutMs());
      this.waiters.push({
        offset: target,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  private timeoutMs(): number {
    return this.options.applyTimeoutMs ?? 10_000;
  }

  /** records are applied one after another, in offset order */
  private enqueue(r: TopicRecord): void {
    this.applying = this.applying
      .then(() => this.apply(r))
      .catch((error: unknown) => this.options.warn({ err: error, key: r.key, offset: String(r.offset) }, 'control record could not be applied; skipped'))
      .finally(() => {
        if (r.offset > this.applied) this.applied = r.offset;
        for (let i = this.waiters.length - 1; i >= 0; i -= 1) {
          const w = this.waiters[i] as { offset: bigint; resolve: () => void };
          if (w.offset <= this.applied) {
            this.waiters.splice(i, 1);
            w.resolve();
          }
        }
      });
  }

  private async apply(r: TopicRecord): Promise<void> {
    const key = r.key ?? '';
    const value = r.value === undefined || r.value === '' ? undefined : r.value;
    if (key.startsWith('cmd|') || key.startsWith('res|')) {
      if (this.live && value !== undefined) this.commands?.record(key, value);
    } else if (key.startsWith('sup|')) {
      await this.plane.applySuppression(key.slice(4), value === undefined ? undefined : (JSON.parse(value) as Suppression));
    } else if (key.startsWith('ctx|')) {
      await this.plane.applyContext(key.slice(4), value === undefined ? undefined : (JSON.parse(value) as ContextEvent));
    } else if (key === STOP_KEY && value !== undefined) {
      const v = JSON.parse(value) as { on?: unknown; atMs?: unknown };
      if (typeof v.on === 'boolean' && typeof v.atMs === 'number') await this.stop.setEmergencyStop(v.on, v.atMs);
      else this.options.warn({ key }, 'malformed emergency-stop record skipped');
    } else if (key === WEIGHTS_KEY && value !== undefined) {
      await this.plane.replaceWeights(JSON.parse(value) as WeightOverride[]);
    } else if (key === OBJECTIVES_KEY && value !== undefined) {
      await this.plane.replaceObjectives(JSON.parse(value) as FailureObjective[]);
    } else {
      this.options.warn({ key }, 'unknown control record skipped');
    }
  }
}
