import { expect } from 'chai';
import fc from 'fast-check';
import { Gauge, Registry } from 'prom-client';
import type { WorkloadSnapshot } from '../../../api-server/src/analysis/contract.js';
import { SelfMetrics } from '../../../api-server/src/observability/self-metrics.js';
import { exposition } from '../../../api-server/src/observability/exposition.js';
import { WorkloadGauges } from '../../../api-server/src/observability/workload-gauges.js';
import { legacyHostOf, parseWorkloadKey } from '../../../api-server/src/model/workload-key.js';
import { SIGNAL_NAMES } from '../../../api-server/src/model/signals.js';

type Signals = WorkloadSnapshot['signals'];

/** the part of a snapshot SelfMetrics.snapshot reads */
function snapshot(key: string, values: readonly number[], fusedR: number, state: WorkloadSnapshot['state']): WorkloadSnapshot {
  const signals = Object.fromEntries(SIGNAL_NAMES.map((name, i) => [name, { value: values[i]! }])) as unknown as Signals;
  return { key, signals, fusedR, state, sources: { primaryMetric: 'cpu_percent' } } as unknown as WorkloadSnapshot;
}

/** the four gauges as SelfMetrics kept them in prom-client's Gauges before workload-gauges.ts (main 7445a8b) */
class Reference {
  readonly registry = new Registry();
  private readonly kpi = new Gauge({ name: 'svc_kpi', help: 'KPI signal value per workload (signal includes fused_rupture_index)', labelNames: ['namespace', 'kind', 'workload', 'signal'], registers: [this.registry] });
  private readonly health = new Gauge({ name: 'rpt_kpi_healthscore', help: 'health_score (0..1)', labelNames: ['host'], registers: [this.registry] });
  private readonly stress = new Gauge({ name: 'rpt_kpi_stress', help: 'stress (0..1)', labelNames: ['host'], registers: [this.registry] });
  private readonly fatigue = new Gauge({ name: 'rpt_kpi_fatigue', help: 'fatigue (0..1)', labelNames: ['host'], registers: [this.registry] });

  snapshot(s: WorkloadSnapshot): void {
    const ref = parseWorkloadKey(s.key);
    const host = legacyHostOf(s.key);
    if (ref !== undefined) {
      const labels = { namespace: ref.namespace, kind: ref.kind, workload: ref.name };
      for (const signal of SIGNAL_NAMES) this.kpi.set({ ...labels, signal }, s.signals[signal].value);
      this.kpi.set({ ...labels, signal: 'fused_rupture_index' }, s.fusedR);
    }
    this.health.set({ host }, s.signals.health_score.value);
    this.stress.set({ host }, s.signals.stress.value);
    this.fatigue.set({ host }, s.signals.fatigue.value);
  }
}

/** the exposition's parts, each checked to be at most `partChars` plus one series line long */
async function parts(registry: Registry, partChars: number): Promise<string[]> {
  const out: string[] = [];
  for await (const part of exposition(registry, partChars)) out.push(part);
  return out;
}

const FAMILIES = ['svc_kpi', 'rpt_kpi_healthscore', 'rpt_kpi_stress', 'rpt_kpi_fatigue'];

async function families(registry: Registry): Promise<string[]> {
  return Promise.all(FAMILIES.map((name) => registry.getSingleMetricAsString(name)));
}

