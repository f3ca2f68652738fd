import { expect } from 'chai';
import { ClassicLevel } from 'classic-level';
import type { ActionEngineSettings, ActionOutcome, DispatchPolicy } from '../../../api-server/src/actions/action-engine-types.js';
import { ActionEngine } from '../../../api-server/src/actions/action-engine.js';
import { ActionError } from '../../../api-server/src/actions/action-errors.js';
import type { Action } from '../../../api-server/src/actions/action.js';
import type { ActionExecutor } from '../../../api-server/src/actions/executor.js';
import { WebhookExecutor } from '../../../api-server/src/actions/executors/webhook-executor.js';
import { LevelActionStore } from '../../../api-server/src/storage/action-store.js';
import type { ExplainRecord, WorkloadSnapshot } from '../../../api-server/src/analysis/contract.js';
import type { Diagnosis } from '../../../api-server/src/analysis/explain/diagnosis.js';
import { explainOf, snapshotOf } from '../../support/analysis-fixtures.js';
import { startReceiver } from '../../support/http-receiver.js';
import { makeTempDir } from '../../support/temp-dir.js';

const autopilot: ActionEngineSettings = {
  edition: 'autopilot',
  executionMode: 'auto',
  autoActionConfidence: 0.85,
  namespaceAllowlist: ['shop'],
  rateLimitPerHour: 6,
  cooldownMs: 300_000,
  executor: 'internal',
  pendingLimit: 256,
  terminalLimit: 256,
  creationCooldownMs: 300_000,
  executorTimeoutMs: 600_000,
};

const openPolicy: DispatchPolicy = { isSuppressed: () => false, isQuiet: () => false };

