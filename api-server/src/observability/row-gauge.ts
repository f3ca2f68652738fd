/**
 * A prom-client Gauge whose series live outside it, in compact rows (workload-gauges.ts,
 * rupture-gauges.ts): prom-client's own formatting (registry.metrics(), getSingleMetricAsString)
 * reads them as value objects through `get()`, observability/exposition.ts writes their lines
 * straight from the rows through `headLines()` and `seriesLines()`. Here too are prom-client's
 * escaping and value formatting that those lines use, so that both give the same text.
 */
import { Gauge, type Registry } from 'prom-client';

/** the series of a gauge as prom-client's `get()` gives them */
export type SeriesValues = { value: number; labels: Record<string, string> }[];

/** a Gauge whose series are read from the rows when it is collected (it holds none itself) */
export class RowGauge extends Gauge<string> {
  constructor(
    private readonly meta: { name: string; help: string; labelNames: string[] },
    registry: Registry,
    private readonly read: () => SeriesValues,
    /** each series' line of the exposition, `name{labels} value` for the (escaped) name given, in the order `read` gives them */
    private readonly lines: (name: string) => Iterable<string>,
  ) {
    super({ ...meta, registers: [registry] });
  }

  /** prom-client's answer for a gauge with no series (name, help, type), with the rows' series */
  override async get(): ReturnType<Gauge<string>['get']> {
    return { ...(await super.get()), values: this.read() };
  }

  /** the exposition's HELP and TYPE lines, as prom-client writes them */
  headLines(): string {
    const name = escapeText(this.meta.name);
    return `# HELP ${name} ${escapeText(this.meta.help)}\n# TYPE ${name} gauge`;
  }

  /** the exposition's line of each series, as prom-client writes them */
  seriesLines(): Iterable<string> {
    return this.lines(escapeText(this.meta.name));
  }
}

/** prom-client's escaping of a metric's name and help (registry.js escapeString) */
export const escapeText = (s: string): string => s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
/** prom-client's escaping of a label value (registry.js escapeLabelValue) */
export const escapeLabel = (s: string): string => escapeText(s).replace(/"/g, '\\"');
/** prom-client's sample value (util.js getValueAsString) */
export const valueText = (v: number): string => (Number.isNaN(v) ? 'Nan' : v === Infinity ? '+Inf' : v === -Infinity ? '-Inf' : `${v}`);
