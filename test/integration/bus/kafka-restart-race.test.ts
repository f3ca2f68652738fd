/**
 * A producer restarted right after a commit: the commit answer comes before the commit markers
 * reach the partition, so the restarted driver must not read the committed tail before the
 * earlier incarnation's transaction is complete. Twenty restarts in a row, each checked.
 */
import { expect } from 'chai';
import { numberEnvelope } from '../../../api-server/src/events/envelope.js';
import { ruptureDraft } from '../../../api-server/src/events/envelope-drafts.js';
import { KafkaBusDriver } from '../../../api-server/src/events/bus/kafka-driver.js';
import { band } from '../../support/envelope-drafts.js';
import { startKafkaBroker, type KafkaBroker } from '../../support/kafka-broker.js';
import { readTopic } from '../../support/kafka-reader.js';

describe('Kafka bus driver restarted right after a commit', function () {
  this.timeout(180_000);
  let broker: KafkaBroker;

  before(async () => {
    broker = await startKafkaBroker();
  });
  after(async () => {
    await broker?.remove();
  });

  it('every restarted incarnation knows the last committed seq and adds no copy', async () => {
    const topic = 'svc.events.restarts';
    const t0 = Date.UTC(2026, 10, 1);
    const envelope = (seq: number) => numberEnvelope(ruptureDraft(band('shop/Deployment/cart', 'emergency', t0 + seq * 15_000), null, false), seq);
    const rounds = 20;
    for (let round = 1; round <= rounds; round += 1) {
      const driver = new KafkaBusDriver({ brokers: [broker.bootstrap], topic, transactionalId: 'faultline-test-restarts' });
      await driver.connect();
      expect(driver.highestCommittedSeq, `round ${round}`).to.equal(round - 1);
      // the previous round's envelope again (a lost answer), then this round's
      await driver.publish(round > 1 ? [envelope(round - 1), envelope(round)] : [envelope(round)]);
      await driver.close();
    }
    const records = await readTopic(broker.bootstrap, topic, rounds);
    expect(records.map((r) => (JSON.parse(r.value ?? '{}') as { seq: number }).seq)).to.deep.equal(Array.from({ length: rounds }, (_, i) => i + 1));
  });
});
