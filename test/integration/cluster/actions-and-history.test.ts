/**
 * Issue 10, actions and history in cluster mode: three replica processes on one real KRaft broker,
 * autopilot edition, Tier-1 automation held (execution_mode: suggest), the webhook executor
 * pointed at a real receiver that counts executions per action.
 *
 * A rupture on two workloads of one partition (owner A) gives one action each, listed with the
 * same id on all three replicas; approving one through replica B is applied by A (only A's engine
 * counts the decision), executed once, visible everywhere. KPI history and explain records answer
 * on every replica. After SIGKILL of A the new owner has the pending action, the executed one
 * (not executed again, no new action: the creation cooldown moved with the workload), the history
 * and the explain records; approving the pending one through another replica executes it once.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { partitionOf } from '../../../api-server/src/cluster/workload-partition.js';
import { startReceiver } from '../../support/http-receiver.js';
import { startKafkaBroker, type KafkaBroker } from '../../support/kafka-broker.js';
import { clusterConfigLines, startReplica, type ReplicaProcess } from '../../support/replica-process.js';
import { postRupturingHistory } from '../../support/rupture-history.js';
import { eventually } from '../../support/service.js';
import { makeTempDir } from '../../support/temp-dir.js';

const PARTITIONS = 6;
const STEP = 15_000;

interface ActionJson {
  id: string;
  workload: string;
  state: string;
  rupture_id: string;
  approved_by: string | null;
}

interface Health {
  cluster: { replica: string; owned: number[]; analysed: string[]; action_commands_applied: number };
}

/** two deployments of namespace `act` on one partition, so one replica owns both */
function twoOnOnePartition(): [string, string] {
  const byPartition = new Map<number, string>();
  for (let i = 0; ; i += 1) {
    const name = `svc${i}`;
    const p = partitionOf(`act/Deployment/${name}`, PARTITIONS);
    const other = byPartition.get(p);
    if (other !== undefined) return [other, name];
    byPartition.set(p, name);
  }
}

