/**
 * Bench of cluster mode (issue 10) on one real Kafka broker (KRaft, loopback) and real replica
 * processes on this machine:
 *
 * - ingest throughput with 1, 2 and 3 replicas: CLIENTS concurrent HTTP clients post remote-write
 *   JSON batches (BATCH samples over 100 workloads each) round-robin to the replicas for SECONDS;
 *   counted are samples acknowledged (204), i.e. acknowledged by Kafka. The broker, the replicas
 *   and this load generator share the machine's cores, so the scaling is that of the machine.
 * - rebalance for N workloads (default 10 000): one replica analyses them all and checkpoints;
 *   a second one joins; timed is the join until the two own disjoint partitions covering all and
 *   together analyse all N workloads (the newcomer restored its share from the state topic).
 *
 * Needs the Kafka jars (bash hack/install-kafka.sh). Run alone: `node --import tsx bench/cluster.ts`.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startKafkaBroker, type KafkaBroker } from '../test/support/kafka-broker.js';
import { startReplica, type ReplicaProcess } from '../test/support/replica-process.js';
import { makeTempDir } from '../test/support/temp-dir.js';

const SECONDS = Number(process.env['BENCH_CLUSTER_SECONDS'] ?? 10);
const CLIENTS = Number(process.env['BENCH_CLUSTER_CLIENTS'] ?? 16);
const BATCH = 500;
const REBALANCE_WORKLOADS = Number(process.env['BENCH_CLUSTER_WORKLOADS'] ?? 10_000);
const PARTITIONS = 12;
const STEP = 15_000;

interface Health {
  cluster: { owned: number[]; analysed: string[] };
}

async function writeConfig(dir: string, bootstrap: string, replica: string, suffix: string): Promise<string> {
  const path = join(dir, `${replica}.yaml`);
  await writeFile(
    path,
    ['cluster:', '  enabled: true', `  brokers: ["${bootstrap}"]`, `  replica_id: ${replica}`, `  group: bench-${suffix}`, `  partitions: ${PARTITIONS}`, '  checkpoint_seconds: 5', '  topics:', `    telemetry: bench-telemetry-${suffix}`, `    state: bench-state-${suffix}`, `    control: bench-control-${suffix}`].join('\n') + '\n',
  );
  return path;
}

/** `n` replicas named by `name`, in the cluster (group and topics) named by `cluster` */
async function startReplicas(broker: KafkaBroker, n: number, name: string, root: string, cluster = name): Promise<ReplicaProcess[]> {
  const out: ReplicaProcess[] = [];
  for (let i = 0; i < n; i += 1) out.push(await startReplica(await writeConfig(root, broker.bootstrap, `r${i}-${name}`, cluster), join(root, `data-${name}-${i}`)));
  return out;
}

async function health(r: ReplicaProcess): Promise<Health['cluster']> {
  return ((await (await fetch(`${r.api}/health`)).json()) as Health).cluster;
}

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const covered = async (replicas: ReplicaProcess[], workloads?: number): Promise<boolean> => {
  const all = await Promise.all(replicas.map(health));
  const owned = all.flatMap((h) => h.owned).sort((a, b) => a - b);
  if (owned.length !== PARTITIONS || owned.some((p, i) => p !== i)) return false;
  return workloads === undefined || all.reduce((a, h) => a + h.analysed.length, 0) === workloads;
};

function body(workloads: string[], from: number, count: number, t: number): string {
  const timeseries = [];
  for (let i = 0; i < count; i += 1) {
    timeseries.push({
      Labels: [
        { Name: '__name__', Value: 'cpu_percent' },
        { Name: 'host', Value: workloads[(from + i) % workloads.length] as string },
      ],
      Samples: [{ Value: 0.3 + 0.1 * Math.random(), Timestamp: t }],
    });
  }
  return JSON.stringify({ timeseries });
}

