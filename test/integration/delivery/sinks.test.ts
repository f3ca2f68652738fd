/**
 * The sinks against real HTTP receivers on loopback, driven the way the service drives them:
 * envelopes in the LevelDB outbox, one delivery worker per sink. Signatures verify, a 5xx is
 * retried until it succeeds, a 4xx is dropped, suppressed envelopes send nothing, a recovery
 * resolves the Alertmanager alert and the PagerDuty incident.
 */
import type { Socket } from 'node:net';
import { expect } from 'chai';
import { ClassicLevel } from 'classic-level';
import { AlertmanagerSink } from '../../../api-server/src/delivery/sinks/alertmanager-sink.js';
import { PagerDutySink } from '../../../api-server/src/delivery/sinks/pagerduty-sink.js';
import { SinkChannel } from '../../../api-server/src/delivery/sinks/sink-channel.js';
import { PermanentDeliveryError, RetryableDeliveryError, type Sink } from '../../../api-server/src/delivery/sinks/sink.js';
import { verifyWebhookSignature, WebhookSink } from '../../../api-server/src/delivery/sinks/webhook-sink.js';
import { DeliveryWorker } from '../../../api-server/src/delivery/delivery-worker.js';
import { actionDraft, ruptureDraft } from '../../../api-server/src/delivery/envelope-drafts.js';
import type { EnvelopeDraft } from '../../../api-server/src/delivery/envelope.js';
import { EventOutbox } from '../../../api-server/src/delivery/outbox.js';
import { band } from '../../support/envelope-drafts.js';
import { startReceiver, type ReceivedRequest } from '../../support/http-receiver.js';
import { eventually } from '../../support/service.js';
import { makeTempDir } from '../../support/temp-dir.js';

const W = 'shop/Deployment/cart';
const R = 'r_0123456789ab';

