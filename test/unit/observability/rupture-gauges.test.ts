import { expect } from 'chai';
import fc from 'fast-check';
import { Gauge, Registry } from 'prom-client';
import type { RuptureState, WorkloadSnapshot } from '../../../api-server/src/analysis/contract.js';
import { SelfMetrics } from '../../../api-server/src/observability/self-metrics.js';
import { exposition } from '../../../api-server/src/observability/exposition.js';
import { RuptureGauges } from '../../../api-server/src/observability/rupture-gauges.js';
import { legacyHostOf } from '../../../api-server/src/model/workload-key.js';
import { SIGNAL_NAMES } from '../../../api-server/src/model/signals.js';

type Signals = WorkloadSnapshot['signals'];

/** the part of a snapshot SelfMetrics.snapshot reads */
function snapshot(key: string, primaryMetric: string | null, fusedR: number, state: RuptureState): WorkloadSnapshot {
  const signals = Object.fromEntries(SIGNAL_NAMES.map((name, i) => [name, { value: i / 10 }])) as unknown as Signals;
  return { key, signals, fusedR, state, sources: { primaryMetric } } as unknown as WorkloadSnapshot;
}

/** a prom-client gauge before and one after the gauges under test, set alike in both registries */
function surround(registry: Registry, register: () => void): (key: string, value: number) => void {
  const before = new Gauge({ name: 'c_before', help: 'a "help"\nwith \\ escapes', labelNames: ['l'], registers: [registry] });
  register();
  new Gauge({ name: 'c_after', help: 'no series', registers: [registry] });
  return (key, value) => before.set({ l: key }, value);
}

/** the two gauges as SelfMetrics kept them in prom-client's Gauges before rupture-gauges.ts (main b3d2755) */
class Reference {
  readonly registry = new Registry();
  private ruptureIndex!: Gauge;
  private ttf!: Gauge;
  readonly setAround = surround(this.registry, () => {
    this.ruptureIndex = new Gauge({ name: 'rpt_rupture_index', help: 'FusedR per host and primary metric', labelNames: ['host', 'metric', 'severity'], registers: [this.registry] });
    this.ttf = new Gauge({ name: 'rpt_time_to_failure_seconds', help: 'estimated time to failure of the primary metric', labelNames: ['host', 'metric'], registers: [this.registry] });
  });

  snapshot(s: WorkloadSnapshot, ttfSeconds: number | undefined): void {
    const host = legacyHostOf(s.key);
    const metric = s.sources.primaryMetric ?? 'none';
    this.ruptureIndex.remove({ host, metric, severity: 'stable' });
    this.ruptureIndex.set({ host, metric, severity: s.state }, s.fusedR);
    if (ttfSeconds !== undefined) this.ttf.set({ host, metric }, ttfSeconds);
  }
}

/** the gauges under test in a registry of their own, between the same prom-client gauges as Reference's */
class Rows {
  readonly registry = new Registry();
  readonly gauges = new RuptureGauges();
  readonly setAround = surround(this.registry, () => this.gauges.register(this.registry));

  snapshot(s: WorkloadSnapshot, ttfSeconds: number | undefined): void {
    this.gauges.set(s, ttfSeconds);
  }
}

async function joined(registry: Registry, partChars?: number): Promise<string> {
  let text = '';
  for await (const part of exposition(registry, partChars)) text += part;
  return text;
}

const FAMILIES = ['rpt_rupture_index', 'rpt_time_to_failure_seconds'];
/** the two families' texts in a whole exposition */
const families = (text: string): string[] => FAMILIES.map((name) => text.split('\n\n').find((m) => m.startsWith(`# HELP ${name} `)) ?? '');

// keys sharing a host label (default/host/h and h), labels to escape, metrics shared between hosts or not
const KEYS = ['ns/Deployment/a', 'default/host/h', 'h', 'x/y', 'default/host/x/y', 'q/Deployment/a b"c\\d', 'n\\s/Kind/line\nbreak', 'default/host/"q"'];
const METRICS = ['cpu_percent', 'mem"ory', 'lat\\ency\nms', null];
const value = fc.oneof(fc.double(), fc.constantFrom(Number.NaN, -0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY));
const state = fc.oneof({ arbitrary: fc.constant<RuptureState>('stable'), weight: 3 }, { arbitrary: fc.constantFrom<RuptureState>('elevated', 'warning', 'critical', 'emergency'), weight: 2 });
const step = fc.record({ key: fc.constantFrom(...KEYS), metric: fc.constantFrom(...METRICS), fusedR: value, state, ttf: fc.option(value, { nil: undefined }) });
type Step = { key: string; metric: string | null; fusedR: number; state: RuptureState; ttf: number | undefined };

function feed(steps: readonly Step[], ...into: { snapshot: (s: WorkloadSnapshot, ttf: number | undefined) => void }[]): void {
  for (const s of steps) for (const target of into) target.snapshot(snapshot(s.key, s.metric, s.fusedR, s.state), s.ttf);
}

