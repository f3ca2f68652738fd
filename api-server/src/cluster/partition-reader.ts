/**
 * Reads partitions of a topic from their earliest offset up to the end they had when the read
 * began (the high watermark), handing every record over in offset order; the restore of a
 * workload partition and the start of the read view both need "everything written so far".
 */
import { randomBytes } from 'node:crypto';
import { Consumer, ListOffsetTimestamps, stringDeserializers } from '../kafka/kafka-client.js';

export interface TopicRecord {
  key: string | undefined;
  value: string | undefined;
  partition: number;
  offset: bigint;
}

type StringConsumer = Consumer<string, string, string, string>;

const IDLE_MS = 15_000;

export function newReadConsumer(brokers: string[], clientId: string, onError?: (error: unknown) => void): StringConsumer {
  // the client wants a group id and joins it even for manual reads: one of its own per process, so
  // a previous incarnation's member (a SIGKILLed replica) can never hold the join up
  const consumer = new Consumer({ clientId, groupId: `${clientId}-reader-${randomBytes(6).toString('hex')}`, bootstrapBrokers: brokers, deserializers: stringDeserializers, timeout: 10_000, retries: 3, retryDelay: 300 });
  // an 'error' event without a listener would end the process
  consumer.on('error', (error: unknown) => onError?.(error));
  return consumer;
}

/** Closes a consumer (force: without waiting for in-flight fetches) and ignores its errors. */
export function closeConsumer(consumer: { close(force?: boolean): Promise<void> }, force = false): Promise<void> {
  return consumer.close(force).catch(() => undefined);
}

/** Every record of `partitions` written before the call; returns the end offsets it read up to. */
export async function readPartitionsToEnd(consumer: StringConsumer, topic: string, partitions: readonly number[], onRecord: (r: TopicRecord) => void): Promise<Map<number, bigint>> {
  const ends = (await consumer.listOffsets({ topics: [topic], timestamp: ListOffsetTimestamps.LATEST })).get(topic) ?? [];
  const starts = (await consumer.listOffsets({ topics: [topic], timestamp: ListOffsetTimestamps.EARLIEST })).get(topic) ?? [];
  const endOf = new Map<number, bigint>();
  const todo = new Map<number, bigint>();
  for (const p of partitions) {
    const end = ends[p] ?? 0n;
    endOf.set(p, end);
    if ((starts[p] ?? 0n) < end) todo.set(p, end);
  }
  if (todo.size === 0) return endOf;
  const stream = await consumer.consume({
    topics: [topic],
    mode: 'manual',
    offsets: [...todo.keys()].map((partition) => ({ topic, partition, offset: starts[partition] ?? 0n })),
    autocommit: false,
    maxWaitTime: 100,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      let idle: NodeJS.Timeout | undefined;
      const rearm = (): void => {
        clearTimeout(idle);
        idle = setTimeout(() => {
          stream.removeAllListeners('data');
          reject(new Error(`reading ${topic} stalled: partitions ${[...todo.keys()].join(',')} did not reach their end offsets within ${IDLE_MS} ms`));
        }, IDLE_MS);
      };
      rearm();
      stream.on('data', (m: { key: string | undefined; value: string | undefined; partition: number; offset: bigint }) => {
        const end = todo.get(m.partition);
        if (end === undefined) return;
        onRecord({ key: m.key, value: m.value, partition: m.partition, offset: m.offset });
        if (m.offset + 1n >= end) todo.delete(m.partition);
        if (todo.size === 0) {
          clearTimeout(idle);
          stream.removeAllListeners('data');
          resolve();
        } else rearm();
      });
      // `on`, not `once`: a second error (the client closed during a stop) must not go unhandled
      stream.on('error', (error: unknown) => {
        clearTimeout(idle);
        reject(error instanceof Error ? error : new Error(String(error)));
      });
    });
  } finally {
    await stream.close().catch(() => undefined);
  }
  return endOf;
}
