/**
 * Remote-write series to metric records, with what the written headers report
 * (docs/remote-write-mapping.md, "What the written headers count"):
 * - a sample whose timestamp is not a plausible Unix-millisecond time inside the accepted window, or
 *   whose value is ±Inf, is invalid: not stored, counted, and the request is answered 400;
 * - NaN is Prometheus's "no value" (stale markers, summaries without observations): written, not stored;
 * - a series the service does not analyse (no metric name, a `host` label that is no workload) is a
 *   filtering decision: its samples count as written and as dropped (`invalid`), never as a failed write;
 * - native histograms and exemplars are accepted and counted as written, not analysed.
 *
 * Two steps: `identifySamples` (stateless: validation and workload identity, into flat typed arrays
 * that a decode worker hands back as transferable buffers) and `mapIdentified` (the stateful name
 * mapping of prometheus-names.ts: counter rates need every sample of a series in one place, the main
 * thread). `recordsOfSeries` does both in one pass (the event loop's decode, without the arrays).
 */
import { resolveFromLabels } from '../identity.js';
import type { DecodedBatch } from '../../model/records.js';
import { emptyBatch } from '../../model/records.js';
import { PROMETHEUS_RULES } from './prometheus-names.js';
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

/** Field count per sample in `IdentifiedSamples.refs`: workload, pod, name, series key (string-table indices). */
export const REFS_PER_SAMPLE = 4;
/** `refs` entry of an absent pod or series key */
export const NO_STRING = -1;

/**
 * The samples to store of one request, identified but not yet name-mapped, as flat arrays (the
 * buffers transfer between threads without copying): sample i is `values[i]` at `times[i]`
 * (counter start `starts[i]`, 0 when not sent), its strings at `refs[4i..4i+3]` into `strings`.
 */
export interface IdentifiedSamples {
  strings: string[];
  refs: Int32Array;
  values: Float64Array;
  times: Float64Array;
  starts: Float64Array;
  count: number;
  written: WrittenCounts;
  invalidValues: number;
  invalidTimestamps: number;
  /** samples dropped: the invalid ones and the series that name no workload */
  rejected: number;
}

/** the largest time a JavaScript Date holds; beyond it a "millisecond" timestamp is not one */
const MAX_TIME_MS = 8.64e15;

class StringTable {
  readonly strings: string[] = [];
  private readonly index = new Map<string, number>();

  ref(s: string | undefined): number {
    if (s === undefined) return NO_STRING;
    let i = this.index.get(s);
    if (i === undefined) {
      i = this.strings.length;
      this.strings.push(s);
      this.index.set(s, i);
    }
    return i;
  }
}

/** where the samples to store go, one call per sample: name-mapped at once, or into flat arrays for another thread */
type SampleSink = (workload: string, pod: string | undefined, seriesKey: string, name: string, value: number, timeMs: number, startMs: number) => void;

interface Counts {
  written: WrittenCounts;
  invalidValues: number;
  invalidTimestamps: number;
  rejected: number;
}

/** validation and identity of every sample; the ones to store go to `sink` in order */
function visitSamples(series: readonly RemoteSeries[], window: TimeWindow | undefined, sink: SampleSink): Counts {
  const counts: Counts = { written: { samples: 0, histograms: 0, exemplars: 0 }, invalidValues: 0, invalidTimestamps: 0, rejected: 0 };
  const written = counts.written;
  const oldest = window?.oldestMs ?? 1;
  const newest = window?.newestMs ?? MAX_TIME_MS;
  for (const s of series) {
    written.histograms += s.histograms;
    written.exemplars += s.exemplars;
    const name = s.labels.get('__name__');
    const identity = name === undefined || name === '' ? undefined : resolveFromLabels((n) => s.labels.get(n));
    // the series key only serves the rules that keep state per series (rates, latency)
    const seriesKey =
      identity === undefined || PROMETHEUS_RULES[name as string] === undefined
        ? ''
        : `${identity.workload}|${identity.pod ?? ''}|${name}|${s.labels.get('instance') ?? ''}|${s.labels.get('container') ?? ''}`;
    for (const sample of s.samples) {
      const t = toMs(sample.timestamp);
      if (!Number.isSafeInteger(t) || t < oldest || t > newest) {
        counts.invalidTimestamps += 1;
        counts.rejected += 1;
        continue;
      }
      const v = sample.value;
      if (Number.isNaN(v)) {
        written.samples += 1;
        continue;
      }
      if (!Number.isFinite(v)) {
        counts.invalidValues += 1;
        counts.rejected += 1;
        continue;
      }
      written.samples += 1;
      if (identity === undefined) {
        counts.rejected += 1;
        continue;
      }
      sink(identity.workload, identity.pod, seriesKey, name as string, v, t, toMs(sample.startTimestamp) || s.createdMs);
    }
  }
  return counts;
}

/** the samples to store as flat arrays (what a decode worker hands back) */
export function identifySamples(series: readonly RemoteSeries[], window: TimeWindow | undefined): IdentifiedSamples {
  let capacity = 0;
  for (const s of series) capacity += s.samples.length;
  const table = new StringTable();
  const refs = new Int32Array(capacity * REFS_PER_SAMPLE);
  const values = new Float64Array(capacity);
  const times = new Float64Array(capacity);
  const starts = new Float64Array(capacity);
  let count = 0;
  const counts = visitSamples(series, window, (workload, pod, seriesKey, name, value, timeMs, startMs) => {
    const at = count * REFS_PER_SAMPLE;
    refs[at] = table.ref(workload);
    refs[at + 1] = table.ref(pod);
    refs[at + 2] = table.ref(name);
    refs[at + 3] = seriesKey === '' ? NO_STRING : table.ref(seriesKey);
    values[count] = value;
    times[count] = timeMs;
    starts[count] = startMs;
    count += 1;
  });
  return { strings: table.strings, refs, values, times, starts, count, ...counts };
}

/** The name mapping of identified samples, in their order, into a batch (stateful: the mapper's counters). */
export function mapIdentified(ids: IdentifiedSamples, names: PrometheusNameMapper): SeriesOutcome {
  const batch = emptyBatch();
  batch.rejected = ids.rejected;
  const { strings, refs, values, times, starts } = ids;
  for (let i = 0; i < ids.count; i += 1) {
    const at = i * REFS_PER_SAMPLE;
    const podRef = refs[at + 1] as number;
    const keyRef = refs[at + 3] as number;
    names.map(
      strings[refs[at] as number] as string,
      podRef === NO_STRING ? undefined : strings[podRef],
      keyRef === NO_STRING ? '' : (strings[keyRef] as string),
      strings[refs[at + 2] as number] as string,
      values[i] as number,
      times[i] as number,
      batch.metrics,
      starts[i] as number,
    );
  }
  return { batch, written: ids.written, invalidValues: ids.invalidValues, invalidTimestamps: ids.invalidTimestamps };
}

/** both steps in one pass, on the event loop (no flat arrays in between) */
export function recordsOfSeries(series: readonly RemoteSeries[], names: PrometheusNameMapper, window: TimeWindow | undefined): SeriesOutcome {
  const batch = emptyBatch();
  const out = batch.metrics;
  const counts = visitSamples(series, window, (workload, pod, seriesKey, name, value, timeMs, startMs) => names.map(workload, pod, seriesKey, name, value, timeMs, out, startMs));
  batch.rejected = counts.rejected;
  return { batch, written: counts.written, invalidValues: counts.invalidValues, invalidTimestamps: counts.invalidTimestamps };
}
