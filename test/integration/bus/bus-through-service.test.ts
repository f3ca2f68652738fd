/**
 * The message bus through the real service: band changes caused by ingested telemetry are stored,
 * streamed, and published to a real nats-server (JetStream) and a real Kafka broker, read back by
 * independent consumers. Every state change the service streamed arrives once per NATS
 * subscriber and exactly once on Kafka; a broker stopped mid-test (and, for Kafka, the service
 * restarted while the broker is down) loses nothing: the backlog waits in LevelDB, /health shows
 * it, and it drains when the broker returns. Sinks in the same service skip suppressed workloads.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { Envelope } from '../../../api-server/src/delivery/envelope.js';
import { startReceiver } from '../../support/http-receiver.js';
import { startKafkaBroker, type KafkaBroker } from '../../support/kafka-broker.js';
import { readTopic } from '../../support/kafka-reader.js';
import { startNatsServer, type NatsServer } from '../../support/nats-server.js';
import { outboundStatus, postRupturingHistory, streamedEvents } from '../../support/rupture-history.js';
import { eventually, startTestService, type TestService } from '../../support/service.js';
import { makeTempDir } from '../../support/temp-dir.js';

async function configFile(lines: string[]): Promise<{ path: string; remove: () => Promise<void> }> {
  const dir = await makeTempDir('bus-config');
  const path = join(dir.path, 'faultline.yaml');
  await writeFile(path, lines.join('\n') + '\n');
  return { path, remove: dir.remove };
}

/** Waits until the service has streamed band events for every listed workload and the bus backlog is empty. */
async function settled(svc: TestService, workloads: string[], channel: string, timeoutMs = 60_000): Promise<string[]> {
  return eventually(
    async () => {
      const events = await streamedEvents(svc);
      if (!workloads.every((w) => events.some((e) => e.workload === w))) return undefined;
      const status = (await outboundStatus(svc)).find((s) => s.channel === channel);
      return status !== undefined && status.backlog === 0 ? events.map((e) => e.id) : undefined;
    },
    timeoutMs,
    `band events of ${workloads.join(', ')} and an empty ${channel} backlog`,
  );
}

/**
 * postRupturingHistory sends a workload's metrics, logs and spans as three requests. Without a
 * grace a tick that runs between them analyses the metric buckets alone (the logs and spans then
 * come late, bucket-grace.test.ts), and a resource ramp alone is not announced: no band event, and
 * the test timed out whenever the machine was slow enough for that tick to fall in between. A
 * grace of 5 s lets every bucket wait for its other sources, as cluster mode does by default.
 */
const SOURCES_TOGETHER = { SVC_BUCKET_GRACE_SECONDS: '5' };

