/**
 * Cluster mode's routing of decisions on actions to the owner (cluster/action-commands.ts) and the
 * engine's cluster scope (mirror, adopt), with real engines on real LevelDB. The control topic is
 * stood in for by an in-order loopback that hands every record to every replica (its Kafka side is
 * covered by test/integration/cluster/actions-and-history.test.ts).
 */
import { expect } from 'chai';
import { ClassicLevel } from 'classic-level';
import type { ActionEngineSettings } from '../../../api-server/src/actions/action-engine-types.js';
import { ActionEngine } from '../../../api-server/src/actions/action-engine.js';
import { ActionError, ActionRoutingError } from '../../../api-server/src/actions/action-errors.js';
import type { Action } from '../../../api-server/src/actions/action.js';
import { LoggingExecutor } from '../../../api-server/src/actions/executors/logging-executor.js';
import { ActionCommands, type ControlSender } from '../../../api-server/src/cluster/action-commands.js';
import { parseActionRecord } from '../../../api-server/src/cluster/action-records.js';
import { LevelActionStore } from '../../../api-server/src/storage/action-store.js';
import { explainOf, snapshotOf } from '../../support/analysis-fixtures.js';
import { makeTempDir } from '../../support/temp-dir.js';

const settings: ActionEngineSettings = {
  edition: 'autopilot',
  executionMode: 'suggest',
  autoActionConfidence: 0.85,
  namespaceAllowlist: ['shop'],
  rateLimitPerHour: 6,
  cooldownMs: 300_000,
  executor: 'external',
  pendingLimit: 256,
  terminalLimit: 256,
  creationCooldownMs: 300_000,
  executorTimeoutMs: 600_000,
};

const quietLog = { info: () => undefined, warn: () => undefined };

/** an in-order "control topic": every record reaches every replica, after the writer's send resolved */
class Loopback implements ControlSender {
  readonly replicas: ActionCommands[] = [];
  delivered = 0;
  constructor(private readonly deliver = true) {}
  send(key: string, value: string | undefined): Promise<void> {
    if (this.deliver && value !== undefined) {
      setImmediate(() => {
        this.delivered += 1;
        for (const r of this.replicas) r.record(key, value);
      });
    }
    return Promise.resolve();
  }
}

async function expectError<T extends Error>(run: () => Promise<unknown>, type: new (...args: never[]) => T): Promise<T> {
  try {
    await run();
  } catch (error) {
    expect(error).to.be.instanceOf(type);
    return error as T;
  }
  throw new Error('expected an error');
}

