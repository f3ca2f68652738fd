import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import type { TestService } from '../../support/service.js';
import { eventually, startTestService } from '../../support/service.js';
import { startReceiver } from '../../support/http-receiver.js';
import { otlpMetrics } from '../../support/otlp-builders.js';
import { makeTempDir } from '../../support/temp-dir.js';

interface ActionJson {
  id: string;
  workload: string;
  type: string;
  state: string;
  tier: number;
  reason: string | null;
  blocked_by: string | null;
  approved_by: string | null;
  rupture_id: string;
  host: string;
  action_type: string;
}

const actionsOf = async (svc: TestService, workload: string): Promise<ActionJson[]> =>
  ((await svc.get('/actions')).body as { actions: ActionJson[] }).actions.filter((a) => a.workload === workload);

describe('actions, approvals, suppressions and simulation over HTTP (autopilot, webhook executor)', function () {
  // two simulated failures run live one after the other (each ~2-4 min to an action through the decision layer)
  this.timeout(480_000);
  let svc: TestService;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let configDir: { path: string; remove: () => Promise<void> };

  before(async () => {
    receiver = await startReceiver((req) => ({ status: 200, body: JSON.parse(req.body).operation === 'execute' ? { previous_replicas: 2, replicas: 4 } : {} }));
    configDir = await makeTempDir('config');
    const config = join(configDir.path, 'faultline.yaml');
    await writeFile(
      config,
      [
        'execution_mode: auto',
        'confidence_thresholds:',
        '  auto_action: 0',
        'namespace_allowlist: [demo]',
        'rate_limit_per_hour: 6',
        'actions:',
        `  webhook_url: ${receiver.url}/execute`,
        // these tests follow an action's life, not the creation gate (test/unit/actions/creation-gate.test.ts): no 2-minute wait
        '  sustain_seconds: 0',
        // and a sim's one-source rupture is announced as it is, without the 6-minute single-source dwell
        'alerts:',
        '  single_source_emergency_minutes: 0',
        'simulation:',
        '  baseline_minutes: 30',
      ].join('\n'),
    );
    svc = await startTestService({ args: ['--edition', 'autopilot', '--config', config] });
  });
  after(async () => {
    await svc.stop();
    await svc.remove();
    await receiver.close();
    await configDir.remove();
  });

  it('simulation answers 202 with the injection and refuses bad bodies naming the field', async () => {
    const bad: [unknown, string][] = [
      [{ host: 'demo/x' }, 'pattern'],
      [{ pattern: 'meltdown', host: 'demo/x' }, 'pattern'],
      [{ pattern: 'slow-burn', host: 'a/b/c/d' }, 'host'],
      [{ pattern: 'slow-burn', host: 'demo/x', duration_minutes: 0 }, 'duration_minutes'],
      [{ pattern: 'slow-burn', host: 'demo/x', duration_minutes: 2.5 }, 'duration_minutes'],
    ];
    for (const [body, field] of bad) {
      const r = await svc.post('/sim/inject', body);
      expect(r.status, JSON.stringify(body)).to.equal(400);
      expect((r.body as { field: string }).field).to.equal(field);
    }
  });

  it('emergency stop holds Tier-1 automation; a person approves, the webhook executes, rollback restores; release lets automation run; a suppressed workload ruptures visibly but gets no action', async () => {
    expect((await svc.post('/actions/emergency-stop', {})).body).to.include({ emergency_stop: true });
    expect((await svc.get('/actions/emergency-stop')).body).to.include({ emergency_stop: true });
    const now = new Date();
    const sup = await svc.post('/suppressions', {
      workload: 'demo/Deployment/quiet',
      start: new Date(now.getTime() - 60_000).toISOString(),
      end: new Date(now.getTime() + 3_600_000).toISOString(),
      reason: 'maintenance',
    });
    expect(sup.status).to.equal(201);
    for (const host of ['demo/held', 'demo/quiet']) {
      expect((await svc.post('/sim/inject', { pattern: 'traffic-surge', host, duration_minutes: 3 })).status).to.equal(202);
    }

    // the surge's CPU saturation under rising traffic is recommended a scale (Tier 1 in emergency)
    const held = await eventually(async () => (await actionsOf(svc, 'demo/Deployment/held')).find((a) => a.type === 'scale'), 240_000, 'a scale action for demo/held');
    expect(held.tier).to.equal(1);
    expect(held.host).to.equal('demo/Deployment/held');
    expect(held.action_type).to.equal(held.type);
    await eventually(async () => ((await svc.get(`/actions/${held.id}`)).body as ActionJson).blocked_by === 'emergency_stop' || undefined, 10_000, 'the emergency-stop gate');
    expect(((await svc.get(`/actions/${held.id}`)).body as ActionJson).state).to.equal('pending');

    const approved = await svc.post(`/actions/${held.id}/approve`, {});
    expect(approved.status).to.equal(200);
    expect(approved.body).to.include({ status: 'approved', id: held.id });
    const executed = await eventually(async () => {
      const a = (await svc.get(`/actions/${held.id}`)).body as ActionJson & { execution: { previous_replicas: number } | null };
      return a.state === 'executed' ? a : undefined;
    }, 10_000, 'execution through the webhook');
    expect(executed.approved_by).to.equal('api');
    expect(executed.execution?.previous_replicas).to.equal(2);
    expect(receiver.requests.some((r) => JSON.parse(r.body).action.id === held.id)).to.equal(true);
    expect((await svc.post(`/actions/${held.id}/approve`, {})).status).to.equal(409);
    const rollback = await svc.post(`/actions/${held.id}/rollback`, {});
    expect(rollback.status).to.equal(200);
    expect(rollback.body).to.include({ status: 'rollback_queued' });
    expect(((await svc.get(`/actions/${held.id}`)).body as ActionJson).state).to.equal('rolled_back');

    // the suppressed workload ruptured (visible) but nothing was dispatched
    const quiet = (await svc.get('/rupture/demo/Deployment/quiet')).body as { state: string };
    expect(['warning', 'critical', 'emergency']).to.include(quiet.state);
    expect(await actionsOf(svc, 'demo/Deployment/quiet')).to.have.length(0);

    // released: a new rupture's Tier-1 action is approved by the engine and executed on its own
    expect((await fetch(`${svc.api}/actions/emergency-stop`, { method: 'DELETE' })).status).to.equal(200);
    // a leak is recommended a rolling restart, Tier 1 in emergency (a cascade's error storm is only investigated)
    expect((await svc.post('/sim/inject', { pattern: 'memory-leak', host: 'demo/auto', duration_minutes: 3 })).status).to.equal(202);
    const auto = await eventually(async () => (await actionsOf(svc, 'demo/Deployment/auto')).find((a) => a.state === 'executed'), 300_000, 'automatic execution');
    expect(auto.approved_by).to.equal('engine');
  });

  it('reject removes a pending action; unknown ids answer 404', async () => {
    expect((await svc.post('/actions/act_000000000000/reject', {})).status).to.equal(404);
    expect((await svc.get('/actions/act_000000000000')).status).to.equal(404);
    expect((await svc.post('/actions/act_000000000000/approve', {})).status).to.equal(404);
  });

  it('weights change the next step\'s health_score', async () => {
    const t0 = Date.now() - 10 * 60_000;
    const series = (from: number, n: number): [number, number][] => Array.from({ length: n }, (_, i) => [from + i * 15_000, 0.9]);
    const r = { namespace: 'weights', deployment: 'api' };
    await svc.post('/v1/metrics', otlpMetrics(r, { cpu_percent: series(t0, 10), memory_percent: series(t0, 10) }), svc.otlp);
    const before = await eventually(async () => {
      const s = (await svc.get('/rupture/weights/Deployment/api')).body as { status: string; health_score: number; timestamp: string };
      return s.status === 'calibrating' ? s : undefined;
    });
    const posted = await svc.post('/config/weights', [{ selector: 'weights/*', humidity: 1 }]);
    expect(posted.body).to.deep.equal({ applied: 1 });
    expect((await svc.get('/config/weights')).body).to.deep.equal([{ selector: 'weights/*', stress: 0, fatigue: 0, mood: 0, pressure: 0, humidity: 1, contagion: 0 }]);
    await svc.post('/v1/metrics', otlpMetrics(r, { cpu_percent: series(t0 + 10 * 15_000, 2), memory_percent: series(t0 + 10 * 15_000, 2) }), svc.otlp);
    const after = await eventually(async () => {
      const s = (await svc.get('/rupture/weights/Deployment/api')).body as { health_score: number; timestamp: string };
      return s.timestamp !== before.timestamp ? s : undefined;
    });
    expect(before.health_score).to.be.lessThan(0.9);
    expect(after.health_score).to.equal(1); // humidity is 0 without errors: no penalty left
    expect((await svc.post('/config/weights', { selector: '*' })).status).to.equal(400);
    expect((await svc.post('/config/weights', [{ selector: 'a/b', stress: 1 }])).body).to.include({ field: '[0].selector' });
    await svc.post('/config/weights', []);
  });

  it('context events and suppressions: create, list, delete, 404 for unknown ids', async () => {
    const ctxEvent = await svc.post('/context', { workload: 'demo/Deployment/held', event: 'deploy', description: 'v2' });
    expect(ctxEvent.status).to.equal(201);
    const id = (ctxEvent.body as { id: string }).id;
    expect(id).to.match(/^ctx_[0-9a-f]{12}$/);
    expect(((await svc.get('/context')).body as { events: { id: string }[] }).events.map((e) => e.id)).to.include(id);
    expect((await fetch(`${svc.api}/context/${id}`, { method: 'DELETE' })).status).to.equal(204);
    expect((await fetch(`${svc.api}/context/${id}`, { method: 'DELETE' })).status).to.equal(404);
    expect((await svc.post('/context', { workload: 'demo/Deployment/held' })).body).to.include({ field: 'event' });
    const sups = (await svc.get('/suppressions')).body as { suppressions: { id: string; active: boolean }[] };
    expect(sups.suppressions.length).to.be.at.least(1);
    expect(sups.suppressions[0]!.active).to.equal(true);
    expect((await fetch(`${svc.api}/suppressions/sup_000000000000`, { method: 'DELETE' })).status).to.equal(404);
    expect((await svc.post('/suppressions', { workload: '*', start: '2026-01-01T00:00:00Z', end: 'later' })).body).to.include({ field: 'end' });
  });

  it('forecast: POST in minutes capped at 10080, cached GET, 404 for unknown workloads, 400 for bad bodies', async () => {
    const f = await svc.post('/forecast', { metric: 'cpu_percent', workload: 'demo/Deployment/held', horizon: 3600 });
    expect(f.status).to.equal(200);
    const body = f.body as { horizon: number; points: { offset_minutes: number }[]; models: unknown[] };
    expect(body.horizon).to.equal(3600);
    expect(body.points.map((p) => p.offset_minutes)).to.deep.equal([1, 5, 10, 30, 60, 120, 360, 3600]);
    expect(body.models).to.have.length(5);
    expect(((await svc.post('/forecast', { metric: 'cpu_percent', workload: 'demo/held', horizon: 99999 })).body as { horizon: number }).horizon).to.equal(10080);
    expect((await svc.get('/forecast/health_score/demo/Deployment/held?horizon=30')).status).to.equal(200);
    expect((await svc.post('/forecast', { metric: 'cpu_percent', workload: 'demo/Deployment/none' })).status).to.equal(404);
    expect((await svc.post('/forecast', { workload: 'demo/held' })).body).to.include({ field: 'metric' });
    expect((await svc.post('/forecast', { metric: 'x', workload: 'demo/held', horizon: -1 })).status).to.equal(400);
  });
});

describe('community edition approvals', function () {
  this.timeout(30_000);
  it('approve and rollback answer 402 for any id, before any lookup', async () => {
    const svc = await startTestService();
    try {
      for (const verb of ['approve', 'rollback']) {
        const r = await svc.post(`/actions/act_000000000001/${verb}`, {});
        expect(r.status).to.equal(402);
        expect(r.body).to.include({ code: 'edition_required' });
        expect((r.body as { upgrade: string }).upgrade).to.contain('SVC_EDITION=autopilot');
      }
    } finally {
      await svc.stop();
      await svc.remove();
    }
  });
});
