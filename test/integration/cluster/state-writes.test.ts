/**
 * A checkpoint of workloads with full windows on a real broker (KRaft, loopback): their states,
 * ~165 KB of JSON each, go to the state topic in writes of bounded size (StateLedger.writes,
 * sendPendingStates), each acknowledged, stored once and equal to the exported state. Sent as one
 * produce request, as checkpoints were sent before, the same records exceed what the broker takes
 * in one partition's record batch and are refused.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { AnalysisCoreImpl } from '../../../api-server/src/analysis/analysis-core.js';
import { ensureClusterTopics, STATE_TOPIC_MAX_MESSAGE_BYTES } from '../../../api-server/src/cluster/cluster-topics.js';
import { ReplayOffsets } from '../../../api-server/src/cluster/replay-offsets.js';
import { SerialProducer } from '../../../api-server/src/cluster/serial-producer.js';
import { kafkaErrorText } from '../../../api-server/src/kafka/kafka-errors.js';
import { sendPendingStates, StateLedger } from '../../../api-server/src/cluster/state-ledger.js';
import { startKafkaBroker, type KafkaBroker } from '../../support/kafka-broker.js';
import { readTopic } from '../../support/kafka-reader.js';

const METRICS = ['cpu_percent', 'memory_percent', 'latency_p99_ms', 'error_rate', 'request_rate', 'restart_count'];
const STEP = 15_000;

describe('cluster: a checkpoint of full-window states on a real broker', function () {
  this.timeout(240_000);
  let broker: KafkaBroker;
  before(async () => {
    broker = await startKafkaBroker();
  });
  after(async () => {
    await broker?.remove();
  });

  it('writes 60 full states of one partition in bounded writes, each stored once as exported; in one request the broker refuses them', async () => {
    const suffix = randomBytes(3).toString('hex');
    const names = { telemetry: `t-${suffix}`, state: `s-${suffix}`, control: `c-${suffix}`, history: `h-${suffix}`, historyRetentionMs: 86_400_000 };
    // one partition: every workload's state in it
    await ensureClusterTopics([broker.bootstrap], names, 1, 'test');
    let n = 0;
    const core = new AnalysisCoreImpl({ newHexId: () => (n++).toString(16).padStart(12, '0') });
    const keys = Array.from({ length: 60 }, (_, i) => `shop/Deployment/w${i}`);
    const origin = Math.floor(Date.now() / STEP) * STEP - 330 * STEP;
    for (let b = 0; b < 320; b++) {
      for (const [w, key] of keys.entries()) {
        for (const [m, name] of METRICS.entries()) core.observeMetric({ workload: key, pod: undefined, name, value: 0.3 + 0.05 * Math.sin(b * 0.7 + m + w), timeMs: origin + b * STEP + 1_000 });
      }
      core.step(origin + (b + 1) * STEP + 1);
    }
    const replay = new ReplayOffsets();
    replay.startAt(0, 0n);
    const ledger = new StateLedger(core, replay, names.state, 1);
    const all = (): boolean => true;
    const exported = new Map(keys.map((k) => [k, JSON.stringify(core.exportWorkload(k))]));
    const total = [...exported.values()].reduce((b, v) => b + v.length, 0);
    // full windows: more than the topic takes in one record batch
    expect(Math.min(...[...exported.values()].map((v) => v.length))).to.be.above(100_000);
    expect(total).to.be.above(STATE_TOPIC_MAX_MESSAGE_BYTES);

    const producer = new SerialProducer([broker.bootstrap], 'test-state-writes');
    try {
      // as checkpoints were sent: every pending state in one produce request
      const refused = await producer.send([...ledger.writes(all, Number.POSITIVE_INFINITY)].flatMap((w) => w.messages)).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(kafkaErrorText(refused), 'one request of every state').to.contain('MESSAGE_TOO_LARGE');

      const written = await sendPendingStates(ledger, producer, all, all);
      expect(written).to.equal(60);
      // acknowledged and confirmed: nothing pending
      expect([...ledger.writes(all, Number.POSITIVE_INFINITY)]).to.deep.equal([]);
      const records = (await readTopic(broker.bootstrap, names.state, 61, 60_000)).filter((r) => r.key?.startsWith('s|'));
      expect(records).to.have.length(60);
      for (const r of records) expect(r.value, r.key).to.equal(exported.get(r.key!.slice(2)));
    } finally {
      await producer.close();
    }
  });
});
