/**
 * `rpt_rupture_index{host,metric,severity}` (fusedR) and `rpt_time_to_failure_seconds{host,metric}`
 * (the primary metric's estimated time to failure), kept as one row per (host, metric): the two
 * label values, a value per severity and the time to failure in arrays of doubles, the series'
 * order in two InsertionOrders (insertion-order.ts). A tick writes numbers and relinks ids; the
 * series' lines and objects are made only while /metrics is answered (RowGauge, row-gauge.ts).
 *
 * The series, values and order are those of the prom-client Gauges this replaces, fed at each
 * snapshot so: remove {host, metric, severity: 'stable'}, set {host, metric, severity: state} to
 * fusedR, set {host, metric} to the time to failure when there is one (never removed). So a
 * (host, metric) has a series for each other severity it has been in, with its last value, and a
 * stable one while its last snapshot was stable; workloads sharing a host label (legacyHostOf) and
 * a primary metric share them. prom-client lists a gauge's series in the order its object of
 * series got their keys: a series where it was first set, but the stable one, removed and set
 * again at each stable snapshot, where it was last set (test/unit/observability/rupture-gauges.test.ts
 * compares the exposition with prom-client's). One difference: prom-client keys a series by
 * `host:<host>,metric:<metric>,severity:<severity>,`, so two label sets that make the same key (a
 * host or metric with `,metric:` in it) are one series there and two here.
 */
import type { Registry } from 'prom-client';
import type { RuptureState, WorkloadSnapshot } from '../analysis/contract.js';
import { legacyHostOf } from '../model/workload-key.js';
import { InsertionOrder } from './insertion-order.js';
import { RowGauge, escapeLabel, valueText, type SeriesValues } from './row-gauge.js';

/** a severity's slot in a row */
const SLOT: Record<RuptureState, number> = { stable: 0, elevated: 1, warning: 2, critical: 3, emergency: 4 };
const SEVERITIES = Object.keys(SLOT) as RuptureState[];
const SLOTS = SEVERITIES.length;
const SEVERITY_LABELS = SEVERITIES.map((severity) => `,severity="${escapeLabel(severity)}"} `);
/** no row */
const NONE = -1;

export class RuptureGauges {
  /** row → its label values */
  private readonly hosts: string[] = [];
  private readonly metrics: string[] = [];
  /** host label → its latest row; a host's rows (one per metric) chained through `sameHost` */
  private readonly hostRows = new Map<string, number>();
  private readonly sameHost: number[] = [];
  /** series `row * SLOTS + slot` → the fusedR last set; the series of rpt_rupture_index, in order */
  private readonly fusedR: number[] = [];
  private readonly ruptureOrder = new InsertionOrder();
  /** row → the time to failure last set; the rows with a series of rpt_time_to_failure_seconds, in order */
  private readonly ttf: number[] = [];
  private readonly ttfOrder = new InsertionOrder();

  /** registers rpt_rupture_index and rpt_time_to_failure_seconds in `registry`, in this order */
  register(registry: Registry): void {
    new RowGauge({ name: 'rpt_rupture_index', help: 'FusedR per host and primary metric', labelNames: ['host', 'metric', 'severity'] }, registry, () => this.ruptureValues(), (name) => this.ruptureLines(name));
    new RowGauge({ name: 'rpt_time_to_failure_seconds', help: 'estimated time to failure of the primary metric', labelNames: ['host', 'metric'] }, registry, () => this.ttfValues(), (name) => this.ttfLines(name));
  }

  /** the (host, metric) pairs with a row */
  get size(): number {
    return this.hosts.length;
  }

  /** snapshot `s`'s fusedR and, when defined, its time to failure */
  set(s: WorkloadSnapshot, ttfSeconds: number | undefined): void {
    const row = this.rowOf(legacyHostOf(s.key), s.sources.primaryMetric ?? 'none');
    const series = row * SLOTS + SLOT[s.state];
    this.ruptureOrder.delete(row * SLOTS + SLOT.stable);
    this.fusedR[series] = s.fusedR;
    this.ruptureOrder.add(series);
    if (ttfSeconds !== undefined) {
      this.ttf[row] = ttfSeconds;
      this.ttfOrder.add(row);
    }
  }

  private rowOf(host: string, metric: string): number {
    const latest = this.hostRows.get(host) ?? NONE;
    for (let row = latest; row !== NONE; row = this.sameHost[row]!) if (this.metrics[row] === metric) return row;
    const row = this.hosts.length;
    this.hosts.push(host);
    this.metrics.push(metric);
    this.sameHost.push(latest);
    this.hostRows.set(host, row);
    for (let i = 0; i < SLOTS; i++) this.fusedR.push(Number.NaN);
    this.ttf.push(Number.NaN);
    return row;
  }

  private labels(row: number): string {
    return `host="${escapeLabel(this.hosts[row]!)}",metric="${escapeLabel(this.metrics[row]!)}"`;
  }

  // the lines go through a copy of the order taken when the scrape reaches the gauge: ticks run
  // between two parts of a scrape, and a series they move must not come twice nor end the walk

  private *ruptureLines(name: string): Generator<string> {
    for (const series of this.ruptureOrder.ids()) {
      if (!this.ruptureOrder.has(series)) continue;
      yield `${name}{${this.labels((series / SLOTS) | 0)}${SEVERITY_LABELS[series % SLOTS]!}${valueText(this.fusedR[series]!)}`;
    }
  }

  private *ttfLines(name: string): Generator<string> {
    for (const row of this.ttfOrder.ids()) yield `${name}{${this.labels(row)}} ${valueText(this.ttf[row]!)}`;
  }

  private ruptureValues(): SeriesValues {
    const out: SeriesValues = [];
    for (const series of this.ruptureOrder.ids()) {
      const row = (series / SLOTS) | 0;
      out.push({ value: this.fusedR[series]!, labels: { host: this.hosts[row]!, metric: this.metrics[row]!, severity: SEVERITIES[series % SLOTS]! } });
    }
    return out;
  }

  private ttfValues(): SeriesValues {
    const out: SeriesValues = [];
    for (const row of this.ttfOrder.ids()) out.push({ value: this.ttf[row]!, labels: { host: this.hosts[row]!, metric: this.metrics[row]! } });
    return out;
  }
}