describe('cluster: decisions on actions go to the owner of the workload', () => {
  let dir: { path: string; remove: () => Promise<void> };
  let dbs: ClassicLevel<string, string>[];
  let seq: number;

  beforeEach(async () => {
    dir = await makeTempDir('action-commands');
    dbs = [];
    seq = 0;
  });
  afterEach(async () => {
    for (const db of dbs) await db.close();
    await dir.remove();
  });

  async function engine(drives: boolean, edition: 'autopilot' | 'community' = 'autopilot'): Promise<ActionEngine> {
    const db = new ClassicLevel<string, string>(`${dir.path}/${dbs.length}`);
    await db.open();
    dbs.push(db);
    const e = new ActionEngine(
      { ...settings, edition },
      new LevelActionStore(db),
      new LoggingExecutor({ info: () => undefined }),
      { isSuppressed: () => false, isQuiet: () => false },
      () => `act_${(++seq).toString(16).padStart(12, '0')}`,
      { outcome: () => undefined },
    );
    e.restrictTo(() => drives);
    return e;
  }

  /** owner A (drives the workload) and replica B (mirrors it), one pending action */
  async function pair(deliver = true, edition: 'autopilot' | 'community' = 'autopilot') {
    const owner = await engine(true, edition);
    const other = await engine(false, edition);
    const topic = new Loopback(deliver);
    const a = new ActionCommands(owner, topic, { replicaId: 'a', timeoutMs: deliver ? 5_000 : 100, log: quietLog });
    const b = new ActionCommands(other, topic, { replicaId: 'b', timeoutMs: deliver ? 5_000 : 100, log: quietLog });
    topic.replicas.push(a, b);
    const snapshot = snapshotOf('shop/Deployment/cart');
    const record = explainOf(snapshot);
    const [action] = await owner.considerStep([snapshot], (id) => (id === record.ruptureId ? record : undefined), 1000);
    // what the state topic carries to B
    other.mirror(parseActionRecord(JSON.stringify(action)) as Action);
    return { owner, other, a, b, topic, id: (action as Action).id };
  }

  it('approve through a replica that does not own the workload: the owner applies it, the answer and the mirror show it', async () => {
    const { owner, other, a, b, id } = await pair();
    const approved = await b.approve(id, 2000);
    expect(approved).to.include({ id, state: 'approved', approvedBy: 'api' });
    expect(owner.get(id)?.state).to.equal('approved');
    expect(other.get(id)?.state, 'read-your-write on the replica asked').to.equal('approved');
    expect([a.applied, b.applied]).to.deep.equal([1, 0]);
    // the executor's result, reported to B, is applied by A too
    const executed = await b.reportResult(id, { outcome: 'executed', executor: 'operator', previousReplicas: 2, replicas: 3 }, 3000);
    expect(executed.state).to.equal('executed');
    expect(owner.get(id)?.execution).to.include({ previousReplicas: 2, replicas: 3, executor: 'operator' });
    // the same report again is a no-op; approving an executed action is the owner's 409
    expect((await b.reportResult(id, { outcome: 'executed', executor: 'operator', previousReplicas: 2, replicas: 3 }, 4000)).updatedAtMs).to.equal(3000);
    const refused = await expectError(() => b.approve(id, 5000), ActionError);
    expect(refused.kind).to.equal('conflict');
  });

  it('reject through another replica removes the action on both', async () => {
    const { owner, other, b, id } = await pair();
    expect((await b.reject(id, 2000)).state).to.equal('rejected');
    expect(owner.get(id)).to.equal(undefined);
    expect(other.get(id)).to.equal(undefined);
  });

  it('an unknown id is 404 and a community edition approve is 402, both without writing to the topic', async () => {
    const { b, topic } = await pair();
    expect((await expectError(() => b.approve('act_000000000000', 2000), ActionError)).kind).to.equal('not_found');
    const community = await pair(true, 'community');
    expect((await expectError(() => community.b.approve(community.id, 2000), ActionError)).kind).to.equal('edition');
    expect((await expectError(() => community.b.rollback('act_000000000000', 2000), ActionError)).kind).to.equal('edition');
    expect(topic.delivered + community.topic.delivered).to.equal(0);
  });

  it('no owner answering within the timeout: a routing error naming the workload, nothing changed', async () => {
    const { owner, other, b, id } = await pair(false);
    const error = await expectError(() => b.approve(id, 2000), ActionRoutingError);
    expect(error.message).to.contain('shop/Deployment/cart').and.contain('retry');
    expect(owner.get(id)?.state).to.equal('pending');
    expect(other.get(id)?.state).to.equal('pending');
  });

  it('mirrors never move an action back, and an owner\'s engine ignores mirrors of its own workloads', async () => {
    const { owner, other, id } = await pair();
    const current = other.get(id) as Action;
    other.mirror({ ...current, state: 'approved', updatedAtMs: 5000 });
    other.mirror({ ...current, state: 'pending', updatedAtMs: 4000 });
    expect(other.get(id)?.state).to.equal('approved');
    owner.mirror({ ...current, state: 'failed', updatedAtMs: 9000 });
    expect(owner.get(id)?.state).to.equal('pending');
    other.unmirror(id);
    expect(other.get(id)).to.equal(undefined);
  });

  it('adopt: a new owner takes exactly the partition\'s actions and cooldowns; the creation cooldown holds', async () => {
    const { owner, id } = await pair();
    const handedOver = owner.get(id) as Action;
    const control = owner.controlOf('shop/Deployment/cart');
    expect(control.lastCreationMs).to.deep.equal({ scale: snapshotOf('x').timeMs });
    const next = await engine(true);
    next.adopt((w) => w === 'shop/Deployment/cart', [{ ...handedOver, state: 'executed' }], new Map([['shop/Deployment/cart', control]]));
    expect(next.controlOf('shop/Deployment/cart')).to.deep.equal(control);
    const snapshot = snapshotOf('shop/Deployment/cart');
    const record = explainOf(snapshot);
    // not live any more, but created within the cooldown: nothing new
    expect(await next.considerStep([snapshot], () => record, 2000)).to.have.length(0);
    // without the handed-over control entries the same step would recommend again
    const fresh = await engine(true);
    fresh.adopt(() => true, [{ ...handedOver, state: 'executed' }], new Map());
    expect(await fresh.considerStep([snapshot], () => record, 2000)).to.have.length(1);
  });
});