describe('rupture gauges (rpt_rupture_index, rpt_time_to_failure_seconds): one row per host and metric', () => {
  it('lists a series where it was first set, the stable one where it was last set, as prom-client does (hand-made case)', async () => {
    const rows = new Rows();
    feed(
      [
        { key: 'ns/Deployment/a', metric: 'cpu', fusedR: 0.5, state: 'stable', ttf: undefined },
        { key: 'ns/Deployment/b', metric: 'cpu', fusedR: 0.25, state: 'stable', ttf: 60 },
        { key: 'ns/Deployment/a', metric: 'cpu', fusedR: 2, state: 'warning', ttf: 600 },
        { key: 'ns/Deployment/a', metric: 'cpu', fusedR: 1, state: 'stable', ttf: undefined },
        { key: 'ns/Deployment/b', metric: 'cpu', fusedR: 3, state: 'critical', ttf: 30 },
        { key: 'ns/Deployment/b', metric: 'cpu', fusedR: 2.5, state: 'warning', ttf: undefined },
      ],
      rows,
    );
    const expected = [
      '# HELP rpt_rupture_index FusedR per host and primary metric',
      '# TYPE rpt_rupture_index gauge',
      'rpt_rupture_index{host="ns/Deployment/a",metric="cpu",severity="warning"} 2',
      'rpt_rupture_index{host="ns/Deployment/a",metric="cpu",severity="stable"} 1',
      'rpt_rupture_index{host="ns/Deployment/b",metric="cpu",severity="critical"} 3',
      'rpt_rupture_index{host="ns/Deployment/b",metric="cpu",severity="warning"} 2.5',
    ].join('\n');
    expect(await rows.registry.getSingleMetricAsString('rpt_rupture_index')).to.equal(expected);
    expect(families(await joined(rows.registry))[0]).to.equal(expected);
    expect(families(await joined(rows.registry))[1]).to.equal(
      '# HELP rpt_time_to_failure_seconds estimated time to failure of the primary metric\n# TYPE rpt_time_to_failure_seconds gauge\n' +
        'rpt_time_to_failure_seconds{host="ns/Deployment/b",metric="cpu"} 30\nrpt_time_to_failure_seconds{host="ns/Deployment/a",metric="cpu"} 600',
    );
    expect(rows.gauges.size).to.equal(2);
  });

  it('gives the text prom-client Gauges fed the old way give, through exposition() in parts and registry.metrics() (any snapshots)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 60, size: 'max' }), fc.integer({ min: 1, max: 400 }), async (steps, partChars) => {
        const rows = new Rows();
        const reference = new Reference();
        feed(steps, rows, reference);
        for (const s of steps.slice(0, 3)) for (const r of [rows, reference]) r.setAround(s.key, s.fusedR);
        const expected = await reference.registry.metrics();
        expect(await joined(rows.registry, partChars)).to.equal(expected);
        expect(await rows.registry.metrics()).to.equal(expected);
      }),
      { numRuns: 300 },
    );
  });

  it("gives SelfMetrics' rpt_rupture_index and rpt_time_to_failure_seconds as prom-client Gauges fed the old way (any snapshots)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 60, size: 'max' }), async (steps) => {
        const metrics = new SelfMetrics('test');
        const reference = new Reference();
        feed(steps, metrics, reference);
        const expected = await Promise.all(FAMILIES.map((name) => reference.registry.getSingleMetricAsString(name)));
        expect(families(await joined(metrics.registry))).to.deep.equal(expected);
        expect(families(await metrics.registry.metrics())).to.deep.equal(expected);
        expect(await Promise.all(FAMILIES.map((name) => metrics.registry.getSingleMetricAsString(name)))).to.deep.equal(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('lists each series at most once, and every one there before and after, when ticks run between two parts of a scrape', async () => {
    const seriesOf = (text: string): string[] =>
      text
        .split('\n')
        .filter((line) => line.startsWith('rpt_'))
        .map((line) => line.slice(0, line.lastIndexOf(' ')));
    // few series, so that the ticks often move the one the scrape is at
    const few = fc.record({ key: fc.constantFrom(...KEYS.slice(0, 3)), metric: fc.constantFrom(...METRICS.slice(0, 2)), fusedR: value, state, ttf: fc.option(value, { nil: undefined }) });
    await fc.assert(
      fc.asyncProperty(fc.array(few, { maxLength: 40, size: 'max' }), fc.array(few, { minLength: 1, maxLength: 20, size: 'max' }), fc.nat({ max: 12 }), async (first, then, after) => {
        const rows = new Rows();
        feed(first, rows);
        const before = new Set(seriesOf(await rows.registry.metrics()));
        // parts of one line each: the ticks run after `after` of them
        const scrape = exposition(rows.registry, 1);
        let text = '';
        for (let i = 0; i < after; i++) {
          const part = await scrape.next();
          if (part.done === true) break;
          text += part.value;
        }
        feed(then, rows);
        for await (const part of scrape) text += part;
        const listed = seriesOf(text);
        const now = new Set(seriesOf(await rows.registry.metrics()));
        expect(new Set(listed).size).to.equal(listed.length);
        for (const series of before) if (now.has(series)) expect(listed).to.include(series);
        for (const series of listed) expect(before.has(series) || now.has(series)).to.equal(true);
      }),
      { numRuns: 300 },
    );
  });
});
