/**
 * The cluster's producer on a real broker: many concurrent callers (as concurrent ingest requests
 * are) all get their records acknowledged, each caller learns the offset of its own last record,
 * and the topic holds every record once, in each caller's order.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { ensureClusterTopics } from '../../../api-server/src/cluster/cluster-topics.js';
import { SerialProducer } from '../../../api-server/src/cluster/serial-producer.js';
import { startKafkaBroker, type KafkaBroker } from '../../support/kafka-broker.js';
import { readTopic } from '../../support/kafka-reader.js';

describe('cluster: the serial, coalescing producer on a real broker', function () {
  this.timeout(120_000);
  let broker: KafkaBroker;
  before(async () => {
    broker = await startKafkaBroker();
  });
  after(async () => {
    await broker?.remove();
  });

  it('acknowledges 50 concurrent callers × 20 records, once each, with each caller’s own offsets', async () => {
    const suffix = randomBytes(3).toString('hex');
    const topic = `t-${suffix}`;
    await ensureClusterTopics([broker.bootstrap], { telemetry: topic, state: `s-${suffix}`, control: `c-${suffix}`, history: `h-${suffix}`, historyRetentionMs: 86_400_000 }, 2, 'test');
    const producer = new SerialProducer([broker.bootstrap], 'test-serial');
    try {
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, c) => producer.send(Array.from({ length: 20 }, (_, i) => ({ topic, partition: c % 2, key: `c${c}`, value: `${c}:${i}` })))),
      );
      const lastOffsets = results.map((r, c) => r.get(`${topic}:${c % 2}`));
      expect(lastOffsets.every((o) => typeof o === 'bigint')).to.equal(true);
      const records = await readTopic(broker.bootstrap, topic, 1000);
      expect(records).to.have.length(1000);
      expect(new Set(records.map((r) => r.value)).size).to.equal(1000);
      for (let c = 0; c < 50; c += 1) {
        const mine = records.filter((r) => r.key === `c${c}`);
        expect(mine.map((r) => r.value)).to.deep.equal(Array.from({ length: 20 }, (_, i) => `${c}:${i}`));
        // the offset the caller was given is that of its own last record
        const last = mine[mine.length - 1];
        expect(last?.partition).to.equal(c % 2);
        expect(last?.offset).to.equal(lastOffsets[c]);
      }
    } finally {
      await producer.close();
    }
  });
});
