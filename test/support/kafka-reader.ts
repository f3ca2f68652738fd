/**
 * An independent read_committed consumer of a whole topic for the bus tests: reads from the
 * earliest offset until `expected` records arrived (or a time-out), then waits a little longer so
 * a duplicate would show, and returns every record.
 */
import { Consumer, FetchIsolationLevels, stringDeserializers } from '@platformatic/kafka';

export interface ReadRecord {
  key: string | undefined;
  value: string | undefined;
  headers: Map<string, string>;
  partition: number;
  offset: bigint;
}

export async function readTopic(bootstrap: string, topic: string, expected: number, timeoutMs = 15_000): Promise<ReadRecord[]> {
  const consumer = new Consumer({ clientId: 'test-reader', groupId: `test-reader-${Date.now()}-${Math.random()}`, bootstrapBrokers: [bootstrap], deserializers: stringDeserializers });
  const records: ReadRecord[] = [];
  try {
    const stream = await consumer.consume({ topics: [topic], mode: 'earliest', isolationLevel: FetchIsolationLevels.READ_COMMITTED, autocommit: false, maxWaitTime: 100 });
    await new Promise<void>((resolve) => {
      let settle: NodeJS.Timeout | undefined;
      const deadline = setTimeout(resolve, timeoutMs);
      stream.on('data', (m: { key: string | undefined; value: string | undefined; headers: Map<string, string>; partition: number; offset: bigint }) => {
        records.push({ key: m.key, value: m.value, headers: m.headers, partition: m.partition, offset: m.offset });
        if (records.length >= expected && settle === undefined) {
          settle = setTimeout(() => {
            clearTimeout(deadline);
            resolve();
          }, 700);
        }
      });
    });
    await stream.close().catch(() => undefined);
  } finally {
    const closing: Promise<void> = consumer.close();
    await closing.catch(() => undefined);
  }
  return records;
}
