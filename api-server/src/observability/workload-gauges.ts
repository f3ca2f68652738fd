/**
 * The self-metric gauges with one series per workload and signal (`svc_kpi`) or per host
 * (`rpt_kpi_healthscore`, `rpt_kpi_stress`, `rpt_kpi_fatigue`), kept as one row per workload: its
 * label values, computed once, and its 11 latest values in an array of doubles. prom-client's
 * Gauge keeps an entry object, a labels object and a hash string per series and replaces the
 * entry at every set (14 series a workload, each set every tick); here a tick writes 11 numbers
 * into the row, and the series' objects are built only while /metrics is answered.
 *
 * The exposition is the one prom-client's Gauges give for the same sets: the series of a gauge in
 * the order their workloads were first set, a workload's svc_kpi series in SIGNAL_NAMES order and
 * `fused_rupture_index` last, labels in the order namespace, kind, workload, signal
 * (test/unit/observability/workload-gauges.test.ts compares the two). The gauges are RowGauges
 * (row-gauge.ts): a scrape through observability/exposition.ts reads each series' line straight
 * from the rows (`seriesLines`); prom-client's own formatting (registry.metrics(),
 * getSingleMetricAsString) reads the same series as value objects (`get`), 16 objects and more a
 * workload a scrape.
 */
import type { Registry } from 'prom-client';
import type { WorkloadSnapshot } from '../analysis/contract.js';
import { legacyHostOf, parseWorkloadKey } from '../model/workload-key.js';
import { SIGNAL_NAMES } from '../model/signals.js';
import { RowGauge, escapeLabel, valueText, type SeriesValues } from './row-gauge.js';

/** row slots: SIGNAL_NAMES' values in order, then fused_rupture_index */
const FUSED = SIGNAL_NAMES.length;
const STRESS = SIGNAL_NAMES.indexOf('stress');
const FATIGUE = SIGNAL_NAMES.indexOf('fatigue');
const HEALTH = SIGNAL_NAMES.indexOf('health_score');
const KPI_SIGNALS: readonly string[] = [...SIGNAL_NAMES, 'fused_rupture_index'];
const KPI_SIGNAL_LABELS = KPI_SIGNALS.map((signal) => `signal="${escapeLabel(signal)}"} `);

interface Row {
  /** svc_kpi's labels but `signal`; undefined when the key is not `namespace/kind/name` (no svc_kpi series) */
  ref: { namespace: string; kind: string; workload: string } | undefined;
  values: number[];
}

export class WorkloadGauges {
  /** workload key → its row, in the order the workloads were first set */
  private readonly rows = new Map<string, Row>();
  /**
   * host label → the row that set it last, in the order the hosts were first set: a host is the
   * key itself but for `default/host/{name}` (legacyHostOf), so two keys can share one, as they
   * shared one series of prom-client's Gauge
   */
  private readonly hosts = new Map<string, Row>();

  /** registers svc_kpi in `registry` (the registry lists its metrics in the order they were registered) */
  registerKpi(registry: Registry): void {
    new RowGauge({ name: 'svc_kpi', help: 'KPI signal value per workload (signal includes fused_rupture_index)', labelNames: ['namespace', 'kind', 'workload', 'signal'] }, registry, () => this.kpiValues(), (name) => this.kpiLines(name));
  }

  /** registers rpt_kpi_healthscore, rpt_kpi_stress and rpt_kpi_fatigue in `registry`, in this order */
  registerHostGauges(registry: Registry): void {
    new RowGauge({ name: 'rpt_kpi_healthscore', help: 'health_score (0..1)', labelNames: ['host'] }, registry, () => this.hostValues(HEALTH), (name) => this.hostLines(name, HEALTH));
    new RowGauge({ name: 'rpt_kpi_stress', help: 'stress (0..1)', labelNames: ['host'] }, registry, () => this.hostValues(STRESS), (name) => this.hostLines(name, STRESS));
    new RowGauge({ name: 'rpt_kpi_fatigue', help: 'fatigue (0..1)', labelNames: ['host'] }, registry, () => this.hostValues(FATIGUE), (name) => this.hostLines(name, FATIGUE));
  }

  /** the workloads with a row */
  get size(): number {
    return this.rows.size;
  }

  /** the latest values of snapshot `s`'s workload */
  set(s: WorkloadSnapshot): void {
    let row = this.rows.get(s.key);
    if (row === undefined) {
      const ref = parseWorkloadKey(s.key);
      const values: number[] = [];
      // doubles from the start (not small integers), so the array keeps them unboxed
      for (let i = 0; i <= FUSED; i++) values.push(0.5);
      row = { ref: ref === undefined ? undefined : { namespace: ref.namespace, kind: ref.kind, workload: ref.name }, values };
      this.rows.set(s.key, row);
    }
    const host = legacyHostOf(s.key);
    if (this.hosts.get(host) !== row) this.hosts.set(host, row);
    const v = row.values;
    for (let i = 0; i < SIGNAL_NAMES.length; i++) v[i] = s.signals[SIGNAL_NAMES[i]!].value;
    v[FUSED] = s.fusedR;
  }

  private kpiValues(): SeriesValues {
    const out: SeriesValues = [];
    for (const row of this.rows.values()) {
      if (row.ref === undefined) continue;
      for (let i = 0; i <= FUSED; i++) out.push({ value: row.values[i]!, labels: { ...row.ref, signal: KPI_SIGNALS[i]! } });
    }
    return out;
  }

  private *kpiLines(name: string): Generator<string> {
    for (const row of this.rows.values()) {
      if (row.ref === undefined) continue;
      const head = `${name}{namespace="${escapeLabel(row.ref.namespace)}",kind="${escapeLabel(row.ref.kind)}",workload="${escapeLabel(row.ref.workload)}",`;
      for (let i = 0; i <= FUSED; i++) yield `${head}${KPI_SIGNAL_LABELS[i]!}${valueText(row.values[i]!)}`;
    }
  }

  private *hostLines(name: string, slot: number): Generator<string> {
    for (const [host, row] of this.hosts) yield `${name}{host="${escapeLabel(host)}"} ${valueText(row.values[slot]!)}`;
  }

  private hostValues(slot: number): SeriesValues {
    const out: SeriesValues = [];
    for (const [host, row] of this.hosts) out.push({ value: row.values[slot]!, labels: { host } });
    return out;
  }
}