describe('dispatch sinks against real HTTP receivers', function () {
  this.timeout(30_000);
  let dir: { path: string; remove: () => Promise<void> };
  let db: ClassicLevel<string, string>;
  let outbox: EventOutbox;
  const closers: (() => Promise<void>)[] = [];

  beforeEach(async () => {
    dir = await makeTempDir('sinks');
    db = new ClassicLevel<string, string>(dir.path);
    await db.open();
    outbox = new EventOutbox(db, 4096);
    await outbox.load();
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await db.close();
    await dir.remove();
  });

  /** Runs the sink behind a worker until its backlog is empty; returns what the worker counted. */
  async function deliver(sink: Sink, drafts: EnvelopeDraft[]): Promise<{ rejected: number; failures: number }> {
    let rejected = 0;
    const channel = new SinkChannel(sink, { rejected: () => (rejected += 1) });
    await outbox.register(channel.name);
    const worker = new DeliveryWorker(channel, outbox, { delivered: () => undefined, failed: () => undefined, dropped: () => undefined, log: () => undefined }, { minMs: 10, maxMs: 50, idleMs: 50 });
    worker.start();
    await outbox.append(drafts);
    await eventually(async () => (outbox.backlog(channel.name) === 0 ? true : undefined), 10_000, 'the sink backlog to drain');
    await worker.stop();
    return { rejected, failures: worker.status().failures };
  }

  async function receiver(reply: (r: ReceivedRequest, i: number) => { status: number; body?: unknown } = () => ({ status: 200 })): Promise<Awaited<ReturnType<typeof startReceiver>>> {
    const r = await startReceiver(reply);
    closers.push(r.close);
    return r;
  }

  it('webhook: signed JSON for band and Tier-1 events, retried on 503 until accepted, suppressed events not sent', async () => {
    const r = await receiver((_, i) => ({ status: i < 2 ? 503 : 200 }));
    const t = Date.now();
    const sink = new WebhookSink({ name: 'ops', url: `${r.url}/hook?token=secret-in-url`, secret: 'k3y', events: ['rupture.state_changed', 'action.tier1'], minSeverity: 'warning', timeoutMs: 2_000 });
    const result = await deliver(sink, [
      ruptureDraft(band(W, 'critical', t), 'cart is in critical state', false),
      ruptureDraft(band('ops/Deployment/batch', 'emergency', t), null, true),
      actionDraft({ id: 'act_1', workload: W, type: 'scale', tier: 1, status: 'executed', rupture_id: R, reason: null, description: 'Scale cart by +2' }, t, false),
    ]);
    expect(result.failures).to.equal(2);
    const bodies = r.requests.map((q) => JSON.parse(q.body) as Record<string, unknown>);
    // two refused attempts of the first event, then both events once; never the suppressed one
    expect(bodies.map((b) => b['event_id'])).to.deep.equal(['ev_000001', 'ev_000001', 'ev_000001', 'ev_000003']);
    expect(bodies.map((b) => b['event'])).to.deep.equal(['rupture.state_changed', 'rupture.state_changed', 'rupture.state_changed', 'action.executed']);
    expect(bodies[2]).to.include({ source: 'faultline', workload: W, rupture_id: R, schema: 'faultline.event/v1', narrative: 'cart is in critical state' });
    expect(bodies[3]).to.include({ action_type: 'scale', tier: 1, rupture_id: R });
    for (const q of r.requests) {
      expect(verifyWebhookSignature('k3y', q.headers['x-faultline-timestamp'] as string, q.body, q.headers['x-faultline-signature'] as string, Math.floor(Date.now() / 1000))).to.equal(true);
      expect(verifyWebhookSignature('wrong', q.headers['x-faultline-timestamp'] as string, q.body, q.headers['x-faultline-signature'] as string, Math.floor(Date.now() / 1000))).to.equal(false);
    }
  });

  it('one attempt per call: 503 and a hung receiver are retryable, 400 is permanent; errors never show the URL', async () => {
    const statuses = [503, 400, 429];
    const r = await receiver((_, i) => ({ status: statuses[i] ?? 200 }));
    const sink = new WebhookSink({ name: 'ops', url: `${r.url}/hook?token=secret-in-url`, secret: undefined, events: ['rupture.state_changed'], minSeverity: 'warning', timeoutMs: 500 });
    const env = { ...ruptureDraft(band(W, 'critical', Date.now()), null, false), id: 'ev_000001', seq: 1 } as const;
    const errorOf = async (): Promise<unknown> => sink.deliver(env).then(() => undefined, (e: unknown) => e);
    const e503 = await errorOf();
    expect(e503).to.be.instanceOf(RetryableDeliveryError);
    expect((e503 as Error).message).to.equal('webhook:ops: HTTP 503');
    expect(await errorOf()).to.be.instanceOf(PermanentDeliveryError);
    expect(await errorOf()).to.be.instanceOf(RetryableDeliveryError);
    expect(await errorOf()).to.equal(undefined);
    // a receiver that never answers
    const { createServer } = await import('node:net');
    const sockets: Socket[] = [];
    const hung = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    closers.push(
      () =>
        new Promise((resolve) => {
          for (const socket of sockets) socket.destroy();
          hung.close(() => resolve());
        }),
    );
    const port = (hung.address() as { port: number }).port;
    const slow = new WebhookSink({ name: 'slow', url: `http://127.0.0.1:${port}/x?token=abc`, secret: undefined, events: ['rupture.state_changed'], minSeverity: 'warning', timeoutMs: 300 });
    const t0 = Date.now();
    const err = await slow.deliver(env).then(() => undefined, (e: unknown) => e);
    expect(err).to.be.instanceOf(RetryableDeliveryError);
    expect((err as Error).message).to.equal('webhook:slow: no answer within 300 ms');
    expect(Date.now() - t0).to.be.lessThan(2_000);
    expect(String((err as Error).message)).to.not.include('token');
  });

  it('webhook: a 400 is dropped and counted, the worker moves on', async () => {
    const r = await receiver((_, i) => ({ status: i === 0 ? 400 : 200 }));
    const sink = new WebhookSink({ name: 'ops', url: r.url, secret: undefined, events: ['rupture.state_changed'], minSeverity: 'warning', timeoutMs: 1_000 });
    const t = Date.now();
    const result = await deliver(sink, [ruptureDraft(band(W, 'critical', t), null, false), ruptureDraft(band(W, 'recovered', t + 15_000), null, false)]);
    expect(result.rejected).to.equal(1);
    expect(r.requests).to.have.length(2);
  });

  it('Alertmanager: firing alert with routing labels, severity change resolves the old one, recovery resolves with the same labels', async () => {
    const r = await receiver();
    const t = Date.UTC(2026, 10, 1, 9);
    await deliver(new AlertmanagerSink({ url: `${r.url}/`, generatorUrl: 'https://faultline.example/', timeoutMs: 1_000 }), [
      ruptureDraft(band(W, 'critical', t), 'cart: error burst', false),
      ruptureDraft(band(W, 'emergency', t + 15_000), null, false),
      ruptureDraft(band(W, 'recovered', t + 60_000), null, false),
    ]);
    expect(r.requests.map((q) => `${q.method} ${q.url}`)).to.deep.equal(Array(3).fill('POST /api/v2/alerts'));
    type Alert = { labels: Record<string, string>; annotations: Record<string, string>; startsAt: string; endsAt: string; generatorURL?: string };
    const [fire, escalate, recover] = r.requests.map((q) => JSON.parse(q.body) as Alert[]);
    const labels = { alertname: 'WorkloadRupture', namespace: 'shop', kind: 'Deployment', workload: 'cart', rupture_id: R };
    expect(fire).to.have.length(1);
    expect(fire![0]!.labels).to.deep.equal({ ...labels, severity: 'critical' });
    expect(fire![0]!.annotations['narrative']).to.equal('cart: error burst');
    expect(fire![0]!.startsAt).to.equal(new Date(t).toISOString());
    expect(Date.parse(fire![0]!.endsAt)).to.be.greaterThan(t + 3_600_000);
    expect(fire![0]!.generatorURL).to.equal('https://faultline.example/');
    expect(escalate!.map((a) => [a.labels['severity'], a.endsAt])).to.deep.equal([
      ['critical', new Date(t + 15_000).toISOString()],
      ['emergency', new Date(t + 15_000 + 24 * 3_600_000).toISOString()],
    ]);
    expect(escalate![1]!.startsAt).to.equal(new Date(t).toISOString());
    expect(recover).to.have.length(1);
    expect(recover![0]!.labels).to.deep.equal({ ...labels, severity: 'emergency' });
    expect(recover![0]!.endsAt).to.equal(new Date(t + 60_000).toISOString());
  });

  it('PagerDuty: trigger with dedup key = rupture id, acknowledge on an executed Tier-1 action, resolve on recovery', async () => {
    const r = await receiver(() => ({ status: 202, body: { status: 'success' } }));
    const t = Date.UTC(2026, 10, 1, 9);
    await deliver(new PagerDutySink({ routingKey: 'RK', url: `${r.url}/v2/enqueue`, timeoutMs: 1_000 }), [
      ruptureDraft(band(W, 'emergency', t), 'cart is in emergency state (FusedR=7.5).\nmore', false),
      ruptureDraft(band(W, 'warning', t, null), null, false), // no rupture id: not an incident
      actionDraft({ id: 'act_1', workload: W, type: 'scale', tier: 1, status: 'pending', rupture_id: R }, t, false),
      actionDraft({ id: 'act_1', workload: W, type: 'scale', tier: 1, status: 'executed', rupture_id: R }, t + 5_000, false),
      ruptureDraft(band(W, 'recovered', t + 60_000), null, false),
    ]);
    const events = r.requests.map((q) => JSON.parse(q.body) as Record<string, unknown> & { payload?: Record<string, unknown> });
    expect(events.map((e) => [e['event_action'], e['dedup_key'], e['routing_key']])).to.deep.equal([
      ['trigger', R, 'RK'],
      ['acknowledge', R, 'RK'],
      ['resolve', R, 'RK'],
    ]);
    expect(events[0]!.payload).to.include({ summary: 'cart is in emergency state (FusedR=7.5).', source: W, severity: 'critical', component: 'cart', group: 'shop', class: 'rupture' });
    const severities = [['emergency', 'critical'], ['critical', 'error'], ['warning', 'warning']] as const;
    for (const [bandType, pd] of severities) {
      const sink = new PagerDutySink({ routingKey: 'RK', url: r.url, timeoutMs: 1_000 });
      const e = sink.eventFor({ ...ruptureDraft(band(W, bandType, t), null, false), id: 'ev_1', seq: 1 });
      expect((e['payload'] as Record<string, unknown>)['severity']).to.equal(pd);
    }
  });
});
