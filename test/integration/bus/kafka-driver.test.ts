/**
 * The Kafka driver against a real single-node KRaft broker, read back by an independent
 * read_committed consumer: every envelope arrives once with its key, headers and JSON value; a
 * retried batch and a restarted producer re-offering committed envelopes add nothing, also when it
 * restarts right after each commit; a broker stopped mid-test fails the publish, and after the
 * restart the same envelopes land exactly once.
 */
import { expect } from 'chai';
import type { Envelope } from '../../../api-server/src/delivery/envelope.js';
import { numberEnvelope } from '../../../api-server/src/delivery/envelope.js';
import { actionDraft, ruptureDraft } from '../../../api-server/src/delivery/envelope-drafts.js';
import { KafkaBusDriver } from '../../../api-server/src/delivery/bus/kafka-driver.js';
import { band } from '../../support/envelope-drafts.js';
import { startKafkaBroker, type KafkaBroker } from '../../support/kafka-broker.js';
import { readTopic } from '../../support/kafka-reader.js';

function envelopes(from: number, count: number): Envelope[] {
  const t0 = Date.UTC(2026, 10, 1);
  return Array.from({ length: count }, (_, i) => {
    const seq = from + i;
    const draft =
      seq % 4 === 0
        ? actionDraft({ id: `act_${seq}`, workload: 'shop/Deployment/cart', type: 'scale', tier: 1, status: 'executed', rupture_id: 'r_0123456789ab' }, t0 + seq, false)
        : ruptureDraft(band(seq % 2 === 0 ? 'shop/Deployment/cart' : 'pay/StatefulSet/ledger', 'emergency', t0 + seq * 15_000), null, false);
    return numberEnvelope(draft, seq);
  });
}

const seqs = (records: { value: string | undefined }[]): number[] => records.map((r) => (JSON.parse(r.value ?? '{}') as Envelope).seq);
const range = (a: number, b: number): number[] => Array.from({ length: b - a + 1 }, (_, i) => a + i);

describe('Kafka bus driver against a real KRaft broker', function () {
  this.timeout(120_000);
  let broker: KafkaBroker;

  before(async () => {
    broker = await startKafkaBroker();
  });
  after(async () => {
    await broker?.remove();
  });

  it('publishes each envelope once with key = subject, headers and the JSON envelope as value', async () => {
    const topic = 'svc.events.basic';
    const driver = new KafkaBusDriver({ brokers: [broker.bootstrap], topic, transactionalId: 'faultline-test-basic' });
    await driver.connect();
    const sent = envelopes(1, 12);
    await driver.publish(sent.slice(0, 5));
    await driver.publish(sent.slice(5));
    await driver.close();
    const records = await readTopic(broker.bootstrap, topic, 12);
    expect(seqs(records)).to.deep.equal(range(1, 12));
    const first = records[0]!;
    expect(first.key).to.equal('svc.rupture.pay/StatefulSet/ledger');
    expect(first.headers.get('subject')).to.equal('svc.rupture.pay/StatefulSet/ledger');
    expect(first.headers.get('type')).to.equal('rupture.state_changed');
    expect(first.headers.get('schema')).to.equal('faultline.event/v1');
    const action = records.find((r) => r.key === 'svc.actions.tier1');
    expect(action?.headers.get('type')).to.equal('action.tier1');
  });

  it('a retried batch and a restarted producer re-offering committed envelopes leave exactly one copy of each', async () => {
    const topic = 'svc.events.retry';
    const sent = envelopes(1, 20);
    const driver = new KafkaBusDriver({ brokers: [broker.bootstrap], topic, transactionalId: 'faultline-test-retry' });
    await driver.connect();
    await driver.publish(sent.slice(0, 10));
    await driver.publish(sent.slice(0, 10)); // the same batch again, as after a lost answer
    await driver.close();
    // a new process: nothing in memory; it must learn from the topic what is already committed
    const restarted = new KafkaBusDriver({ brokers: [broker.bootstrap], topic, transactionalId: 'faultline-test-retry' });
    await restarted.connect();
    expect(restarted.highestCommittedSeq).to.equal(10);
    await restarted.publish(sent.slice(5, 20));
    await restarted.close();
    const records = await readTopic(broker.bootstrap, topic, 20);
    expect(seqs(records)).to.deep.equal(range(1, 20));
  });

  it('a producer restarted right after each of 20 commits knows the last committed seq and adds no copy', async () => {
    // a commit's answer comes before its markers reach the partition: the restarted driver must
    // not read the committed tail before the earlier incarnation's transaction is complete
    const topic = 'svc.events.restarts';
    const sent = envelopes(1, 20);
    for (let round = 1; round <= sent.length; round += 1) {
      const driver = new KafkaBusDriver({ brokers: [broker.bootstrap], topic, transactionalId: 'faultline-test-restarts' });
      await driver.connect();
      expect(driver.highestCommittedSeq, `round ${round}`).to.equal(round - 1);
      // the previous round's envelope again (a lost answer), then this round's
      await driver.publish(sent.slice(Math.max(0, round - 2), round));
      await driver.close();
    }
    const records = await readTopic(broker.bootstrap, topic, sent.length);
    expect(seqs(records)).to.deep.equal(range(1, sent.length));
  });

  it('broker stopped mid-test: the publish fails; restarted: the same envelopes land exactly once, nothing acknowledged is lost', async () => {
    const topic = 'svc.events.outage';
    const sent = envelopes(1, 16);
    const driver = new KafkaBusDriver({ brokers: [broker.bootstrap], topic, transactionalId: 'faultline-test-outage', timeoutMs: 2_000 });
    await driver.connect();
    await driver.publish(sent.slice(0, 8));
    await broker.stop();
    let failed = false;
    await driver.publish(sent.slice(8)).catch(() => {
      failed = true;
    });
    expect(failed).to.equal(true);
    expect(driver.connected()).to.equal(false);
    await broker.start();
    // the delivery worker's retry: connect again (retrying while the broker comes up), re-offer
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        await driver.connect();
        await driver.publish(sent.slice(8));
        break;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    await driver.close();
    const records = await readTopic(broker.bootstrap, topic, 16);
    expect(seqs(records)).to.deep.equal(range(1, 16));
  });
});
