import { expect } from 'chai';
import fc from 'fast-check';
import type { SpanRecord } from '../../../api-server/src/model/records.js';
import { edgeContagion, ServiceGraph } from '../../../api-server/src/analysis/traces/service-graph.js';
import { blastRadius } from '../../../api-server/src/analysis/business/business-signals.js';

const T0 = 1_700_000_000_000;
let seq = 0;

function sp(service: string, spanId: string, parentSpanId: string, startMs: number, durationMs: number, statusCode = 0): SpanRecord {
  return { workload: `shop/Deployment/${service}`, service, traceId: 't'.repeat(32), spanId, parentSpanId, name: 'op', kind: 2, startMs, endMs: startMs + durationMs, statusCode };
}

/** n calls from `from` to `to`, the first `errors` of them failing. */
function calls(g: ServiceGraph, from: string, to: string, n: number, errors: number, t: number, durationMs = 20): void {
  for (let i = 0; i < n; i++) {
    const p = `p${++seq}`;
    g.observeSpan(sp(from, p, '', t, 100));
    g.observeSpan(sp(to, `c${seq}`, p, t, durationMs, i < errors ? 2 : 1));
  }
}

describe('service graph (analytics.md §4.2, §3.2, §7.2)', () => {
  it('records parent-service → service edges with calls, errors and duration', () => {
    const g = new ServiceGraph();
    g.observeSpan(sp('frontend', 'a1', '', T0, 100));
    g.observeSpan(sp('cart', 'b1', 'a1', T0 + 5, 40, 2));
    g.observeSpan(sp('cart', 'b2', 'a1', T0 + 50, 20, 1));
    g.observeSpan(sp('cart', 'b3', 'b2', T0 + 55, 5));
    const [edge] = g.edges(T0);
    expect(g.edges(T0)).to.have.length(1);
    expect(edge).to.include({ from: 'frontend', to: 'cart', calls: 2, errors: 1, durationSumMs: 60, errorRate: 0.5, meanLatencyMs: 30 });
  });

  it('joins a child that arrives before its parent', () => {
    const g = new ServiceGraph();
    g.observeSpan(sp('cart', 'b1', 'a1', T0 + 5, 40, 2));
    expect(g.edges(T0)).to.have.length(0);
    g.observeSpan(sp('frontend', 'a1', '', T0, 100));
    expect(g.edges(T0 + 100)[0]).to.include({ from: 'frontend', to: 'cart', calls: 1, errors: 1 });
    expect(g.sizes().parked).to.equal(0);
  });

  it('does not join a parent seen more than 5 min before the child', () => {
    const g = new ServiceGraph();
    g.observeSpan(sp('frontend', 'a1', '', T0, 100));
    g.observeSpan(sp('cart', 'b1', 'a1', T0 + 300_100, 0));
    g.observeSpan(sp('cart', 'b2', 'a1', T0 + 300_101, 0));
    expect(g.edges(T0 + 300_101)[0].calls).to.equal(1);
  });

  it('gives contagion K = max p_e with p_e = (errors/calls)·clamp(calls/1000)', () => {
    const g = new ServiceGraph();
    calls(g, 'frontend', 'cart', 1000, 100, T0);
    calls(g, 'checkout', 'cart', 500, 250, T0);
    calls(g, 'cart', 'db', 10, 10, T0);
    // frontend → cart: 0.1·1 = 0.1; checkout → cart: 0.5·0.5 = 0.25
    expect(g.contagionInto('cart', T0)).to.be.closeTo(0.25, 1e-12);
    expect(g.contagionInto('db', T0)).to.be.closeTo(0.01, 1e-12);
    expect(g.contagionInto('frontend', T0)).to.equal(0);
    expect(edgeContagion(2000, 3000)).to.equal(1);
    expect(edgeContagion(0, 0)).to.equal(0);
  });

  it('lists distinct callers and the contagion sources above an edge error rate of 0.1', () => {
    const g = new ServiceGraph();
    calls(g, 'frontend', 'cart', 10, 1, T0);
    calls(g, 'checkout', 'cart', 10, 2, T0);
    calls(g, 'checkout', 'cart', 10, 0, T0);
    expect(g.callersOf('cart', T0)).to.deep.equal(['checkout', 'frontend']);
    expect(g.contagionSources('cart', T0)).to.deep.equal([]);
    calls(g, 'checkout', 'cart', 10, 5, T0);
    // checkout: 7 errors / 30 calls
    expect(g.contagionSources('cart', T0)).to.deep.equal([{ service: 'checkout', errorRate: 7 / 30, calls: 30 }]);
  });

  it('counts callers (the blast radius the analyzer reads) as blastRadius of the caller list, as edges come and expire', () => {
    const g = new ServiceGraph();
    calls(g, 'frontend', 'cart', 3, 0, T0);
    calls(g, 'checkout', 'cart', 3, 1, T0 + 400_000);
    calls(g, '', 'cart', 3, 0, T0);
    for (const t of [T0, T0 + 400_020, T0 + 600_020, T0 + 600_021, T0 + 1_000_020, T0 + 1_000_021]) {
      expect(g.callerCount('cart', t), `at ${t - T0}`).to.equal(blastRadius(g.callersOf('cart', t)));
    }
    expect(g.callerCount('cart', T0 + 400_020)).to.equal(2);
    expect(g.callerCount('nobody', T0)).to.equal(0);
  });

  it('forgets edges unseen for 10 min and span ids after 5 min', () => {
    const g = new ServiceGraph();
    calls(g, 'frontend', 'cart', 3, 0, T0);
    g.observeSpan(sp('frontend', 'late-parent', '', T0, 100));
    // the edge was last seen at the child's end, T0 + 20
    expect(g.callersOf('cart', T0 + 600_020)).to.deep.equal(['frontend']);
    expect(g.callersOf('cart', T0 + 600_021)).to.deep.equal([]);
    g.prune(T0 + 300_101);
    g.observeSpan(sp('cart', 'x', 'late-parent', T0 + 300_200, 10));
    expect(g.edges(T0 + 300_200)[0].calls).to.equal(3);
    expect(g.sizes().parked).to.equal(1);
    g.prune(T0 + 700_000);
    expect(g.sizes().edges).to.equal(0);
    expect(g.sizes().spans).to.equal(0);
    expect(g.sizes().parked).to.equal(0);
  });

  it('stays within its bounds and round-trips through JSON', () => {
    const g = new ServiceGraph({ maxSpans: 50, maxEdges: 3 });
    for (let i = 0; i < 10; i++) calls(g, `caller${i}`, 'cart', 5, 1, T0 + i);
    const sizes = g.sizes();
    expect(sizes.spans).to.be.at.most(50);
    expect(sizes.edges).to.equal(3);
    expect(g.callersOf('cart', T0)).to.deep.equal(['caller7', 'caller8', 'caller9']);
    const h = ServiceGraph.fromState(JSON.parse(JSON.stringify(g.exportState())), { maxSpans: 50, maxEdges: 3 });
    expect(h.edges(T0)).to.deep.equal(g.edges(T0));
    expect(() => ServiceGraph.fromState({ spans: [], parked: [], edges: [['a']] })).to.throw(/edges/);
  });

  it('never yields NaN or out-of-range contagion for any spans', () => {
    const t = fc.oneof(fc.double(), fc.integer({ min: T0, max: T0 + 1_000_000 }));
    const name = fc.constantFrom('a', 'b', 'c');
    const id = fc.constantFrom('s1', 's2', 's3', 's4', '');
    fc.assert(
      fc.property(fc.array(fc.tuple(name, id, id, t, t, fc.integer({ min: 0, max: 2 })), { maxLength: 60, size: 'max' }), t, (spans, now) => {
        const g = new ServiceGraph();
        for (const [service, spanId, parent, s, e, code] of spans) g.observeSpan({ ...sp(service, spanId, parent, 0, 0, code), startMs: s, endMs: e });
        g.prune(now);
        for (const s of ['a', 'b', 'c']) {
          const k = g.contagionInto(s, now);
          expect(k).to.be.within(0, 1);
          for (const e of g.edgesInto(s, now)) {
            expect(Number.isFinite(e.meanLatencyMs)).to.equal(true);
            expect(e.errorRate).to.be.within(0, 1);
          }
        }
      }),
    );
  });
});
