import { expect } from 'chai';
import fc from 'fast-check';
import type { RuptureState } from '../../../api-server/src/analysis/contract.js';
import { actionTier, recommendAction, type RecommendationInput } from '../../../api-server/src/analysis/explain/recommendation.js';

const KEY = 'shop/Deployment/cart';
const CALM = { stress: 0.1, fatigue: 0.1, pressure: 0.5, entropy: 0.1, contagion: 0.1 };
const SOURCES = [
  { service: 'checkout', errorRate: 0.2, calls: 100 },
  { service: 'payments', errorRate: 0.4, calls: 10 },
];

type Overrides = Partial<Omit<RecommendationInput, 'signals'>> & { signals?: Partial<RecommendationInput['signals']> };

function rec(overrides: Overrides): ReturnType<typeof recommendAction> {
  return recommendAction({
    workload: KEY,
    state: overrides.state ?? 'critical',
    signals: { ...CALM, ...overrides.signals },
    contagionSources: overrides.contagionSources ?? [],
    currentReplicas: overrides.currentReplicas ?? null,
  });
}

describe('recommendation decision list and tier (analytics.md §9.2, §9.3)', () => {
  it('restarts behind a circuit break when contagion ≥ 0.5 with sources and fatigue ≥ 0.7', () => {
    const r = rec({ signals: { contagion: 0.5, fatigue: 0.7 }, contagionSources: SOURCES, state: 'emergency' });
    expect(r).to.include({ type: 'restart', tier: 1 });
    expect(r.params).to.deep.equal({});
    expect(r.text).to.contain('payments');
  });

  it('alerts circuit_break on the worst source otherwise', () => {
    const r = rec({ signals: { contagion: 0.6 }, contagionSources: SOURCES, state: 'emergency' });
    expect(r).to.deep.include({ type: 'alert', tier: 2, params: { reason: 'circuit_break', dependency: 'payments' } });
    expect(rec({ signals: { contagion: 0.49 }, contagionSources: SOURCES }).params).to.deep.equal({ reason: 'monitor' });
  });

  it('restarts or scales +2 in emergency', () => {
    expect(rec({ state: 'emergency', signals: { fatigue: 0.7 } })).to.include({ type: 'restart', tier: 1 });
    const s = rec({ state: 'emergency', currentReplicas: 3 });
    expect(s).to.deep.include({ type: 'scale', tier: 1, params: { delta: 2, replicas: 5 } });
    expect(s.text).to.equal(`Scale ${KEY} to 5 replicas (+2).`);
    expect(rec({ state: 'emergency' }).params).to.deep.equal({ delta: 2 });
  });

  it('then fatigue ≥ 0.75, stress ≥ 0.7, pressure ≥ 0.6, entropy ≥ 0.6, else monitor', () => {
    expect(rec({ signals: { fatigue: 0.75, stress: 0.9 } })).to.include({ type: 'restart', tier: 2 });
    expect(rec({ signals: { stress: 0.7 }, currentReplicas: 0 })).to.deep.include({ type: 'scale', tier: 2, params: { delta: 1, replicas: 1 } });
    expect(rec({ signals: { pressure: 0.6, entropy: 0.9 } }).params).to.deep.equal({ reason: 'investigate' });
    expect(rec({ signals: { entropy: 0.6 } }).params).to.deep.equal({ reason: 'monitor' });
    const idle = rec({});
    expect(idle).to.deep.include({ type: 'alert', params: { reason: 'monitor' }, tier: 2 });
    expect(idle.text).to.equal(`Monitor ${KEY}; no automated action.`);
  });

  it('gives Tier 1 only to scale/restart in emergency', () => {
    expect(actionTier('emergency', 'scale')).to.equal(1);
    expect(actionTier('emergency', 'restart')).to.equal(1);
    expect(actionTier('emergency', 'alert')).to.equal(2);
    expect(actionTier('emergency', 'cordon')).to.equal(2);
    expect(actionTier('critical', 'scale')).to.equal(2);
  });

  it('always gives finite params and a text for any signals', () => {
    const states: RuptureState[] = ['stable', 'elevated', 'warning', 'critical', 'emergency'];
    fc.assert(
      fc.property(fc.constantFrom(...states), fc.array(fc.double(), { minLength: 6, maxLength: 6 }), fc.boolean(), (state, [a, b, c, d, e, n], withSources) => {
        const r = recommendAction({
          workload: KEY,
          state,
          signals: { stress: a, fatigue: b, pressure: c, entropy: d, contagion: e },
          contagionSources: withSources ? SOURCES : [],
          currentReplicas: n,
        });
        for (const v of Object.values(r.params)) if (typeof v === 'number') expect(Number.isFinite(v)).to.equal(true);
        expect(r.text).to.not.match(/NaN|Infinity/);
        expect(r.tier).to.equal(actionTier(state, r.type));
      }),
    );
  });
});