function countIds(ids: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

describe('message bus through the service (real nats-server and Kafka broker)', function () {
  this.timeout(240_000);

  describe('NATS with JetStream, plus a webhook sink and a suppression', () => {
    let nats: NatsServer;
    let svc: TestService;
    let config: { path: string; remove: () => Promise<void> };
    const conns: NatsConnection[] = [];

    after(async () => {
      for (const nc of conns) await nc.close().catch(() => undefined);
      await svc?.stop();
      await svc?.remove();
      await nats?.remove();
      await config?.remove();
    });

    it('every band change reaches each subscriber once; a NATS outage mid-test loses nothing; the suppressed workload is not dispatched', async () => {
      nats = await startNatsServer();
      const admin = await connect({ servers: nats.url });
      conns.push(admin);
      await (await jetstreamManager(admin)).streams.add({ name: 'FAULTLINE', subjects: ['svc.rupture.>', 'svc.actions.tier1'] });
      const hook = await startReceiver();
      config = await configFile(['eventbus:', '  driver: nats', `  servers: ["${nats.url}"]`, 'sinks:', '  webhooks:', `    - {name: ops, url: "${hook.url}/hook", secret: k3y}`]);
      svc = await startTestService({ args: ['--config', config.path], env: SOURCES_TOGETHER });
      const subscribers: Envelope[][] = [[], []];
      for (const into of subscribers) {
        const nc = await connect({ servers: nats.url, reconnect: true, maxReconnectAttempts: -1, reconnectTimeWait: 200 });
        conns.push(nc);
        const sub = nc.subscribe('svc.rupture.>');
        void (async () => {
          for await (const m of sub) into.push(m.json<Envelope>());
        })();
        await nc.flush();
      }
      // a maintenance window on one workload: its ruptures are recorded and published, not dispatched
      const now = Date.now();
      expect((await svc.post('/suppressions', { workload: 'bus/Deployment/quiet', start: new Date(now - 60_000).toISOString(), end: new Date(now + 3_600_000).toISOString(), reason: 'maintenance' })).status).to.equal(201);

      await postRupturingHistory(svc, 'bus', 'alpha');
      await postRupturingHistory(svc, 'bus', 'quiet');
      const first = await settled(svc, ['bus/Deployment/alpha', 'bus/Deployment/quiet'], 'bus:nats');
      await eventually(async () => (subscribers.every((s) => s.length >= first.length) ? true : undefined), 10_000, 'the subscribers to catch up');
      for (const received of subscribers) expect(received.map((e) => e.id)).to.deep.equal(first);
      expect(subscribers[0]!.every((e) => e.topic === `svc.rupture.${e.workload}` && e.schema === 'faultline.event/v1')).to.equal(true);

      // sinks skip the suppressed workload; the bus carries it, flagged
      const sentToHook = () => hook.requests.map((q) => JSON.parse(q.body) as { workload: string; event_id: string });
      await eventually(async () => (sentToHook().some((b) => b.workload === 'bus/Deployment/alpha') ? true : undefined), 10_000, 'the webhook');
      expect(sentToHook().some((b) => b.workload === 'bus/Deployment/quiet')).to.equal(false);
      expect(subscribers[0]!.filter((e) => e.workload === 'bus/Deployment/quiet').every((e) => e.suppressed)).to.equal(true);

      // the broker goes away: band changes keep coming, wait in the outbox, and show in /health
      await nats.stop();
      await postRupturingHistory(svc, 'bus', 'beta');
      await eventually(async () => {
        const s = (await outboundStatus(svc)).find((c) => c.channel === 'bus:nats');
        return s !== undefined && s.backlog > 0 && s.failures > 0 && !s.connected ? true : undefined;
      }, 30_000, 'a NATS backlog with failures in /health');
      const metrics = await fetch(`${svc.api}/metrics`).then((r) => r.text());
      expect(metrics).to.match(/rpt_outbound_backlog\{channel="bus:nats"\} [1-9]/);
      expect(metrics).to.match(/rpt_outbound_failures_total\{channel="bus:nats"\} [1-9]/);
      await nats.start();
      const all = await settled(svc, ['bus/Deployment/beta'], 'bus:nats', 90_000);

      // the stream holds every state change the service streamed, once each
      const check = await connect({ servers: nats.url });
      conns.push(check);
      const info = await (await jetstreamManager(check)).streams.info('FAULTLINE');
      const stored: Envelope[] = [];
      const consumer = await jetstream(check).consumers.get('FAULTLINE');
      for await (const m of await consumer.fetch({ max_messages: 1000, expires: 1_000 })) stored.push(m.json<Envelope>());
      expect(stored.filter((e) => e.type === 'rupture.state_changed').map((e) => e.id)).to.deep.equal(all);
      // Tier-1 recommendations of those ruptures went to svc.actions.tier1 in the same sequence
      const actions = stored.filter((e) => e.type === 'action.tier1');
      expect(actions.length).to.be.greaterThan(0);
      expect(actions.every((e) => e.topic === 'svc.actions.tier1')).to.equal(true);
      expect(info.state.messages).to.equal(stored.length);
      expect(new Set(stored.map((e) => e.id)).size).to.equal(stored.length);
      await hook.close();
    });
  });

  describe('Kafka, exactly once', () => {
    let broker: KafkaBroker;
    let svc: TestService | undefined;
    let dataDir: { path: string; remove: () => Promise<void> };
    let config: { path: string; remove: () => Promise<void> };

    after(async () => {
      await svc?.stop();
      await broker?.remove();
      await dataDir?.remove();
      await config?.remove();
    });

    it('every band change lands exactly once, through retries, a broker outage and a service restart during it', async () => {
      broker = await startKafkaBroker();
      dataDir = await makeTempDir('bus-kafka-data');
      config = await configFile(['eventbus:', '  driver: kafka', `  brokers: ["${broker.bootstrap}"]`, '  topic: faultline.events', '  transactional_id: faultline-it']);
      svc = await startTestService({ args: ['--config', config.path], dataDir: dataDir.path, env: SOURCES_TOGETHER });
      await postRupturingHistory(svc, 'kbus', 'alpha');
      const first = await settled(svc, ['kbus/Deployment/alpha'], 'bus:kafka', 90_000);
      const early = await readTopic(broker.bootstrap, 'faultline.events', first.length);
      expect(early.filter((r) => r.headers.get('type') === 'rupture.state_changed').map((r) => [r.key, r.headers.get('subject')])).to.deep.equal(first.map(() => ['svc.rupture.kbus/Deployment/alpha', 'svc.rupture.kbus/Deployment/alpha']));

      // outage: the broker stops, new band changes wait; the service itself restarts meanwhile
      await broker.stop();
      await postRupturingHistory(svc, 'kbus', 'beta');
      await eventually(async () => {
        const s = (await outboundStatus(svc!)).find((c) => c.channel === 'bus:kafka');
        return s !== undefined && s.backlog > 0 && s.failures > 0 ? true : undefined;
      }, 60_000, 'a Kafka backlog with failures in /health');
      const beforeRestart = (await streamedEvents(svc)).map((e) => e.id);
      await svc.stop();
      svc = await startTestService({ args: ['--config', config.path], dataDir: dataDir.path, env: SOURCES_TOGETHER });
      await broker.start();
      await eventually(async () => ((await outboundStatus(svc!)).find((c) => c.channel === 'bus:kafka')?.backlog === 0 ? true : undefined), 120_000, 'the backlog stored before the restart to drain');

      const records = (await readTopic(broker.bootstrap, 'faultline.events', beforeRestart.length)).map((r) => JSON.parse(r.value ?? '{}') as Envelope);
      const counts = countIds(records.map((e) => e.id));
      expect([...counts.values()].every((n) => n === 1), `duplicates: ${JSON.stringify([...counts].filter(([, n]) => n > 1))}`).to.equal(true);
      // every band change streamed before the restart is there, in order (the restarted service may add more)
      const ruptures = records.filter((e) => e.type === 'rupture.state_changed').map((e) => e.id);
      expect(ruptures.slice(0, beforeRestart.length)).to.deep.equal(beforeRestart);
      const seqs = records.map((e) => e.seq);
      expect(seqs).to.deep.equal([...seqs].sort((a, b) => a - b));
    });
  });
});
