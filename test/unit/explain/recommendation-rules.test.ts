import { expect } from 'chai';
import fc from 'fast-check';
import { DIAGNOSIS_KINDS, type Diagnosis } from '../../../api-server/src/analysis/explain/diagnosis.js';
import { actionTier } from '../../../api-server/src/analysis/explain/recommendation.js';
import type { ActionRecommendation } from '../../../api-server/src/analysis/contract.js';
import { recommendationFor as ruleFor, scaleDelta, type RecommendationContext } from '../../../api-server/src/analysis/explain/recommendation-rules.js';

/** the rule that applies, which must exist */
function recommendationFor(d: Diagnosis, c: RecommendationContext): ActionRecommendation {
  const r = ruleFor(d, c);
  if (r === null) throw new Error(`no recommendation for ${d.kind}`);
  return r;
}

const KEY = 'shop/Deployment/cart';

function diagnosis(overrides: Partial<Diagnosis>): Diagnosis {
  return {
    kind: 'undetermined',
    factor: null,
    summary: 's',
    dependency: null,
    trafficRising: false,
    afterDeploy: false,
    deploy: null,
    etaSeconds: null,
    projected30Min: null,
    ...overrides,
  };
}

const ctx = { workload: KEY, state: 'emergency' as const, currentReplicas: null };

describe('recommendation rule table', () => {
  it('memory leak → rolling restart (Tier 1 in emergency, Tier 2 in critical), named in the reason', () => {
    const leak = diagnosis({ kind: 'memory-leak', factor: 'memory', summary: 'memory 62 % → 91 % in 40 min, +43 %/h' });
    const r = recommendationFor(leak, ctx);
    expect(r).to.include({ type: 'restart', tier: 1 });
    expect(r.params).to.deep.equal({ strategy: 'rolling' });
    expect(r.text).to.equal(`Rolling restart of ${KEY}: memory 62 % → 91 % in 40 min, +43 %/h is a leak; a restart frees the memory, more replicas would leak too.`);
    expect(recommendationFor(leak, { ...ctx, state: 'critical' }).tier).to.equal(2);
    // a leak after a deploy is still restarted (the restart is what stops the outage)
    expect(recommendationFor({ ...leak, afterDeploy: true, deploy: { event: 'deploy', description: 'v2', minutesBefore: 3 } }, ctx).type).to.equal('restart');
  });

  it('CPU saturation under rising traffic → scale sized from the 30-min forecast', () => {
    const cpu = diagnosis({ kind: 'cpu-saturation', factor: 'cpu', summary: 'cpu 40 % → 85 % in 30 min, +90 %/h', trafficRising: true, projected30Min: 1.3 });
    // 2 replicas assumed: ceil(2·1.3/0.7) = ceil(3.71) = 4 → +2
    const r = recommendationFor(cpu, ctx);
    expect(r).to.include({ type: 'scale', tier: 1 });
    expect(r.params).to.deep.equal({ delta: 2 });
    expect(r.text).to.equal(`Scale ${KEY} by +2 replicas: cpu 40 % → 85 % in 30 min, +90 %/h under rising traffic (cpu forecast 130 % in 30 min).`);
    // 4 replicas known: ceil(4·1.3/0.7) = ceil(7.43) = 8 → +4, replicas 8
    expect(recommendationFor(cpu, { ...ctx, currentReplicas: 4 }).params).to.deep.equal({ delta: 4, replicas: 8 });
    // flat traffic: no scale, investigate
    expect(recommendationFor({ ...cpu, trafficRising: false }, ctx)).to.deep.include({ type: 'alert', params: { reason: 'investigate' }, tier: 2 });
  });

  it('scaleDelta: at least 1, at most 5', () => {
    expect(scaleDelta(0.5, 2)).to.equal(1); // ceil(1.43) = 2 → 0 → 1
    expect(scaleDelta(3, 10)).to.equal(5); // ceil(42.9) = 43 → 33 → 5
    expect(scaleDelta(1.05, 2)).to.equal(1); // ceil(3.0) = 3 → 1
    expect(scaleDelta(Number.NaN, null)).to.equal(1); // NaN read as 1: ceil(2.86) = 3 → 1
  });

  it('error creep right after a deploy → rollback recommendation naming the deploy', () => {
    const creep = diagnosis({ kind: 'error-creep', factor: 'error_rate', summary: 'error rate 1 % → 9 % in 30 min, +16 %/h', afterDeploy: true, deploy: { event: 'deploy', description: 'v2.3.1', minutesBefore: 4 } });
    const r = recommendationFor(creep, ctx);
    expect(r).to.deep.include({ type: 'alert', params: { reason: 'rollback', event: 'deploy' }, tier: 2 });
    expect(r.text).to.equal(`Roll back deploy (v2.3.1) of ${KEY}: error rate 1 % → 9 % in 30 min, +16 %/h, starting 4 min after it.`);
    expect(recommendationFor({ ...creep, afterDeploy: false, deploy: null }, ctx)).to.deep.include({ type: 'alert', params: { reason: 'investigate' } });
  });

  it('failing dependency → notify, no scale, point at the dependency', () => {
    const dep = diagnosis({ kind: 'failing-dependency', factor: 'dependency:payments', dependency: 'payments', summary: 'calls to payments fail at 35 % (200 calls)', trafficRising: true });
    const r = recommendationFor(dep, ctx);
    expect(r).to.deep.include({ type: 'alert', params: { reason: 'dependency', dependency: 'payments' }, tier: 2 });
    expect(r.text).to.contain('payments').and.contain(`scaling ${KEY} would only add load`);
  });

  it('crash loop → no restart; latency burn → scale only under rising traffic; undetermined → nothing yet', () => {
    expect(recommendationFor(diagnosis({ kind: 'crash-loop', factor: 'restarts' }), ctx)).to.deep.include({ type: 'alert', params: { reason: 'crash_loop' } });
    expect(recommendationFor(diagnosis({ kind: 'latency-burn', factor: 'latency', trafficRising: true, projected30Min: 0.8 }), ctx)).to.deep.include({ type: 'scale', params: { delta: 1 } });
    expect(recommendationFor(diagnosis({ kind: 'latency-burn', factor: 'latency' }), ctx)).to.deep.include({ type: 'alert', params: { reason: 'investigate' } });
    expect(ruleFor(diagnosis({}), ctx)).to.equal(null);
  });
});

describe('recommendation rule table (property)', () => {
  it('always gives finite params, a text without NaN and the §9.3 tier', () => {
    const states = ['stable', 'elevated', 'warning', 'critical', 'emergency'] as const;
    fc.assert(
      fc.property(fc.constantFrom(...DIAGNOSIS_KINDS), fc.constantFrom(...states), fc.boolean(), fc.boolean(), fc.option(fc.double()), fc.option(fc.double()), (kind, state, traffic, deploy, projected, replicas) => {
        const d = diagnosis({ kind, trafficRising: traffic, afterDeploy: deploy, deploy: deploy ? { event: 'deploy', description: 'v2', minutesBefore: 1 } : null, projected30Min: projected });
        const r = ruleFor(d, { workload: KEY, state, currentReplicas: replicas });
        expect(r === null).to.equal(kind === 'undetermined');
        if (r === null) return;
        for (const v of Object.values(r.params)) if (typeof v === 'number') expect(Number.isFinite(v)).to.equal(true);
        expect(r.text).to.not.match(/NaN|Infinity/);
        expect(r.tier).to.equal(actionTier(state, r.type));
      }),
    );
  });
});
