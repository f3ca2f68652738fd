/**
 * The /metrics text, in parts: the same text as prom-client's `registry.metrics()` (Prometheus
 * text format 0.0.4; the registry is never switched to OpenMetrics), its metrics in the registry's
 * order, each one's text as the registry gives it, but the row gauges' series (RowGauge,
 * row-gauge.ts: svc_kpi and rpt_kpi_* in workload-gauges.ts, rpt_rupture_index and
 * rpt_time_to_failure_seconds in rupture-gauges.ts) written line by line straight from their rows
 * and handed on in parts of about PART characters.
 *
 * Why: with per-workload series the text grows with the workloads (16 series a workload, 6.4 M
 * characters at 5 000 workloads), and prom-client builds it from a value object and a labels
 * object per series, then one string of the whole text, an object of its own in V8's large-object
 * space: at 5 000 workloads a scrape allocates 211-214 MB that way and 32-36 MB this way, its
 * largest string 6 406 K characters against 66 K, in 234-441 against 19-75 ms of the main thread
 * on a loaded machine (bench/memory/metrics-scrape.ts, docs/memory.md "A scrape of /metrics"). Here
 * no series object is made and no part is much larger than PART (the metrics prom-client formats,
 * the process metrics and the counters, come as one string each, none of them with series per
 * workload).
 */
import type { Registry } from 'prom-client';
import { RowGauge } from './row-gauge.js';

/** a part is handed on once it is this long (UTF-16 units) */
const PART = 64 * 1024;

export async function* exposition(registry: Registry, partChars = PART): AsyncGenerator<string> {
  let part = '';
  let first = true;
  for (const metric of registry.getMetricsAsArray()) {
    // prom-client joins the metrics' texts with a blank line and ends the whole with a newline
    if (!first) part += '\n\n';
    first = false;
    if (metric instanceof RowGauge) {
      part += metric.headLines();
      for (const line of metric.seriesLines()) {
        part += `\n${line}`;
        if (part.length >= partChars) {
          yield part;
          part = '';
        }
      }
    } else part += await registry.getSingleMetricAsString(metric.name);
    if (part.length >= partChars) {
      yield part;
      part = '';
    }
  }
  yield `${part}\n`;
}