async function throughput(replicas: ReplicaProcess[]): Promise<number> {
  const workloads = Array.from({ length: 100 }, (_, i) => `bench/Deployment/w${i}`);
  const deadline = Date.now() + SECONDS * 1000;
  let acked = 0;
  const refused = new Map<string, number>();
  const client = async (c: number): Promise<void> => {
    let n = c;
    while (Date.now() < deadline) {
      const target = replicas[n % replicas.length] as ReplicaProcess;
      n += 1;
      const res = await fetch(`${target.api}/write`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(workloads, n * 7, BATCH, Date.now() - 60_000) });
      const text = await res.text();
      if (res.status === 204) acked += BATCH;
      else {
        const why = `${res.status} ${text.slice(0, 120)}`;
        refused.set(why, (refused.get(why) ?? 0) + 1);
      }
    }
  };
  const t0 = Date.now();
  await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
  for (const [why, n] of refused) console.error(`cluster bench: ${n} batches refused: ${why}`);
  return acked / ((Date.now() - t0) / 1000);
}

async function rebalance(broker: KafkaBroker, root: string): Promise<{ ms: number; workloads: number }> {
  const suffix = randomBytes(3).toString('hex');
  const [first] = await startReplicas(broker, 1, suffix, root);
  const one = first as ReplicaProcess;
  const replicas = [one];
  try {
    await until(() => covered(replicas), 60_000, 'the first replica to own every partition');
    const workloads = Array.from({ length: REBALANCE_WORKLOADS }, (_, i) => `bench/Deployment/r${i}`);
    const base = Math.floor(Date.now() / STEP) * STEP - 30 * 60_000;
    // three buckets per workload, so each has processed buckets and a state to hand over
    for (let b = 0; b < 3; b += 1) {
      for (let from = 0; from < workloads.length; from += 1000) {
        const res = await fetch(`${one.api}/write`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(workloads, from, Math.min(1000, workloads.length - from), base + b * STEP + 1000) });
        if (res.status !== 204) throw new Error(`ingest refused: ${res.status}`);
      }
    }
    await until(() => covered(replicas, REBALANCE_WORKLOADS), 300_000, 'the first replica to analyse every workload');
    await new Promise((r) => setTimeout(r, 7_000)); // one checkpoint interval (5 s) and a margin
    const t0 = Date.now();
    replicas.push(...(await startReplicas(broker, 1, `${suffix}b`, root, suffix)));
    await until(async () => (await covered(replicas, REBALANCE_WORKLOADS)) && (await health(replicas[1] as ReplicaProcess)).analysed.length > 0, 300_000, 'the rebalance');
    return { ms: Date.now() - t0, workloads: REBALANCE_WORKLOADS };
  } finally {
    await Promise.all(replicas.map((r) => r.kill()));
  }
}

export async function runClusterBench(): Promise<{ name: string; value: string }[]> {
  const rows: { name: string; value: string }[] = [];
  const broker = await startKafkaBroker();
  const root = await makeTempDir('bench-cluster');
  try {
    rows.push({ name: 'cluster: machine', value: `${cpus().length} cores, 1 Kafka broker, ${CLIENTS} clients × ${BATCH}-sample batches` });
    for (const n of [1, 2, 3]) {
      const suffix = randomBytes(3).toString('hex');
      const replicas = await startReplicas(broker, n, suffix, root.path);
      try {
        await until(() => covered(replicas), 60_000, `${n} replicas to share the partitions`);
        const rate = await throughput(replicas);
        rows.push({ name: `cluster ingest, ${n} replica${n > 1 ? 's' : ''} (acknowledged by Kafka)`, value: `${Math.round(rate).toLocaleString('en-US')} samples/s` });
      } finally {
        await Promise.all(replicas.map((r) => r.kill()));
      }
    }
    const r = await rebalance(broker, root.path);
    rows.push({ name: `cluster rebalance: a 2nd replica joins, ${r.workloads.toLocaleString('en-US')} workloads restored and shared`, value: `${(r.ms / 1000).toFixed(1)} s` });
  } finally {
    await broker.remove();
    await root.remove();
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await runClusterBench()) console.log(`${row.name.padEnd(80)} ${row.value}`);
}
