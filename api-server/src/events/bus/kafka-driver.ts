/**
 * The Kafka driver of the event bus (`eventbus.driver: kafka`) on `@platformatic/kafka`
 * (pure TypeScript, maintained, installs from the npm registry alone; kafkajs has had no release
 * since 2023, and @confluentinc/kafka-javascript fetches a librdkafka build from outside npm).
 *
 * One configured topic (default `svc.events`); record key = the envelope's subject (`topic`), so
 * every workload's events stay in order on one partition; value = the envelope as JSON; headers
 * `subject`, `type`, `schema`.
 *
 * Exactly once: an idempotent, transactional producer with a stable `transactional_id`; each
 * publish call is one transaction, committed before the call resolves, aborted when anything
 * fails. A retry of the same envelopes must not double them even when a commit succeeded but its
 * answer was lost, or the process died before it stored its cursor: on every connect the driver
 * reads the committed tail of each partition (read_committed) and remembers the highest envelope
 * `seq` there; envelopes at or below it are skipped. Envelope sequences increase strictly, so
 * that one number is the whole de-duplication state. A new producer with the same transactional
 * id also fences the old one and aborts its open transaction (Kafka's own guarantee).
 */
import { Admin, Consumer, FetchIsolationLevels, Producer, stringDeserializers, stringSerializers, type MessagesStream } from '@platformatic/kafka';
import type { Envelope } from '../envelope.js';
import type { BusDriver } from './bus-driver.js';

export interface KafkaDriverOptions {
  brokers: string[];
  topic: string;
  transactionalId: string;
  clientId?: string;
  /** per request (default 5000 ms) */
  timeoutMs?: number;
  logger?: { info(fields: Record<string, unknown>, message: string): void; warn(fields: Record<string, unknown>, message: string): void };
}

type KafkaProducer = Producer<string, string, string, string>;

/** Closes a client and swallows the error; `force` skips waiting for in-flight requests. */
function closeQuietly(client: { close(force?: boolean): Promise<void> } | undefined, force = false): Promise<void> {
  return client === undefined ? Promise.resolve() : client.close(force).catch(() => undefined);
}

/** How far back from the end of a partition the read-back looks for the last envelope. */
const TAIL_RECORDS = 512n;

export class KafkaBusDriver implements BusDriver {
  readonly name = 'kafka';
  private producer: KafkaProducer | undefined;
  private committedSeq = 0;
  private ok = false;

  constructor(private readonly options: KafkaDriverOptions) {}

  /** The highest envelope sequence known to be committed in the topic. */
  get highestCommittedSeq(): number {
    return this.committedSeq;
  }

  async connect(): Promise<void> {
    await this.close();
    await this.ensureTopic();
    this.committedSeq = Math.max(this.committedSeq, await this.readCommittedTail());
    this.producer = new Producer({
      clientId: this.options.clientId ?? 'faultline-api-server',
      bootstrapBrokers: this.options.brokers,
      idempotent: true,
      transactionalId: this.options.transactionalId,
      // InitProducerId of a new incarnation must say -1/-1 ("no producer yet"); the client's
      // default of 0/0 claims producer id 0, which the coordinator fences (PRODUCER_FENCED) as
      // soon as another transactional producer holds that id
      producerId: -1n,
      producerEpoch: -1,
      serializers: stringSerializers,
      timeout: this.timeoutMs(),
      retries: 2,
      retryDelay: 200,
      autocreateTopics: false,
    });
    this.ok = true;
    this.options.logger?.info({ brokers: this.options.brokers, topic: this.options.topic, committed_seq: this.committedSeq }, 'Kafka producer ready');
  }

  async publish(envelopes: readonly Envelope[]): Promise<void> {
    const producer = this.producer;
    if (producer === undefined) throw new Error('Kafka is not connected');
    const fresh = envelopes.filter((e) => e.seq > this.committedSeq);
    if (fresh.length === 0) return;
    let transaction: Awaited<ReturnType<KafkaProducer['beginTransaction']>> | undefined;
    try {
      transaction = await producer.beginTransaction();
      await transaction.send({
        messages: fresh.map((e) => ({
          topic: this.options.topic,
          key: e.topic,
          value: JSON.stringify(e),
          headers: new Map([
            ['subject', e.topic],
            ['type', e.type],
            ['schema', e.schema],
          ]),
        })),
      });
      await transaction.commit();
      this.committedSeq = fresh[fresh.length - 1]!.seq;
      this.ok = true;
    } catch (error) {
      this.ok = false;
      if (transaction !== undefined && !transaction.completed) {
        const t = transaction;
        await t.abort().catch(() => t.cancel().catch(() => undefined));
      }
      // the outcome may be unknown (a lost commit answer): the next connect reads the tail again
      const p = this.producer;
      this.producer = undefined;
      await closeQuietly(p, true);
      throw error;
    }
  }