describe('action engine (real LevelDB, real webhook receiver)', () => {
  let dir: { path: string; remove: () => Promise<void> };
  let db: ClassicLevel<string, string>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let outcomes: { id: string; outcome: ActionOutcome }[];
  let seq: number;

  beforeEach(async () => {
    dir = await makeTempDir('actions');
    db = new ClassicLevel<string, string>(dir.path);
    await db.open();
    receiver = await startReceiver((_req, i) => ({ status: 200, body: { previous_replicas: 3 + i, replicas: 5 } }));
    outcomes = [];
    seq = 0;
  });
  afterEach(async () => {
    await db.close();
    await receiver.close();
    await dir.remove();
  });

  function engine(settings: ActionEngineSettings = autopilot, policy: DispatchPolicy = openPolicy, executor?: ActionExecutor): ActionEngine {
    return new ActionEngine(
      settings,
      new LevelActionStore(db),
      executor ?? new WebhookExecutor({ url: `${receiver.url}/execute`, timeoutMs: 2000 }),
      policy,
      () => `act_${(++seq).toString(16).padStart(12, '0')}`,
      { outcome: (action: Action, outcome: ActionOutcome) => outcomes.push({ id: action.id, outcome }) },
    );
  }

  function stepOf(snapshot: WorkloadSnapshot, record: ExplainRecord = explainOf(snapshot)) {
    return { snapshots: [snapshot], explain: (id: string) => (id === record.ruptureId ? record : undefined) };
  }

  it('creates one recommendation per critical workload and type, with the interface fields', async () => {
    const e = engine();
    const step = stepOf(snapshotOf('shop/Deployment/cart'));
    const created = await e.considerStep(step.snapshots, step.explain, 1000);
    expect(created).to.have.length(1);
    const action = created[0]!;
    expect(action).to.include({ workload: 'shop/Deployment/cart', type: 'scale', tier: 2, state: 'pending' });
    expect(action.ruptureId).to.match(/^r_/);
    expect(action.description).to.equal('scale shop/Deployment/cart by +1 replicas');
    // a second step of the same rupture does not duplicate the live action
    expect(await e.considerStep(step.snapshots, step.explain, 2000)).to.have.length(0);
  });

  it('creates nothing for warning, calibrating, suppressed or quiet workloads', async () => {
    const cases: [WorkloadSnapshot, DispatchPolicy][] = [
      [snapshotOf('shop/Deployment/a', { state: 'warning', fusedR: 2 }), openPolicy],
      [snapshotOf('shop/Deployment/b', { status: 'calibrating' }), openPolicy],
      [snapshotOf('shop/Deployment/c'), { isSuppressed: () => true, isQuiet: () => false }],
      [snapshotOf('shop/Deployment/d'), { isSuppressed: () => false, isQuiet: () => true }],
    ];
    for (const [snapshot, policy] of cases) {
      const step = stepOf(snapshot);
      expect(await engine(autopilot, policy).considerStep(step.snapshots, step.explain, 1000), snapshot.key).to.have.length(0);
    }
  });

  it('community: approve and rollback answer the edition error for any id; reject works', async () => {
    const e = engine({ ...autopilot, edition: 'community' });
    const step = stepOf(snapshotOf('shop/Deployment/cart'));
    const [action] = await e.considerStep(step.snapshots, step.explain, 1000);
    for (const id of [action!.id, 'act_unknown']) {
      await expectActionError(() => e.approve(id, 2000), 'edition');
      await expectActionError(() => e.rollback(id, 2000), 'edition');
    }
    await e.reject(action!.id, 2000);
    expect(e.get(action!.id)).to.equal(undefined);
    await expectActionError(() => e.reject(action!.id, 2000), 'not_found');
  });

  it('autopilot: approve, execute through the webhook, roll back, all persisted across a reopen', async () => {
    const e = engine();
    const step = stepOf(snapshotOf('shop/Deployment/cart'));
    const [action] = await e.considerStep(step.snapshots, step.explain, 1000);
    await expectActionError(() => e.rollback(action!.id, 1500), 'conflict');
    await e.approve(action!.id, 2000);
    await e.runCycle(3000, () => 0.9);
    expect(e.get(action!.id)).to.include({ state: 'executed', previousReplicas: 3 });
    expect(e.get(action!.id)!.params).to.include({ replicas: 5 });
    expect(JSON.parse(receiver.requests[0]!.body)).to.deep.include({ operation: 'execute' });
    await expectActionError(() => e.approve(action!.id, 3500), 'conflict');
    await e.rollback(action!.id, 4000);
    expect(JSON.parse(receiver.requests[1]!.body).action).to.include({ previous_replicas: 3 });

    const reopened = engine();
    await reopened.load();
    expect(reopened.get(action!.id)).to.include({ state: 'rolled_back' });
  });

  it('autopilot Tier-1 executes on its own when every gate holds, and the emergency stop halts it', async () => {
    const e = engine();
    const emergency = snapshotOf('shop/Deployment/cart', { state: 'emergency', fusedR: 5 });
    const step = stepOf(emergency);
    const [action] = await e.considerStep(step.snapshots, step.explain, 1000);
    expect(action!.tier).to.equal(1);
    await e.setEmergencyStop(true, 1500);
    await e.runCycle(2000, () => 0.95);
    expect(e.get(action!.id)!.state).to.equal('pending');
    expect(e.get(action!.id)!.reason).to.contain('emergency stop');
    await e.setEmergencyStop(false, 2500);
    await e.runCycle(3000, () => 0.95);
    expect(e.get(action!.id)!.state).to.equal('executed');
    expect(outcomes.map((o) => o.outcome)).to.deep.equal(['created', 'blocked', 'approved', 'executed']);
  });

  it('the Tier-1 rate limit holds across a restart', async () => {
    const settings = { ...autopilot, rateLimitPerHour: 1, cooldownMs: 0, creationCooldownMs: 0 };
    const first = engine(settings);
    await first.load();
    const a = stepOf(snapshotOf('shop/Deployment/cart', { state: 'emergency', fusedR: 5, ruptureId: 'r_00000000000a' }));
    await first.considerStep(a.snapshots, a.explain, 1000);
    await first.runCycle(2000, () => 0.95);
    expect(first.list()[0]!.state).to.equal('executed');

    const second = engine(settings);
    await second.load();
    const b = stepOf(snapshotOf('shop/Deployment/cart', { state: 'emergency', fusedR: 5, ruptureId: 'r_00000000000b' }));
    const [next] = await second.considerStep(b.snapshots, b.explain, 3000);
    await second.runCycle(4000, () => 0.95);
    expect(second.get(next!.id)!.state).to.equal('pending');
    expect(second.get(next!.id)!.reason).to.contain('rate_limit_per_hour');
    await second.runCycle(2000 + 3_600_001, () => 0.95);
    expect(second.get(next!.id)!.state).to.equal('executed');
  });

  it('takes type, params and reason from the rule table: a leak is restarted, its rollback refused; undetermined creates nothing', async () => {
    const e = engine();
    const snapshot = snapshotOf('shop/Deployment/cart', { state: 'emergency', fusedR: 5 });
    const leak: Diagnosis = {
      kind: 'memory-leak',
      factor: 'memory',
      summary: 'memory 62 % → 91 % in 40 min, +43 %/h',
      dependency: null,
      trafficRising: false,
      afterDeploy: false,
      deploy: null,
      etaSeconds: 753,
      projected30Min: 1.125,
    };
    // the record's stored recommendation (a scale) is not what the engine uses once a diagnosis exists
    const step = stepOf(snapshot, { ...explainOf(snapshot), topFactor: 'memory', topSignal: 'stress', diagnosis: leak });
    const [action] = await e.considerStep(step.snapshots, step.explain, 1000);
    expect(action).to.deep.include({ type: 'restart', tier: 1, params: { strategy: 'rolling' }, triggerSignal: 'stress', description: 'rolling restart of shop/Deployment/cart' });
    await e.approve(action!.id, 2000);
    await e.runCycle(3000, () => 0.9);
    expect(e.get(action!.id)?.state).to.equal('executed');
    const refused = await e.rollback(action!.id, 4000).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).to.be.instanceOf(ActionError);
    expect((refused as ActionError).message).to.equal('a restart cannot be rolled back: the rolling restart replaced the pods and there is no previous state to restore');
    expect(e.get(action!.id)?.state).to.equal('executed');

    const other = snapshotOf('shop/Deployment/other', { state: 'emergency', fusedR: 5, ruptureId: 'r_0000000000ff' });
    const unknown = stepOf(other, { ...explainOf(other), diagnosis: { ...leak, kind: 'undetermined', factor: null } });
    expect(await e.considerStep(unknown.snapshots, unknown.explain, 5000)).to.deep.equal([]);
  });

  it('a failing webhook marks the action failed with the reason', async () => {
    const failing = await startReceiver(() => ({ status: 503 }));
    try {
      const e = engine(autopilot, openPolicy, new WebhookExecutor({ url: failing.url, timeoutMs: 2000 }));
      const step = stepOf(snapshotOf('shop/Deployment/cart'));
      const [action] = await e.considerStep(step.snapshots, step.explain, 1000);
      await e.approve(action!.id, 2000);
      await e.runCycle(3000, () => 0.9);
      expect(e.get(action!.id)).to.include({ state: 'failed', reason: 'webhook execute answered 503' });
    } finally {
      await failing.close();
    }
  });

  it('keeps at most 256 pending actions: the 257th evicts the oldest', async () => {
    const e = engine({ ...autopilot, edition: 'community' });
    for (let i = 0; i < 257; i += 1) {
      const step = stepOf(snapshotOf(`shop/Deployment/w${i}`, { ruptureId: `r_${i.toString(16).padStart(12, '0')}` }));
      await e.considerStep(step.snapshots, step.explain, 1000 + i);
    }
    const pending = e.list().filter((a) => a.state === 'pending');
    expect(pending).to.have.length(256);
    expect(pending.some((a) => a.workload === 'shop/Deployment/w0')).to.equal(false);
    expect(outcomes.filter((o) => o.outcome === 'evicted')).to.have.length(1);
  });
  it('external executor: waits for the result report, idempotent repeats, rollback by request, timeout', async () => {
    const e = engine({ ...autopilot, executor: 'external', executorTimeoutMs: 10_000 });
    const step = stepOf(snapshotOf('shop/Deployment/cart'));
    const [action] = await e.considerStep(step.snapshots, step.explain, 1000);
    const id = action!.id;
    await expectActionError(() => e.reportResult(id, { outcome: 'executed', previousReplicas: 3, replicas: 4, executor: 'operator' }, 1500), 'conflict');
    await e.approve(id, 2000);
    expect(e.get(id)).to.include({ approvedBy: 'api', state: 'approved' });
    await e.runCycle(3000, () => 0.9);
    expect(e.get(id)!.state).to.equal('approved'); // nobody in this process executes
    expect(receiver.requests).to.have.length(0);
    await e.reportResult(id, { outcome: 'executed', previousReplicas: 3, replicas: 4, executor: 'operator' }, 4000);
    expect(e.get(id)!.execution).to.deep.include({ previousReplicas: 3, replicas: 4, executor: 'operator' });
    await e.reportResult(id, { outcome: 'executed', previousReplicas: 3, replicas: 4, executor: 'operator' }, 4500);
    await expectActionError(() => e.reportResult(id, { outcome: 'executed', previousReplicas: 3, replicas: 9, executor: 'operator' }, 4600), 'conflict');
    await e.rollback(id, 5000);
    expect(e.get(id)).to.include({ state: 'executed', rollbackRequested: true });
    await e.reportResult(id, { outcome: 'rolled_back', executor: 'operator' }, 6000);
    expect(e.get(id)).to.include({ state: 'rolled_back', rollbackRequested: false });

    const other = stepOf(snapshotOf('shop/Deployment/other'));
    const [late] = await e.considerStep(other.snapshots, other.explain, 7000);
    await e.approve(late!.id, 7000);
    await e.runCycle(7000 + 10_001, () => 0.9);
    expect(e.get(late!.id)).to.include({ state: 'failed', reason: 'ExecutorTimeout' });
  });
});

async function expectActionError(run: () => Promise<unknown>, kind: ActionError['kind']): Promise<void> {
  try {
    await run();
  } catch (error) {
    expect(error).to.be.instanceOf(ActionError);
    expect((error as ActionError).kind).to.equal(kind);
    return;
  }
  expect.fail(`expected an ActionError of kind ${kind}`);
}
