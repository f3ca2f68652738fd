/**
 * Issue 10: three service replicas (real processes) on one real Kafka broker (KRaft, loopback).
 * Telemetry goes round-robin to all three; each workload is analysed by exactly one replica;
 * every replica answers reads for every workload; a SIGKILLed replica's partitions move and its
 * workloads keep their calibration and history with no acknowledged sample lost; restarted, it
 * rejoins and takes partitions again.
 *
 * "No sample lost, none counted twice" is read off calibration: one sample per workload per 15-s
 * bucket, calibration over 100 steps, so calibration_progress is exactly the number of buckets
 * the workload's analysis has processed.
 *
 * Issue 36: from the kill to the restart's catch-up, a monitor reads every workload from every
 * replica about four times a second; calibration_progress never goes down in any replica's
 * reads. Assignment is sticky: the kill moves exactly the victim's partitions, the restart takes
 * back its share and nothing else moves. rpt_ingest_samples_total counts what senders sent.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { startKafkaBroker, type KafkaBroker } from '../../support/kafka-broker.js';
import { clusterConfigLines, startReplica, type ReplicaProcess } from '../../support/replica-process.js';
import { eventually } from '../../support/service.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { monitorProgress, type ProgressMonitor } from './progress-monitor.js';

const WORKLOADS = Array.from({ length: 12 }, (_, i) => `shop/Deployment/w${i}`);
const STEP = 15_000;
const PARTITIONS = 6;

interface ClusterHealth {
  cluster: { replica: string; owned: number[]; analysed: string[]; viewed_workloads: number; restores: number; last_assignment_moved: number | null };
}

describe('cluster mode: three replicas on Kafka partitions', function () {
  this.timeout(240_000);
  let broker: KafkaBroker;
  const dirs: { path: string; remove: () => Promise<void> }[] = [];
  const replicas: (ReplicaProcess | undefined)[] = [];
  const configs: string[] = [];
  const base = Math.floor(Date.now() / STEP) * STEP - 60 * 60_000;
  let sent = 0;
  /** per replica slot, samples its current process acknowledged to the test */
  const acknowledged = [0, 0, 0];

  const get = async <T>(r: ReplicaProcess, path: string): Promise<{ status: number; body: T }> => {
    const res = await fetch(`${r.api}${path}`);
    return { status: res.status, body: (await res.json()) as T };
  };
  const health = async (r: ReplicaProcess): Promise<ClusterHealth['cluster']> => (await get<ClusterHealth>(r, '/health')).body.cluster;
  const live = (): ReplicaProcess[] => replicas.filter((r): r is ReplicaProcess => r !== undefined);
  /** a self-metric's value on one replica (0 when absent) */
  const metric = async (r: ReplicaProcess, series: string): Promise<number> => {
    const text = await (await fetch(`${r.api}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? 0 : Number(line.slice(series.length + 1));
  };
  /** partitions whose owner (by replica slot) differs between two ownership readings */
  const moved = (before: Map<number, number>, after: Map<number, number>): number => [...after].filter(([p, slot]) => before.get(p) !== slot).length;
  const owners = async (): Promise<Map<number, number>> => {
    const out = new Map<number, number>();
    for (let slot = 0; slot < replicas.length; slot += 1) {
      const r = replicas[slot];
      if (r !== undefined) for (const p of (await health(r)).owned) out.set(p, slot);
    }
    return out;
  };
  let monitor: ProgressMonitor | undefined;

  /** buckets [from, to) for every workload, one sample each, round-robin over the live replicas */
  async function send(from: number, to: number, spike?: { workload: string; bucket: number }): Promise<void> {
    const targets = live();
    let n = 0;
    for (let b = from; b < to; b += 1) {
      for (const w of WORKLOADS) {
        const target = targets[n % targets.length] as ReplicaProcess;
        n += 1;
        acknowledged[replicas.indexOf(target)] += 1;
        const body = {
          timeseries: [
            {
              Labels: [
                { Name: '__name__', Value: 'cpu_percent' },
                { Name: 'host', Value: w },
              ],
              Samples: [{ Value: spike !== undefined && spike.workload === w && spike.bucket === b ? 0.97 : 0.3 + 0.01 * Math.sin(b), Timestamp: base + b * STEP + 1_000 }],
            },
          ],
        };
        const res = await fetch(`${target.api}/write`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        expect(res.status, await res.text()).to.equal(204);
      }
    }
    sent = to;
  }

  /** every live replica answers every workload with `steps` processed buckets */
  async function everyReplicaSees(steps: number, what: string): Promise<void> {
    await eventually(
      async () => {
        for (const r of live()) {
          for (const w of WORKLOADS) {
            const res = await get<{ calibration_progress: number }>(r, `/rupture/${w}`);
            if (res.status !== 200 || res.body.calibration_progress !== steps) return undefined;
          }
        }
        return true;
      },
      60_000,
      what,
    );
  }

  /** the live replicas own disjoint partitions covering all (and, with data, analyse disjoint workloads covering all) */
  async function ownershipIsExact(withWorkloads = true): Promise<ClusterHealth['cluster'][]> {
    return eventually(
      async () => {
        const all = await Promise.all(live().map(health));
        const owned = all.flatMap((h) => h.owned).sort((a, b) => a - b);
        const analysed = all.flatMap((h) => h.analysed).sort();
        if (owned.join(',') !== Array.from({ length: PARTITIONS }, (_, p) => p).join(',')) return undefined;
        if (withWorkloads && analysed.join(',') !== [...WORKLOADS].sort().join(',')) return undefined;
        return all;
      },
      60_000,
      withWorkloads ? 'disjoint, complete ownership of partitions and workloads' : 'disjoint, complete ownership of partitions',
    );
  }

  before(async () => {
    broker = await startKafkaBroker();
    const suffix = randomBytes(4).toString('hex');
    for (let i = 0; i < 3; i += 1) {
      const dir = await makeTempDir(`replica${i}`);
      dirs.push(dir);
      const config = join(dir.path, 'faultline.yaml');
      await writeFile(
        config,
        [
          'baselines:',
          '  observation_window: 100',
          ...clusterConfigLines({ bootstrap: broker.bootstrap, replica: i, suffix, partitions: PARTITIONS, topics: ['telemetry', 'state'] }),
        ].join('\n') + '\n',
      );
      configs.push(config);
    }
    for (let i = 0; i < 3; i += 1) replicas.push(await startReplica(configs[i] as string, join((dirs[i] as { path: string }).path, 'data')));
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed') {
      for (const r of live()) console.log(r.log().split('\n').filter((l) => /cluster|error|warn/i.test(l)).slice(-40).join('\n'));
    }
  });

  after(async () => {
    await monitor?.stop();
    await Promise.all(live().map((r) => r.kill()));
    await broker?.remove();
    await Promise.all(dirs.map((d) => d.remove()));
  });

  it('analyses each workload once, on one replica, and every replica answers reads for every workload', async () => {
    await ownershipIsExact(false);
    await send(0, 30);
    await everyReplicaSees(30, '30 processed buckets on every replica');
    const all = await ownershipIsExact();
    expect(all.filter((h) => h.owned.length > 0)).to.have.length(3);
    for (const r of live()) {
      const list = (await get<{ ruptures: unknown[] }>(r, '/ruptures')).body.ruptures;
      expect(list).to.have.length(WORKLOADS.length);
    }
    // the ingest counter counts what the senders sent (acknowledged), not what the owners read
    const counted = await Promise.all(live().map((r) => metric(r, 'rpt_ingest_samples_total{source="metrics"}')));
    expect(counted).to.deep.equal(acknowledged);
    expect(counted.reduce((a, b) => a + b, 0)).to.equal(30 * WORKLOADS.length);
  });

  it('a SIGKILLed replica: its partitions move, its workloads keep calibration and history, no acknowledged sample is lost', async () => {
    const victim = replicas[1] as ReplicaProcess;
    const before = await health(victim);
    expect(before.analysed.length).to.be.greaterThan(0);
    const ownedBefore = await owners();
    monitor = monitorProgress(() => replicas.map((r) => r?.api), WORKLOADS);
    // records it may have analysed but not yet checkpointed: the new owner must replay them
    await send(sent, 40);
    await victim.kill('SIGKILL');
    const killedAt = Date.now();
    replicas[1] = undefined;
    // telemetry keeps coming to the survivors while the group notices the loss
    await send(sent, 50);
    await ownershipIsExact();
    console.log(`      failover: partitions owned again ${Date.now() - killedAt} ms after the SIGKILL`);
    await everyReplicaSees(50, '50 processed buckets after the failover');
    console.log(`      failover: every replica reads 50 processed buckets ${Date.now() - killedAt} ms after the SIGKILL`);
    const survivors = await Promise.all(live().map(health));
    expect(survivors.reduce((a, h) => a + h.restores, 0)).to.be.greaterThan(0);
    for (const w of before.analysed) expect(survivors.some((h) => h.analysed.includes(w)), w).to.equal(true);
    // sticky: only the victim's partitions moved
    expect(moved(ownedBefore, await owners())).to.equal(before.owned.length);
    // the survivors' ingest counters still count only what they acknowledged: the replay of the
    // victim's partitions counts apart
    for (const slot of [0, 2]) expect(await metric(replicas[slot] as ReplicaProcess, 'rpt_ingest_samples_total{source="metrics"}'), `slot ${slot}`).to.equal(acknowledged[slot]);
    const replayed = (await Promise.all(live().map((r) => metric(r, 'rpt_cluster_replayed_samples_total{source="metrics"}')))).reduce((a, b) => a + b, 0);
    console.log(`      failover: ${replayed} samples replayed by the survivors`);
  });

  it('the restarted replica rejoins and takes partitions again', async () => {
    const ownedBefore = await owners();
    acknowledged[1] = 0;
    replicas[1] = await startReplica(configs[1] as string, join((dirs[1] as { path: string }).path, 'data'));
    await eventually(async () => ((await health(replicas[1] as ReplicaProcess)).owned.length > 0 ? true : undefined), 60_000, 'the rejoined replica to own partitions');
    await ownershipIsExact(false);
    await send(sent, 60);
    await everyReplicaSees(60, '60 processed buckets with three replicas again');
    await ownershipIsExact();
    // it takes back its share (6 partitions / 3), nothing else moves
    const back = (await health(replicas[1] as ReplicaProcess)).owned.length;
    expect(back).to.equal(PARTITIONS / 3);
    expect(moved(ownedBefore, await owners())).to.equal(back);
    await (monitor as ProgressMonitor).stop();
    const drops = (monitor as ProgressMonitor).drops();
    console.log(`      ${(monitor as ProgressMonitor).reads()} reads from the kill to here, ${drops.length} went backwards`);
    expect(drops, JSON.stringify(drops.slice(0, 10))).to.deep.equal([]);
    expect((monitor as ProgressMonitor).reads()).to.be.greaterThan(WORKLOADS.length * 3 * 10);
  });

  it('a replica stopped with SIGTERM checkpoints, leaves the group and exits 0; the others carry on without a gap', async () => {
    const leaving = replicas[2] as ReplicaProcess;
    await send(sent, 65);
    const started = Date.now();
    expect(await leaving.kill('SIGTERM')).to.equal(0);
    expect(Date.now() - started).to.be.lessThan(15_000);
    replicas[2] = undefined;
    await send(sent, 70);
    await ownershipIsExact();
    await everyReplicaSees(70, '70 processed buckets on the two that stayed');
  });

  it('control writes on one replica (suppressions, weights, context, emergency stop) apply on every replica, in order', async () => {
    const all = live();
    const [a, b, c] = [all[0], all[1], all[all.length - 1]] as [ReplicaProcess, ReplicaProcess, ReplicaProcess];
    const post = async (r: ReplicaProcess, path: string, body: unknown): Promise<{ status: number; body: { id?: string } }> => {
      const res = await fetch(`${r.api}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as { id?: string } };
    };
    const now = Date.now();
    const sup = await post(a, '/suppressions', { workload: 'shop/Deployment/w3', start: new Date(now - 60_000).toISOString(), end: new Date(now + 3_600_000).toISOString(), reason: 'maintenance' });
    expect(sup.status).to.equal(201);
    // read-your-write on the replica that took it
    expect((await get<{ suppressions: { id: string }[] }>(a, '/suppressions')).body.suppressions.map((x) => x.id)).to.include(sup.body.id);
    expect((await post(b, '/config/weights', [{ selector: 'shop/*', humidity: 1 }])).status).to.equal(200);
    expect((await post(c, '/context', { workload: 'shop/Deployment/w4', event: 'deploy', description: 'v2' })).status).to.equal(201);
    for (const r of all) {
      await eventually(async () => {
        const sups = (await get<{ suppressions: { id: string }[] }>(r, '/suppressions')).body.suppressions.map((x) => x.id);
        const weights = (await get<{ selector: string }[]>(r, '/config/weights')).body.map((w) => w.selector);
        const events = (await get<{ events: { workload: string }[] }>(r, '/context')).body.events.map((e) => e.workload);
        return sups.includes(sup.body.id as string) && weights.join() === 'shop/*' && events.includes('shop/Deployment/w4') ? true : undefined;
      }, 20_000, 'the control writes on every replica');
    }
    // the emergency stop halts Tier-1 automation on every replica, and is released on every replica
    expect((await fetch(`${a.api}/actions/emergency-stop`, { method: 'POST' })).status).to.equal(200);
    expect((await get<{ emergency_stop: boolean }>(a, '/actions/emergency-stop')).body.emergency_stop).to.equal(true);
    for (const r of all) {
      await eventually(async () => ((await get<{ emergency_stop: boolean }>(r, '/actions/emergency-stop')).body.emergency_stop ? true : undefined), 20_000, 'the stop on every replica');
    }
    expect((await fetch(`${c.api}/actions/emergency-stop`, { method: 'DELETE' })).status).to.equal(200);
    for (const r of all) {
      await eventually(async () => ((await get<{ emergency_stop: boolean }>(r, '/actions/emergency-stop')).body.emergency_stop ? undefined : true), 20_000, 'the release on every replica');
    }
    const del = await fetch(`${c.api}/suppressions/${sup.body.id as string}`, { method: 'DELETE' });
    expect(del.status).to.equal(204);
    for (const r of all) {
      await eventually(async () => ((await get<{ suppressions: { id: string }[] }>(r, '/suppressions')).body.suppressions.length === 0 ? true : undefined), 20_000, 'the deletion on every replica');
    }
  });

  it('anomalies the owner raises are read on every replica', async () => {
    const spiked = WORKLOADS[5] as string;
    await send(sent, 125, { workload: spiked, bucket: 120 });
    const idsOf = (l: { id: string }[]): string => l.map((a) => a.id).sort().join(',');
    // the other replicas read the owner's anomalies from the bus, at most a tick behind: one of a
    // spike's anomalies can be there before the other, so wait until every replica has them all
    const lists = await eventually(
      async () => {
        const all = await Promise.all(live().map(async (r) => (await get<{ anomalies: { id: string; workload: { name: string } }[] }>(r, `/anomalies/${spiked}?since=${new Date(base).toISOString()}`)).body.anomalies));
        return all.every((l) => l.length > 0) && new Set(all.map(idsOf)).size === 1 ? all : undefined;
      },
      60_000,
      'the same spike anomalies on every replica',
    );
    const ids = lists.map(idsOf);
    expect(new Set(ids).size, 'the same anomalies everywhere').to.equal(1);
    expect((lists[0] ?? [])[0]?.workload.name).to.equal('w5');
  });
});