  connected(): boolean {
    return this.ok && this.producer !== undefined;
  }

  async close(): Promise<void> {
    const p = this.producer;
    this.producer = undefined;
    this.ok = false;
    await closeQuietly(p);
  }

  private timeoutMs(): number {
    return this.options.timeoutMs ?? 5_000;
  }

  private async ensureTopic(): Promise<void> {
    const admin = new Admin({ clientId: 'faultline-api-server-admin', bootstrapBrokers: this.options.brokers, timeout: this.timeoutMs(), retries: 1 });
    try {
      const topics = await admin.listTopics();
      if (!topics.includes(this.options.topic)) {
        await admin.createTopics({ topics: [this.options.topic], partitions: 1, replicas: 1 }).catch((error: unknown) => {
          if (!/already exists/i.test(String(error instanceof Error ? `${error.message} ${JSON.stringify((error as Error & { errors?: unknown }).errors ?? '')}` : error))) throw error;
        });
      }
    } finally {
      await admin.close().catch(() => undefined);
    }
  }

  /** The highest envelope seq in the committed records of the topic's tail (0 when empty). */
  private async readCommittedTail(): Promise<number> {
    const consumer = new Consumer({
      clientId: 'faultline-api-server-readback',
      groupId: `faultline-readback-${this.options.transactionalId}`,
      bootstrapBrokers: this.options.brokers,
      deserializers: stringDeserializers,
      timeout: this.timeoutMs(),
      retries: 1,
    });
    let stream: MessagesStream<string, string, string, string> | undefined;
    try {
      const ends = await consumer.listOffsets({ topics: [this.options.topic], isolationLevel: FetchIsolationLevels.READ_COMMITTED });
      const starts = await consumer.listOffsets({ topics: [this.options.topic], timestamp: -2n });
      const endList = ends.get(this.options.topic) ?? [];
      const startList = starts.get(this.options.topic) ?? [];
      const offsets = endList.map((end, partition) => {
        const earliest = startList[partition] ?? 0n;
        const from = end - TAIL_RECORDS > earliest ? end - TAIL_RECORDS : earliest;
        return { topic: this.options.topic, partition, offset: from, end };
      });
      const remaining = offsets.filter((o) => o.offset < o.end);
      if (remaining.length === 0) return 0;
      let highest = 0;
      stream = await consumer.consume({
        topics: [this.options.topic],
        mode: 'manual',
        offsets: remaining.map(({ topic, partition, offset }) => ({ topic, partition, offset })),
        isolationLevel: FetchIsolationLevels.READ_COMMITTED,
        autocommit: false,
        maxWaitTime: 100,
      });
      const pending = new Map(remaining.map((o) => [o.partition, o.end]));
      const active = stream;
      await new Promise<void>((resolve, reject) => {
        // done when every partition's last committed record is read, or nothing more comes
        // (an aborted transaction at the tail leaves nothing visible after the last commit)
        let idle: NodeJS.Timeout | undefined;
        const finish = (): void => {
          clearTimeout(idle);
          clearTimeout(deadline);
          active.removeAllListeners('data');
          resolve();
        };
        const deadline = setTimeout(finish, this.timeoutMs() * 2);
        const rearm = (): void => {
          clearTimeout(idle);
          idle = setTimeout(finish, 1_500);
        };
        rearm();
        active.on('data', (message: { value: string | undefined; partition: number; offset: bigint }) => {
          const seq = seqOf(message.value);
          if (seq > highest) highest = seq;
          const end = pending.get(message.partition);
          // the last data record of a committed transaction sits right before its commit marker
          if (end !== undefined && message.offset + 2n >= end) pending.delete(message.partition);
          if (pending.size === 0) finish();
          else rearm();
        });
        active.once('error', (error: unknown) => {
          clearTimeout(idle);
          clearTimeout(deadline);
          reject(error instanceof Error ? error : new Error(String(error)));
        });
      });
      return highest;
    } finally {
      await stream?.close().catch(() => undefined);
      await closeQuietly(consumer, true);
    }
  }
}

function seqOf(value: string | undefined): number {
  if (value === undefined) return 0;
  try {
    const parsed = JSON.parse(value) as { seq?: unknown };
    return typeof parsed.seq === 'number' && Number.isFinite(parsed.seq) ? parsed.seq : 0;
  } catch {
    return 0;
  }
}
