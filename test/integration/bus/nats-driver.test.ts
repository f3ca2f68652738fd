/**
 * The NATS driver against a real nats-server (JetStream on), read back by independent
 * subscribers: core subjects without a stream (each subscriber gets each envelope once, in
 * order), JetStream with a stream (a retried batch is stored once), and a server stopped and
 * restarted mid-test (publish fails fast, nothing acknowledged is lost, nothing doubles).
 */
import { expect } from 'chai';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { Envelope } from '../../../api-server/src/delivery/envelope.js';
import { numberEnvelope } from '../../../api-server/src/delivery/envelope.js';
import { actionDraft, ruptureDraft } from '../../../api-server/src/delivery/envelope-drafts.js';
import { NatsBusDriver } from '../../../api-server/src/delivery/bus/nats-driver.js';
import { band } from '../../support/envelope-drafts.js';
import { startNatsServer, type NatsServer } from '../../support/nats-server.js';

function envelopes(from: number, count: number): Envelope[] {
  const t0 = Date.UTC(2026, 10, 1);
  return Array.from({ length: count }, (_, i) => {
    const seq = from + i;
    const draft =
      seq % 5 === 0
        ? actionDraft({ id: `act_${seq}`, workload: 'shop/Deployment/cart', type: 'scale', tier: 1, status: 'pending', rupture_id: 'r_0123456789ab' }, t0 + seq, false)
        : ruptureDraft(band(seq % 2 === 0 ? 'shop/Deployment/cart' : 'pay/StatefulSet/ledger.v2', 'critical', t0 + seq * 15_000), null, false);
    return numberEnvelope(draft, seq);
  });
}

async function collect(nc: NatsConnection, subject: string, into: Envelope[]): Promise<void> {
  const sub = nc.subscribe(subject);
  void (async () => {
    for await (const m of sub) into.push(m.json<Envelope>());
  })();
  await nc.flush();
}

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('NATS bus driver against a real nats-server', function () {
  this.timeout(60_000);
  let server: NatsServer;
  const open: NatsConnection[] = [];
  const client = async (): Promise<NatsConnection> => {
    const nc = await connect({ servers: server.url, reconnect: true, maxReconnectAttempts: -1, reconnectTimeWait: 200 });
    open.push(nc);
    return nc;
  };

  beforeEach(async () => {
    server = await startNatsServer();
  });
  afterEach(async () => {
    for (const nc of open.splice(0)) await nc.close().catch(() => undefined);
    await server.remove();
  });

  it('without a stream: every envelope reaches each of two subscribers once, in order, on svc.rupture.> and svc.actions.tier1', async () => {
    const a: Envelope[] = [];
    const b: Envelope[] = [];
    const tier1: Envelope[] = [];
    await collect(await client(), 'svc.rupture.>', a);
    await collect(await client(), 'svc.rupture.>', b);
    await collect(await client(), 'svc.actions.tier1', tier1);
    const driver = new NatsBusDriver({ servers: [server.url] });
    await driver.connect();
    const sent = envelopes(1, 40);
    await driver.publish(sent.slice(0, 15));
    await driver.publish(sent.slice(15));
    const ruptures = sent.filter((e) => e.type === 'rupture.state_changed').map((e) => e.id);
    await until(() => a.length >= ruptures.length && b.length >= ruptures.length && tier1.length >= 8, 5_000, 'deliveries');
    await new Promise((r) => setTimeout(r, 200));
    expect(a.map((e) => e.id)).to.deep.equal(ruptures);
    expect(b.map((e) => e.id)).to.deep.equal(ruptures);
    expect(tier1.map((e) => e.id)).to.deep.equal(sent.filter((e) => e.type === 'action.tier1').map((e) => e.id));
    const dotted = a.find((e) => e.workload === 'pay/StatefulSet/ledger.v2');
    expect(dotted?.topic).to.equal('svc.rupture.pay/StatefulSet/ledger.v2');
    expect(dotted?.schema).to.equal('faultline.event/v1');
    await driver.close();
  });

  it('with a JetStream stream: acknowledged publishes, and a retried batch is stored once (Nats-Msg-Id)', async () => {
    const nc = await client();
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: 'FAULTLINE', subjects: ['svc.rupture.>', 'svc.actions.tier1'] });
    const driver = new NatsBusDriver({ servers: [server.url] });
    await driver.connect();
    const sent = envelopes(1, 30);
    await driver.publish(sent);
    await driver.publish(sent.slice(10)); // the worker offers the same envelopes again after a lost answer
    const info = await jsm.streams.info('FAULTLINE');
    expect(info.state.messages).to.equal(30);
    const consumer = await jetstream(nc).consumers.get('FAULTLINE');
    const ids: string[] = [];
    const batch = await consumer.fetch({ max_messages: 100, expires: 1_000 });
    for await (const m of batch) {
      ids.push(m.headers?.get('Nats-Msg-Id') ?? '');
      expect(m.json<Envelope>().id).to.equal(m.headers?.get('Nats-Msg-Id'));
    }
    expect(ids).to.deep.equal(sent.map((e) => e.id));
    await driver.close();
  });

  it('server stopped mid-test: publish fails fast; restarted: the same envelopes go through once and nothing acknowledged is lost', async () => {
    const nc = await client();
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: 'FAULTLINE', subjects: ['svc.rupture.>', 'svc.actions.tier1'] });
    const driver = new NatsBusDriver({ servers: [server.url], ackTimeoutMs: 1_000, connectTimeoutMs: 1_000 });
    await driver.connect();
    const sent = envelopes(1, 20);
    await driver.publish(sent.slice(0, 10));
    await server.stop();
    const t0 = Date.now();
    let failed = false;
    try {
      await driver.publish(sent.slice(10));
    } catch {
      failed = true;
    }
    expect(failed).to.equal(true);
    expect(Date.now() - t0).to.be.lessThan(5_000);
    expect(driver.connected()).to.equal(false);
    let reconnectFailed = false;
    await driver.connect().catch(() => {
      reconnectFailed = true;
    });
    expect(reconnectFailed).to.equal(true);
    await server.start();
    // what the delivery worker does: connect again, then offer the unacknowledged batch again
    await driver.connect();
    await driver.publish(sent.slice(10));
    await driver.publish(sent.slice(10));
    const check = await connect({ servers: server.url });
    open.push(check);
    const info = await (await jetstreamManager(check)).streams.info('FAULTLINE');
    expect(info.state.messages).to.equal(20);
    const consumer = await jetstream(check).consumers.get('FAULTLINE');
    const ids: string[] = [];
    for await (const m of await consumer.fetch({ max_messages: 100, expires: 1_000 })) ids.push(m.json<Envelope>().id);
    expect(ids).to.deep.equal(sent.map((e) => e.id));
    await driver.close();
  });
});
