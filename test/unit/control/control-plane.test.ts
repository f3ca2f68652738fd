import { expect } from 'chai';
import { ClassicLevel } from 'classic-level';
import fc from 'fast-check';
import type { WeightOverride } from '../../../api-server/src/analysis/contract.js';
import { contextBody } from '../../../api-server/src/control/context-events.js';
import { ControlPlane } from '../../../api-server/src/control/control-plane.js';
import { suppressionBody } from '../../../api-server/src/control/suppressions.js';
import { normaliseOverrides, weightOverridesBody } from '../../../api-server/src/control/weight-overrides.js';
import { failureObjectivesBody, objectivesFrom } from '../../../api-server/src/control/failure-objectives.js';
import type { FailureObjective } from '../../../api-server/src/model/failure-objective.js';
import { makeTempDir } from '../../support/temp-dir.js';

const T0 = Date.parse('2026-05-01T09:00:00Z');

describe('control plane (real LevelDB)', () => {
  let dir: { path: string; remove: () => Promise<void> };
  let db: ClassicLevel<string, string>;
  let seen: { weights: readonly WeightOverride[]; objectives: readonly FailureObjective[]; suppressions: number; context: number };
  let seq: number;

  beforeEach(async () => {
    dir = await makeTempDir('control');
    db = new ClassicLevel<string, string>(dir.path);
    await db.open();
    seen = { weights: [], objectives: [], suppressions: 0, context: 0 };
    seq = 0;
  });
  afterEach(async () => {
    await db.close();
    await dir.remove();
  });

  function plane(): ControlPlane {
    return new ControlPlane(db, (prefix) => `${prefix}${(++seq).toString(16).padStart(12, '0')}`, {
      suppressionsChanged: (l) => (seen.suppressions = l.length),
      contextChanged: (l) => (seen.context = l.length),
      weightsChanged: (l) => (seen.weights = l),
      objectivesChanged: (l) => (seen.objectives = l),
    });
  }

  it('suppressions: whole-workload and signal-scoped windows, listed until they end, kept across a reopen', async () => {
    const p = plane();
    await p.load(undefined);
    const whole = await p.addSuppression(
      suppressionBody.parse({ workload: 'shop/Deployment/cart', start: '2026-05-01T09:00:00Z', end: '2026-05-01T10:00:00Z' }),
      T0,
    );
    await p.addSuppression(
      suppressionBody.parse({ workload: 'pay/*', start: '2026-05-01T09:30:00+00:00', end: '2026-05-01T11:00:00Z', signals: ['stress'] }),
      T0,
    );
    expect(p.isSuppressed('shop/Deployment/cart', 'mood', T0 + 1000)).to.equal(true);
    expect(p.isSuppressed('shop/Deployment/cart', null, T0 + 3_600_000)).to.equal(false);
    expect(p.isSuppressed('pay/Deployment/api', 'stress', T0 + 1000)).to.equal(false); // upcoming
    expect(p.isSuppressed('pay/Deployment/api', 'stress', T0 + 1_900_000)).to.equal(true);
    expect(p.isSuppressed('pay/Deployment/api', 'mood', T0 + 1_900_000)).to.equal(false);
    expect(p.listSuppressions(T0 + 3_700_000).map((s) => s.workload)).to.deep.equal(['pay/*']);

    const again = plane();
    await again.load(undefined);
    expect(again.listSuppressions(T0).map((s) => s.id)).to.include(whole.id);
    expect(await again.removeSuppression(whole.id)).to.equal(true);
    expect(await again.removeSuppression(whole.id)).to.equal(false);
  });

  it('refuses bad suppression bodies naming the field', () => {
    const bad: [unknown, string][] = [
      [{ start: '2026-05-01T09:00:00Z', end: '2026-05-01T10:00:00Z' }, 'workload'],
      [{ workload: 'a/b', start: '2026-05-01T09:00:00Z', end: '2026-05-01T10:00:00Z' }, 'workload'],
      [{ workload: '*', start: 'yesterday', end: '2026-05-01T10:00:00Z' }, 'start'],
      [{ workload: '*', start: '2026-05-01T10:00:00Z', end: '2026-05-01T09:00:00Z' }, 'end'],
      [{ workload: '*', start: '2026-05-01T09:00:00Z', end: '2026-05-01T10:00:00Z', signals: ['Stress'] }, 'signals.0'],
      [{ workload: '*', start: '2026-05-01T09:00:00Z', end: '2026-05-01T10:00:00Z', signals: ['mood', 'mood'] }, 'signals'],
    ];
    for (const [body, field] of bad) {
      const result = suppressionBody.safeParse(body);
      expect(result.success, JSON.stringify(body)).to.equal(false);
      expect(result.error!.issues[0]!.path.join('.')).to.equal(field);
    }
  });

  it('context events: newest first, filtered, quiet period from 60 s before to 300 s after', async () => {
    const p = plane();
    await p.load(undefined);
    await p.addContext(contextBody.parse({ workload: 'shop/Deployment/cart', event: 'deploy', timestamp: '2026-05-01T09:00:00Z' }), T0);
    await p.addContext(contextBody.parse({ workload: 'pay/*', event: 'load_test' }), T0 + 10_000);
    expect(p.listContext({ limit: 10 }).map((c) => c.event)).to.deep.equal(['load_test', 'deploy']);
    expect(p.listContext({ workload: 'pay/Deployment/api', limit: 10 }).map((c) => c.event)).to.deep.equal(['load_test']);
    expect(p.isQuiet('shop/Deployment/cart', T0 - 60_000)).to.equal(true);
    expect(p.isQuiet('shop/Deployment/cart', T0 - 60_001)).to.equal(false);
    expect(p.isQuiet('shop/Deployment/cart', T0 + 300_000)).to.equal(true);
    expect(p.isQuiet('shop/Deployment/cart', T0 + 300_001)).to.equal(false);
    expect(contextBody.safeParse({ workload: '*', event: '' }).success).to.equal(false);
  });

  it('weights: normalised, replaced whole, in order, bootstrap only when nothing is stored', async () => {
    const bootstrap = normaliseOverrides(weightOverridesBody.parse([{ selector: '*', stress: 1 }]));
    const p = plane();
    await p.load(bootstrap);
    expect(seen.weights).to.deep.equal(bootstrap);
    const list = normaliseOverrides(
      weightOverridesBody.parse([
        { selector: 'shop/Deployment/cart', stress: 2, fatigue: 1, mood: 1 },
        { selector: 'shop/*', humidity: 5 },
      ]),
    );
    expect(list[0]!.weights).to.deep.equal({ stress: 0.5, fatigue: 0.25, mood: 0.25, pressure: 0, humidity: 0, contagion: 0 });
    await p.replaceWeights(list);
    const again = plane();
    await again.load(bootstrap);
    expect(again.currentWeights().map((w) => w.selector)).to.deep.equal(['shop/Deployment/cart', 'shop/*']);
  });

  it('objectives: replaced whole, in order, kept across a reopen, bootstrap only when nothing is stored', async () => {
    const bootstrap = objectivesFrom(failureObjectivesBody.parse([{ selector: '*', error_rate: 0.2 }]));
    const p = plane();
    await p.load(undefined, bootstrap);
    expect(seen.objectives).to.deep.equal([{ selector: '*', error_rate: 0.2 }]);
    const list = objectivesFrom(
      failureObjectivesBody.parse([
        { selector: 'shop/Deployment/cart', error_rate: 0.15, latency_ms: 450 },
        { selector: 'shop/*', memory: 0.9 },
      ]),
    );
    await p.replaceObjectives(list);
    expect(seen.objectives).to.deep.equal(list);
    const again = plane();
    await again.load(undefined, bootstrap);
    expect(again.currentObjectives()).to.deep.equal([
      { selector: 'shop/Deployment/cart', error_rate: 0.15, latency_ms: 450 },
      { selector: 'shop/*', memory: 0.9 },
    ]);
    // replacing with fewer entries leaves none of the old ones behind
    await again.replaceObjectives([{ selector: 'pay/*', cpu: 0.8 }]);
    const third = plane();
    await third.load(undefined, bootstrap);
    expect(third.currentObjectives()).to.deep.equal([{ selector: 'pay/*', cpu: 0.8 }]);
  });

  it('weight bodies: selectors and values validated, all-zero refused', () => {
    for (const body of [{}, [{ selector: 'a/b' }], [{ selector: '*' }], [{ selector: '*', stress: -1 }], [{ selector: 'a/b/c/d', stress: 1 }], [{ selector: '', stress: 1 }]]) {
      expect(weightOverridesBody.safeParse(body).success, JSON.stringify(body)).to.equal(false);
    }
  });

  it('every accepted weight entry normalises to a sum of 1 (property)', () => {
    const w = fc.option(fc.double({ min: 0, max: Number.MAX_VALUE, noNaN: true }), { nil: undefined });
    fc.assert(
      fc.property(fc.record({ stress: w, fatigue: w, mood: w, pressure: w, humidity: w, contagion: w }), (weights) => {
        const parsed = weightOverridesBody.safeParse([{ selector: '*', ...weights }]);
        if (!parsed.success) return;
        const sum = Object.values(normaliseOverrides(parsed.data)[0]!.weights).reduce((a, b) => a + b, 0);
        expect(sum).to.be.closeTo(1, 1e-9);
      }),
    );
  });
});
