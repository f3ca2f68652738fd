/**
 * Issue 36: SIGTERM at any moment of a rebalance exits 0 after its flush. Two replicas stay up on
 * a real Kafka broker (KRaft, loopback) while a third joins the group and is stopped with SIGTERM
 * at a different moment of its join every time (0 to 1.9 s after it reported ready: joining,
 * syncing, restoring its partitions, analysing), with telemetry flowing. Every stop exits 0, and
 * afterwards the two that stayed own every partition and every workload kept its processed
 * buckets.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { startKafkaBroker, type KafkaBroker } from '../../support/kafka-broker.js';
import { clusterConfigLines, startReplica, type ReplicaProcess } from '../../support/replica-process.js';
import { eventually } from '../../support/service.js';
import { makeTempDir } from '../../support/temp-dir.js';

const WORKLOADS = Array.from({ length: 12 }, (_, i) => `shop/Deployment/w${i}`);
const STEP = 15_000;
const PARTITIONS = 6;
const ITERATIONS = 20;

describe('cluster mode: a replica stopped during a rebalance', function () {
  this.timeout(600_000);
  let broker: KafkaBroker;
  const dirs: { path: string; remove: () => Promise<void> }[] = [];
  const configs: string[] = [];
  const stable: ReplicaProcess[] = [];
  let joining: ReplicaProcess | undefined;
  const base = Math.floor(Date.now() / STEP) * STEP - 60 * 60_000;
  let sent = 0;

  async function send(to: number): Promise<void> {
    let n = 0;
    for (let b = sent; b < to; b += 1) {
      for (const w of WORKLOADS) {
        const target = stable[n++ % stable.length] as ReplicaProcess;
        const body = { timeseries: [{ Labels: [{ Name: '__name__', Value: 'cpu_percent' }, { Name: 'host', Value: w }], Samples: [{ Value: 0.3 + 0.01 * Math.sin(b), Timestamp: base + b * STEP + 1_000 }] }] };
        const res = await fetch(`${target.api}/write`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        expect(res.status, await res.text()).to.equal(204);
      }
    }
    sent = to;
  }

  const progressEverywhere = (steps: number): Promise<true> =>
    eventually(
      async () => {
        for (const r of stable) {
          for (const w of WORKLOADS) {
            const res = await fetch(`${r.api}/rupture/${w}`);
            if (res.status !== 200 || ((await res.json()) as { calibration_progress: number }).calibration_progress !== steps) return undefined;
          }
        }
        return true;
      },
      90_000,
      `${steps} processed buckets on both stable replicas`,
    );

  before(async () => {
    broker = await startKafkaBroker();
    const suffix = randomBytes(4).toString('hex');
    for (let i = 0; i < 3; i += 1) {
      const dir = await makeTempDir(`stop-replica${i}`);
      dirs.push(dir);
      const config = join(dir.path, 'faultline.yaml');
      await writeFile(config, ['baselines:', '  observation_window: 100', ...clusterConfigLines({ bootstrap: broker.bootstrap, replica: i, suffix, partitions: PARTITIONS, topics: ['telemetry', 'state'] })].join('\n') + '\n');
      configs.push(config);
    }
    for (let i = 0; i < 2; i += 1) stable.push(await startReplica(configs[i] as string, join((dirs[i] as { path: string }).path, 'data')));
    await send(10);
    await progressEverywhere(10);
  });

  after(async () => {
    await joining?.kill('SIGKILL');
    await Promise.all(stable.map((r) => r.kill()));
    await broker?.remove();
    await Promise.all(dirs.map((d) => d.remove()));
  });

  it(`exits 0 on SIGTERM at any moment of its join, ${ITERATIONS} times, and the others lose nothing`, async () => {
    const started = Date.now();
    const stops: number[] = [];
    for (let i = 0; i < ITERATIONS; i += 1) {
      joining = await startReplica(configs[2] as string, join((dirs[2] as { path: string }).path, 'data'));
      // telemetry while the group rebalances (every other round), then the stop at a moment that moves by 100 ms each round
      if (i % 2 === 0) await send(sent + 1);
      await new Promise((resolve) => setTimeout(resolve, (i * 100) % 2_000));
      const stopAt = Date.now();
      const code = await joining.kill('SIGTERM');
      stops.push(Date.now() - stopAt);
      const log = joining.log();
      joining = undefined;
      expect(code, `round ${i}: exit code; log tail:\n${log.split('\n').slice(-15).join('\n')}`).to.equal(0);
      expect(log, `round ${i}`).not.to.match(/Unhandled 'error' event|unhandledRejection|uncaughtException/);
    }
    console.log(`      ${ITERATIONS} rounds in ${Math.round((Date.now() - started) / 1000)} s; SIGTERM to exit: max ${Math.max(...stops)} ms, median ${stops.sort((a, b) => a - b)[Math.floor(stops.length / 2)]} ms`);
    // the two that stayed own everything again and nothing acknowledged was lost
    await eventually(
      async () => {
        const owned = (await Promise.all(stable.map(async (r) => ((await (await fetch(`${r.api}/health`)).json()) as { cluster: { owned: number[] } }).cluster.owned))).flat();
        return owned.sort((a, b) => a - b).join(',') === Array.from({ length: PARTITIONS }, (_, p) => p).join(',') ? true : undefined;
      },
      60_000,
      'the two stable replicas to own every partition',
    );
    await send(sent + 2);
    await progressEverywhere(sent);
  });
});
