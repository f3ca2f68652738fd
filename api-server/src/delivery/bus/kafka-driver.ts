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
 * first registers its transactional id (so an earlier incarnation's last transaction is complete,
 * markers included), then reads the committed tail of each partition (read_committed) and
 * remembers the highest envelope `seq` there; envelopes at or below it are skipped. Envelope sequences increase strictly, so
 * that one number is the whole de-duplication state. A new producer with the same transactional
 * id also fences the old one and aborts its open transaction (Kafka's own guarantee).
 */
import { randomBytes } from 'node:crypto';
import { Admin, Consumer, FetchIsolationLevels, Producer, stringDeserializers, stringSerializers, type MessagesStream } from '../../kafka/kafka-client.js';
import type { Envelope } from '../envelope.js';
import type { BusDriver } from './bus-driver.js';
import { kafkaErrorText, topicAlreadyExists } from '../../kafka/kafka-errors.js';

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
/** Fetch answers in a row without a record after which the read-back has caught up. */
const EMPTY_FETCHES = 3;
/** The read-back fails after this many request time-outs. */
const READBACK_TIMEOUT_FACTOR = 4;

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
    const producer = new Producer({
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
    try {
      await this.fenceEarlierIncarnations(producer);
      this.committedSeq = Math.max(this.committedSeq, await this.readCommittedTail());
    } catch (error) {
      await closeQuietly(producer, true);
      throw error;
    }
    this.producer = producer;
    this.ok = true;
    this.options.logger?.info({ brokers: this.options.brokers, topic: this.options.topic, committed_seq: this.committedSeq }, 'Kafka producer ready');
  }

  /**
   * Registers this producer under the transactional id before the tail is read. A commit answer
   * only says the coordinator logged the decision; the commit markers reach the partition a
   * little later, and until then a read_committed reader does not see the records. The
   * coordinator answers InitProducerId only once an earlier incarnation's transaction is
   * complete (committed with its markers written, or aborted), so after it the committed tail
   * holds everything this id ever committed. Beginning a transaction is what makes the client
   * send InitProducerId; nothing is added to it, so it is dropped locally.
   */
  private async fenceEarlierIncarnations(producer: KafkaProducer): Promise<void> {
    const deadline = Date.now() + READBACK_TIMEOUT_FACTOR * this.timeoutMs();
    for (;;) {
      try {
        const transaction = await producer.beginTransaction();
        await transaction.cancel();
        return;
      } catch (error) {
        // CONCURRENT_TRANSACTIONS while the earlier transaction completes outlasts the client's
        // own retries on a loaded broker
        if (!/CONCURRENT_TRANSACTIONS|concurrent operation/i.test(kafkaErrorText(error)) || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
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
          if (!topicAlreadyExists(error)) throw error;
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
      // the client joins its group even for manual reads; a group of its own per read, so a member
      // left behind by an earlier incarnation (force-closed, or SIGKILLed) never holds the join up
      groupId: `faultline-readback-${this.options.transactionalId}-${randomBytes(6).toString('hex')}`,
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
        // Done when every partition's last committed record is read, or when the fetches have
        // caught up: EMPTY_FETCHES fetch answers in a row without a record (an aborted transaction
        // at the tail leaves nothing visible after the last commit). Counting answers, not
        // wall-clock idleness, keeps a slow first fetch (a loaded broker, a cold JVM) from ending
        // the read early with a seq that is too low, which would let a retry publish duplicates.
        // No answer by the deadline fails the connect; the caller retries it.
        let emptyFetches = 0;
        const settle = (error?: Error): void => {
          clearTimeout(deadline);
          active.removeAllListeners('data');
          active.removeAllListeners('fetch');
          if (error === undefined) resolve();
          else reject(error);
        };
        const deadline = setTimeout(
          () => settle(new Error(`reading the committed tail of ${this.options.topic} did not finish within ${READBACK_TIMEOUT_FACTOR * this.timeoutMs()} ms`)),
          READBACK_TIMEOUT_FACTOR * this.timeoutMs(),
        );
        active.on('fetch', () => {
          emptyFetches += 1;
          if (emptyFetches > EMPTY_FETCHES) settle();
        });
        active.on('data', (message: { value: string | undefined; partition: number; offset: bigint }) => {
          emptyFetches = 0;
          const seq = seqOf(message.value);
          if (seq > highest) highest = seq;
          const end = pending.get(message.partition);
          // the last data record of a committed transaction sits right before its commit marker
          if (end !== undefined && message.offset + 2n >= end) pending.delete(message.partition);
          if (pending.size === 0) settle();
        });
        active.once('error', (error: unknown) => settle(error instanceof Error ? error : new Error(String(error))));
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