describe('cluster mode: actions, KPI history and explain records across three replicas', function () {
  this.timeout(240_000);
  let broker: KafkaBroker;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const dirs: { path: string; remove: () => Promise<void> }[] = [];
  const replicas: (ReplicaProcess | undefined)[] = [];
  const [nameOne, nameTwo] = twoOnOnePartition();
  const one = `act/Deployment/${nameOne}`;
  const two = `act/Deployment/${nameTwo}`;
  let first: ActionJson;
  let second: ActionJson;
  let owner: ReplicaProcess;
  let historyBefore: { t: string }[] = [];
  /** where the first rupturing history ends (sample time) */
  let endMs = 0;

  const get = async <T>(r: ReplicaProcess, path: string): Promise<{ status: number; body: T }> => {
    const res = await fetch(`${r.api}${path}`);
    return { status: res.status, body: (await res.json()) as T };
  };
  const post = async <T>(r: ReplicaProcess, path: string): Promise<{ status: number; body: T }> => {
    const res = await fetch(`${r.api}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    return { status: res.status, body: (await res.json()) as T };
  };
  const health = async (r: ReplicaProcess): Promise<Health['cluster']> => (await get<Health>(r, '/health')).body.cluster;
  const live = (): ReplicaProcess[] => replicas.filter((r): r is ReplicaProcess => r !== undefined);
  /** every replica started, the killed one included (for the logs of a failed test) */
  const everStarted: ReplicaProcess[] = [];
  const actionsOn = async (r: ReplicaProcess): Promise<ActionJson[]> =>
    (await get<{ actions: ActionJson[] }>(r, '/actions')).body.actions.filter((a) => a.workload === one || a.workload === two);
  const executions = (id: string): number =>
    receiver.requests.filter((q) => {
      const body = JSON.parse(q.body) as { operation?: string; action?: { id?: string } };
      return body.operation === 'execute' && body.action?.id === id;
    }).length;
  /** every live replica lists exactly these actions of the two workloads, in these states */
  const everywhere = (expected: Record<string, string>, what: string): Promise<true> =>
    eventually(
      async () => {
        for (const r of live()) {
          const listed = await actionsOn(r);
          const got = Object.fromEntries(listed.map((a) => [a.id, a.state]));
          if (JSON.stringify(got, Object.keys(got).sort()) !== JSON.stringify(expected, Object.keys(expected).sort())) return undefined;
        }
        return true;
      },
      60_000,
      what,
    );

  before(async () => {
    broker = await startKafkaBroker();
    receiver = await startReceiver((req) => ({ status: 200, body: (JSON.parse(req.body) as { operation?: string }).operation === 'execute' ? { previous_replicas: 2, replicas: 4 } : {} }));
    const suffix = randomBytes(4).toString('hex');
    const configs: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const dir = await makeTempDir(`actions-replica${i}`);
      dirs.push(dir);
      const config = join(dir.path, 'faultline.yaml');
      await writeFile(
        config,
        [
          'execution_mode: suggest',
          'namespace_allowlist: [act]',
          'actions:',
          `  webhook_url: ${receiver.url}/execute`,
          ...clusterConfigLines({ bootstrap: broker.bootstrap, replica: i, suffix, partitions: PARTITIONS, topics: ['telemetry', 'state', 'control', 'history'] }),
        ].join('\n') + '\n',
      );
      configs.push(config);
    }
    const started = await Promise.all(configs.map((c, i) => startReplica(c, join((dirs[i] as { path: string }).path, 'data'), { SVC_EDITION: 'autopilot' })));
    replicas.push(...started);
    everStarted.push(...started);
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed') {
      // every replica's, the killed owner's too: what it checkpointed before it died is part of the story
      for (const [i, r] of everStarted.entries()) {
        console.log(`--- replica ${i}${replicas.includes(r) ? '' : ' (killed)'}`);
        console.log(r.log().split('\n').filter((l) => /cluster|action|error|warn/i.test(l)).slice(-40).join('\n'));
      }
    }
  });

  after(async () => {
    await Promise.all(live().map((r) => r.kill()));
    await broker?.remove();
    await receiver?.close();
    await Promise.all(dirs.map((d) => d.remove()));
  });

  it('a rupture on workloads of one owner gives one action each, listed with the same id on all three replicas', async () => {
    await eventually(async () => ((await Promise.all(live().map(health))).flatMap((h) => h.owned).length === PARTITIONS ? true : undefined), 60_000, 'every partition owned');
    const [r0, , r2] = live() as [ReplicaProcess, ReplicaProcess, ReplicaProcess];
    // telemetry through two different replicas: whichever takes it, the owner analyses it
    endMs = Math.floor(Date.now() / STEP) * STEP;
    await postRupturingHistory({ otlp: r0.otlp, post: postVia }, 'act', nameOne, endMs);
    // the second's logs and spans half a second after its metrics: the owner ticks in between, and
    // the cluster's bucket grace (2 s by default) keeps its buckets open for them
    await postRupturingHistory({ otlp: r2.otlp, post: postVia }, 'act', nameTwo, endMs, () => new Promise((resolve) => setTimeout(resolve, 500)));
    const found = await eventually(
      async () => {
        const lists = await Promise.all(live().map(actionsOn));
        return lists.every((l) => l.some((a) => a.workload === one) && l.some((a) => a.workload === two)) ? lists : undefined;
      },
      120_000,
      'the actions of both workloads on every replica',
    );
    first = (found[0] as ActionJson[]).find((a) => a.workload === one) as ActionJson;
    second = (found[0] as ActionJson[]).find((a) => a.workload === two) as ActionJson;
    expect(first.state).to.equal('pending');
    expect(second.state).to.equal('pending');
    await everywhere({ [first.id]: 'pending', [second.id]: 'pending' }, 'one pending action per workload, the same ids, on every replica');
    const all = await Promise.all(live().map(health));
    const owners = live().filter((_, i) => all[i]?.analysed.includes(one));
    expect(owners, 'one replica analyses the workload').to.have.length(1);
    owner = owners[0] as ReplicaProcess;
    expect((await health(owner)).analysed).to.include(two);
  });

  it('approving through another replica is applied by the owner, executed once and visible everywhere; a conflict comes back as 409', async () => {
    const others = live().filter((r) => r !== owner) as [ReplicaProcess, ReplicaProcess];
    const approved = await post<{ status: string; id: string; action: ActionJson }>(others[0], `/actions/${first.id}/approve`);
    expect(approved.status, JSON.stringify(approved.body)).to.equal(200);
    expect(approved.body.status).to.equal('approved');
    expect(approved.body.action.id).to.equal(first.id);
    expect(approved.body.action.approved_by).to.equal('api');
    expect(['approved', 'executed']).to.include(approved.body.action.state);
    // read-your-write on the replica that took the request
    expect(['approved', 'executed']).to.include((await get<ActionJson>(others[0], `/actions/${first.id}`)).body.state);
    await everywhere({ [first.id]: 'executed', [second.id]: 'pending' }, 'the approved action executed, on every replica');
    expect(executions(first.id)).to.equal(1);
    expect((await health(owner)).action_commands_applied).to.equal(1);
    for (const r of others) expect((await health(r)).action_commands_applied, 'only the owner applies decisions').to.equal(0);
    const again = await post<{ code: string }>(others[1], `/actions/${first.id}/approve`);
    expect(again.status).to.equal(409);
    expect(again.body.code).to.equal('conflict');
    expect((await post<{ code: string }>(others[1], '/actions/act_000000000000/approve')).status).to.equal(404);
  });

  it('KPI history and explain records answer on every replica', async () => {
    // one point per analyzer tick that stepped the workload, identical on every replica
    const lists = await eventually(
      async () => {
        const all = await Promise.all(live().map(async (r) => JSON.stringify((await get<{ points: unknown[] }>(r, `/history/${one}?span=6h`)).body.points ?? [])));
        return all.every((l) => l !== '[]' && l === all[0]) ? all : undefined;
      },
      60_000,
      'the same KPI history on every replica',
    );
    historyBefore = JSON.parse(lists[0] as string) as { t: string }[];
    expect(historyBefore.length).to.be.at.least(1);
    for (const r of live()) {
      for (const id of [first.rupture_id, second.rupture_id]) {
        const explained = await eventually(async () => {
          const res = await get<{ rupture_id?: string }>(r, `/explain/${id}`);
          return res.status === 200 ? res.body : undefined;
        }, 30_000, `the explain record ${id}`);
        expect(explained).to.be.an('object');
      }
    }
  });

  it('after SIGKILL of the owner, the new owner has the pending action, history and explain records, executes nothing twice and creates no duplicate', async () => {
    const killed = replicas.indexOf(owner);
    await owner.kill('SIGKILL');
    replicas[killed] = undefined;
    const survivors = live() as [ReplicaProcess, ReplicaProcess];
    const next = await eventually(
      async () => {
        const all = await Promise.all(survivors.map(health));
        if (all.flatMap((h) => h.owned).length !== PARTITIONS) return undefined;
        const i = all.findIndex((h) => h.analysed.includes(one) && h.analysed.includes(two));
        return i < 0 ? undefined : survivors[i];
      },
      60_000,
      'a survivor to take over the workloads',
    );
    const other = survivors.find((r) => r !== next) as ReplicaProcess;
    // the rupture goes on: newer, still ramped buckets reach the new owner, whose engine sees the
    // workloads critical again; the pending action (live) and the creation cooldown that moved with
    // the partition keep it from recommending anything new, and the executed action stays executed
    while (Math.floor(Date.now() / STEP) * STEP <= endMs) await new Promise((r) => setTimeout(r, 250));
    const laterEnd = Math.floor(Date.now() / STEP) * STEP;
    await postRupturingHistory({ otlp: other.otlp, post: postVia }, 'act', nameOne, laterEnd);
    await postRupturingHistory({ otlp: other.otlp, post: postVia }, 'act', nameTwo, laterEnd);
    const later = await eventually(
      async () => {
        const s = (await get<{ timestamp: string; state: string }>(next, `/rupture/${one}`)).body;
        return Date.parse(s.timestamp) >= laterEnd - STEP ? s : undefined;
      },
      60_000,
      'the new owner to analyse the newer buckets',
    );
    expect(['critical', 'emergency'], 'a state the engine recommends on').to.include(later.state);
    await new Promise((r) => setTimeout(r, 2_000));
    await everywhere({ [first.id]: 'executed', [second.id]: 'pending' }, 'the same actions after the failover');
    expect(executions(first.id)).to.equal(1);
    for (const r of survivors) {
      const after = (await get<{ points: { t: string }[] }>(r, `/history/${one}?span=6h`)).body.points.map((p) => p.t);
      expect(after, 'the history from before the failover').to.include.members(historyBefore.map((p) => p.t));
    }
    for (const id of [first.rupture_id, second.rupture_id]) expect((await get(next, `/explain/${id}`)).status).to.equal(200);

    const approved = await eventually(async () => {
      const res = await post<{ status: string; action: ActionJson }>(other, `/actions/${second.id}/approve`);
      // 503: the decision reached no owner yet (the partition still moving); retrying is safe
      return res.status === 503 ? undefined : res;
    }, 60_000, 'the approval to reach the new owner');
    expect(approved.status, JSON.stringify(approved.body)).to.equal(200);
    await everywhere({ [first.id]: 'executed', [second.id]: 'executed' }, 'the second action executed by the new owner');
    expect(executions(first.id)).to.equal(1);
    expect(executions(second.id)).to.equal(1);
    expect((await health(next)).action_commands_applied).to.be.at.least(1);
  });
});

async function postVia(path: string, body: unknown, base?: string): Promise<{ status: number; body: unknown; headers: Headers }> {
  const res = await fetch(`${base ?? ''}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown), headers: res.headers };
}
