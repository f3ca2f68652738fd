/**
 * Remote-write series to metric records, with what the written headers report
 * (docs/remote-write-mapping.md, "What the written headers count"):
 * - a sample whose timestamp is not a plausible Unix-millisecond time inside the accepted window, or
 *   whose value is ±Inf, is invalid: not stored, counted, and the request is answered 400;
 * - NaN is Prometheus's "no value" (stale markers, summaries without observations): written, not stored;
 * - a series the service does not analyse (no metric name, a `host` label that is no workload) is a
 *   filtering decision: its samples count as written and as dropped (`invalid`), never as a failed write;
 * - native histograms and exemplars are accepted and counted as written, not analysed.
 */
import { resolveFromLabels } from '../identity.js';
import type { DecodedBatch } from '../../model/records.js';
import { emptyBatch } from '../../model/records.js';
import type { PrometheusNameMapper } from './prometheus-names.js';
import type { RemoteSeries } from './remote-write-series.js';
import { toMs } from './remote-write-series.js';

export interface TimeWindow {
  oldestMs: number;
  newestMs: number;
}

export interface WrittenCounts {
  samples: number;
  histograms: number;
  exemplars: number;
}

export interface SeriesOutcome {
  batch: DecodedBatch;
  written: WrittenCounts;
  invalidValues: number;
  invalidTimestamps: number;
}

/** the largest time a JavaScript Date holds; beyond it a "millisecond" timestamp is not one */
const MAX_TIME_MS = 8.64e15;

export function recordsOfSeries(series: readonly RemoteSeries[], names: PrometheusNameMapper, window: TimeWindow | undefined): SeriesOutcome {
  const batch = emptyBatch();
  const written: WrittenCounts = { samples: 0, histograms: 0, exemplars: 0 };
  let invalidValues = 0;
  let invalidTimestamps = 0;
  const oldest = window?.oldestMs ?? 1;
  const newest = window?.newestMs ?? MAX_TIME_MS;
  for (const s of series) {
    written.histograms += s.histograms;
    written.exemplars += s.exemplars;
    const name = s.labels.get('__name__');
    const identity = name === undefined || name === '' ? undefined : resolveFromLabels((n) => s.labels.get(n));
    const seriesKey = identity === undefined ? '' : `${identity.workload}|${identity.pod ?? ''}|${name}|${s.labels.get('instance') ?? ''}|${s.labels.get('container') ?? ''}`;
    for (const sample of s.samples) {
      const t = toMs(sample.timestamp);
      if (!Number.isSafeInteger(t) || t < oldest || t > newest) {
        invalidTimestamps += 1;
        batch.rejected += 1;
        continue;
      }
      const v = sample.value;
      if (Number.isNaN(v)) {
        written.samples += 1;
        continue;
      }
      if (!Number.isFinite(v)) {
        invalidValues += 1;
        batch.rejected += 1;
        continue;
      }
      written.samples += 1;
      if (identity === undefined) {
        batch.rejected += 1;
        continue;
      }
      const startMs = toMs(sample.startTimestamp) || s.createdMs;
      names.map(identity.workload, identity.pod, seriesKey, name as string, v, t, batch.metrics, startMs);
    }
  }
  return { batch, written, invalidValues, invalidTimestamps };
}