describe('workload gauges (svc_kpi, rpt_kpi_*): one row per workload', () => {
  it('exposes what prom-client Gauges set the same way expose, series and order (hand-made case)', async () => {
    const metrics = new SelfMetrics('test');
    metrics.snapshot(snapshot('ns/Deployment/a', [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.25], 1.5, 'stable'), undefined);
    metrics.snapshot(snapshot('default/host/h1', [1, 0, 0, 0, 0, 0, 0, 0, 0, 1], 0, 'stable'), undefined);
    metrics.snapshot(snapshot('ns/Deployment/a', [0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.75], 2, 'warning'), 600);
    const text = await metrics.registry.getSingleMetricAsString('svc_kpi');
    const lines = text.split('\n');
    expect(lines[0]).to.equal('# HELP svc_kpi KPI signal value per workload (signal includes fused_rupture_index)');
    expect(lines[1]).to.equal('# TYPE svc_kpi gauge');
    expect(lines[2]).to.equal('svc_kpi{namespace="ns",kind="Deployment",workload="a",signal="stress"} 0.15');
    expect(lines[11]).to.equal('svc_kpi{namespace="ns",kind="Deployment",workload="a",signal="health_score"} 0.75');
    expect(lines[12]).to.equal('svc_kpi{namespace="ns",kind="Deployment",workload="a",signal="fused_rupture_index"} 2');
    expect(lines[13]).to.equal('svc_kpi{namespace="default",kind="host",workload="h1",signal="stress"} 1');
    expect(lines).to.have.length(2 + 2 * 11);
    expect(await metrics.registry.getSingleMetricAsString('rpt_kpi_healthscore')).to.equal(
      '# HELP rpt_kpi_healthscore health_score (0..1)\n# TYPE rpt_kpi_healthscore gauge\nrpt_kpi_healthscore{host="ns/Deployment/a"} 0.75\nrpt_kpi_healthscore{host="h1"} 1',
    );
    const reference = new Reference();
    reference.snapshot(snapshot('ns/Deployment/a', [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.25], 1.5, 'stable'));
    reference.snapshot(snapshot('default/host/h1', [1, 0, 0, 0, 0, 0, 0, 0, 0, 1], 0, 'stable'));
    reference.snapshot(snapshot('ns/Deployment/a', [0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.75], 2, 'warning'));
    expect(await families(metrics.registry)).to.deep.equal(await families(reference.registry));
  });

  it('registers the metrics in the order they were before (the exposition lists them so)', () => {
    const names = new SelfMetrics('test').registry.getMetricsAsArray().map((m) => (m as unknown as { name: string }).name);
    const ours = names.filter((n) => n.startsWith('svc_') || n.startsWith('rpt_'));
    expect(ours.slice(0, 7)).to.deep.equal(['svc_kpi', 'rpt_rupture_index', 'rpt_time_to_failure_seconds', 'rpt_kpi_healthscore', 'rpt_kpi_stress', 'rpt_kpi_fatigue', 'rpt_actions_total']);
  });

  it('exposes what prom-client Gauges expose for any sequence of snapshots (keys sharing a host label, NaN, infinities, -0)', async () => {
    const keys = ['ns/Deployment/a', 'ns/StatefulSet/b', 'default/host/h', 'h', 'x/y', 'default/host/x/y', 'q/Deployment/a b"c\\d'];
    const value = fc.oneof(fc.double(), fc.constantFrom(Number.NaN, -0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY));
    const step = fc.record({ key: fc.constantFrom(...keys), values: fc.array(value, { minLength: 10, maxLength: 10 }), fusedR: value, state: fc.constantFrom('stable' as const, 'warning' as const, 'critical' as const) });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40, size: 'max' }), async (steps) => {
        const metrics = new SelfMetrics('test');
        const reference = new Reference();
        for (const s of steps) {
          metrics.snapshot(snapshot(s.key, s.values, s.fusedR, s.state), undefined);
          reference.snapshot(snapshot(s.key, s.values, s.fusedR, s.state));
        }
        expect(await families(metrics.registry)).to.deep.equal(await families(reference.registry));
      }),
      { numRuns: 300 },
    );
  });

  it("writes in parts the text registry.metrics() gives, the row gauges' lines straight from their rows (any snapshots, escaped labels, any part size)", async () => {
    const keys = ['ns/Deployment/a', 'default/host/h', 'h', 'x/y', 'q/Deployment/a b"c\\d', 'n\\s/Kind/line\nbreak', 'default/host/"q"'];
    const value = fc.oneof(fc.double(), fc.constantFrom(Number.NaN, -0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY));
    const step = fc.record({ key: fc.constantFrom(...keys), values: fc.array(value, { minLength: 10, maxLength: 10 }), fusedR: value });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 30, size: 'max' }), fc.integer({ min: 1, max: 400 }), async (steps, partChars) => {
        // the row gauges among prom-client metrics of their own (one with labels to escape), as SelfMetrics registers them
        const registry = new Registry();
        const gauges = new WorkloadGauges();
        const counter = new Gauge({ name: 'c_before', help: 'a "help"\nwith \\ escapes', labelNames: ['l'], registers: [registry] });
        gauges.registerKpi(registry);
        new Gauge({ name: 'c_between', help: 'no series', registers: [registry] });
        gauges.registerHostGauges(registry);
        for (const s of steps) {
          gauges.set(snapshot(s.key, s.values, s.fusedR, 'stable'));
          counter.set({ l: s.key }, s.fusedR);
        }
        const got = await parts(registry, partChars);
        expect(got.join('')).to.equal(await registry.metrics());
        // a part is handed on once it reaches partChars: none is longer than that plus the longest line (or metric text) that made it
        const longest = Math.max(...(await registry.metrics()).split('\n\n').map((m) => m.length + 2));
        for (const p of got) expect(p.length).to.be.at.most(partChars + longest);
      }),
      { numRuns: 300 },
    );
  });

  it('serves the exposition of 2 000 workloads in parts of about 64 K characters, the same text as registry.metrics()', async () => {
    const registry = new Registry();
    const gauges = new WorkloadGauges();
    gauges.registerKpi(registry);
    gauges.registerHostGauges(registry);
    for (let w = 0; w < 2000; w++) gauges.set(snapshot(`ns${w % 7}/Deployment/w${w}`, Array.from({ length: 10 }, (_, i) => (w * 10 + i) / 997), w / 3, 'stable'));
    const got = await parts(registry, 64 * 1024);
    expect(got.join('')).to.equal(await registry.metrics());
    // 2 000 × (11 + 3) series of ~90 characters: ~2.5 M characters in ~40 parts, none much above 64 K
    expect(got.length).to.be.within(30, 60);
    for (const p of got) expect(p.length).to.be.below(64 * 1024 + 200);
  });
});
