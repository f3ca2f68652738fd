/**
 * The error share of each downstream call edge of one workload, recent against its own history.
 * Pure: the analysis passes the trace graph's edges out of the workload and the step time.
 *
 * The trace graph keeps each edge's calls and errors cumulated since the edge appeared (hours
 * for a steady caller), so its error rate moves slowly and a fixed threshold on it names a
 * dependency late or never. Here the cumulated counts are sampled once a step; the difference
 * between now and 5 min ago is the edge's **recent** share, the difference between 5 min ago and
 * the oldest kept sample (≤ 60 min) its **baseline**. The 5 min end at the edge's last new call:
 * an edge that went quiet keeps the share of its last calls for up to 10 min. The history counts
 * on across a count that went down (the graph dropped and re-created the edge: its new counts are
 * all new calls), so the baseline keeps the healthy hour.
 *
 * State bound: ≤ MAX_EDGES edges (the least recently seen goes), none older than the history
 * span. Only three samples are ever read: the edge's last new call, the sample splitting recent
 * from baseline (the newest 5 min before that call) and the oldest kept one (the baseline's start).
 * So samples newer than the split are kept as taken (one per 15 s of sample time), a run of
 * samples with unchanged counts keeps only its first and its newest, and samples older than the
 * split (only ever read as the baseline's start) are thinned to one a minute: at one step per
 * 15 s an edge keeps ≤ 76 samples instead of 240, and its baseline starts within a minute of the
 * hour before the latest sample instead of within 15 s. The samples are (time, calls, errors)
 * triples in one array of doubles per edge (24 bytes a sample instead of an object's ~75).
 */
import type { ServiceEdge } from '../traces/service-graph.js';
import type { DependencyEdge } from './diagnosis.js';

export const RECENT_MS = 5 * 60_000;
export const HISTORY_MS = 60 * 60_000;
/** an edge without a new call for this long is not read (the trace graph forgets it after 10 min) */
export const QUIET_MS = 10 * 60_000;
const SAMPLE_EVERY_MS = 15_000;
/** the spacing of the samples older than the recent/baseline split */
const BASELINE_SAMPLE_EVERY_MS = 60_000;
const MAX_EDGES = 32;

/** elements of one sample in an edge's array: its time, then its cumulated calls and errors */
const T = 0;
const CALLS = 1;
const ERRORS = 2;
const SAMPLE = 3;

interface EdgeSamples {
  /** the samples, oldest first, SAMPLE elements each */
  readonly s: number[];
  /** samples [0, thinned) are one per BASELINE_SAMPLE_EVERY_MS already */
  thinned: number;
  /** the graph's last counts of the edge (a drop means it re-created the edge); NaN before the first */
  rawCalls: number;
  rawErrors: number;
}

export class DownstreamHistory {
  private readonly edges = new Map<string, EdgeSamples>();

  /** records the edges' cumulated counts at `nowMs` (non-finite times and counts are ignored) */
  observe(edges: readonly Pick<ServiceEdge, 'to' | 'calls' | 'errors'>[], nowMs: number): void {
    if (!Number.isFinite(nowMs)) return;
    for (const e of edges) {
      if (!Number.isFinite(e.calls) || !Number.isFinite(e.errors) || e.calls < 0 || e.errors < 0) continue;
      let edge = this.edges.get(e.to);
      if (edge === undefined || (edge.s.length > 0 && nowMs < at(edge.s, count(edge.s) - 1, T))) {
        if (edge === undefined && this.edges.size >= MAX_EDGES) this.dropStalest();
        edge = { s: [], thinned: 0, rawCalls: Number.NaN, rawErrors: Number.NaN };
        this.edges.set(e.to, edge);
      }
      const s = edge.s;
      const n = count(s);
      // the counts since the last sample: all of them when the graph re-created the edge (its counts went down)
      const reset = Number.isNaN(edge.rawCalls) || e.calls < edge.rawCalls || e.errors < edge.rawErrors;
      const prevCalls = n > 0 ? at(s, n - 1, CALLS) : 0;
      const prevErrors = n > 0 ? at(s, n - 1, ERRORS) : 0;
      const calls = prevCalls + (reset ? (n === 0 ? 0 : e.calls) : e.calls - edge.rawCalls);
      const errors = prevErrors + (reset ? (n === 0 ? 0 : e.errors) : e.errors - edge.rawErrors);
      edge.rawCalls = e.calls;
      edge.rawErrors = e.errors;
      // within one sampling interval of the sample before it, the newest counts replace the last sample
      if (n >= 2 && nowMs - at(s, n - 2, T) < SAMPLE_EVERY_MS) s.length -= SAMPLE;
      s.push(nowMs, calls, errors);
      dropUnread(edge, nowMs);
    }
  }

  /**
   * Each edge with its recent share (the 5 min up to its last new call) and its baseline (the
   * history before them); an edge whose history is shorter than 5 min has its whole history as
   * recent and no baseline. Edges not sampled in the last 5 min, or without a call in the last
   * 10 min, are left out.
   */
  read(nowMs: number): DependencyEdge[] {
    const out: DependencyEdge[] = [];
    for (const [service, { s }] of this.edges) {
      const n = count(s);
      if (n === 0 || nowMs - at(s, n - 1, T) > RECENT_MS) continue;
      // the recent 5 min end at the edge's last call: an edge that went quiet (its callee stopped
      // answering, or its spans stopped coming) keeps the share of its last calls, up to QUIET_MS
      const end = lastCallIndex(s);
      if (nowMs - at(s, end, T) > QUIET_MS) continue;
      const split = splitIndex(s, end);
      const calls = at(s, end, CALLS) - at(s, split, CALLS);
      const errors = at(s, end, ERRORS) - at(s, split, ERRORS);
      const baseCalls = at(s, split, CALLS) - at(s, 0, CALLS);
      const baseErrors = at(s, split, ERRORS) - at(s, 0, ERRORS);
      out.push({
        service,
        errorRate: calls > 0 ? errors / calls : 0,
        calls,
        baselineErrorRate: baseCalls > 0 ? baseErrors / baseCalls : null,
        baselineCalls: baseCalls,
      });
    }
    return out.sort((a, b) => (a.service < b.service ? -1 : a.service > b.service ? 1 : 0));
  }

  /** the samples kept for the edge to `service` (0 for an edge not kept): the state bound's measure */
  samplesKept(service: string): number {
    const edge = this.edges.get(service);
    return edge === undefined ? 0 : count(edge.s);
  }

  private dropStalest(): void {
    let stalest: string | null = null;
    let t = Number.POSITIVE_INFINITY;
    for (const [service, { s }] of this.edges) {
      const seen = s.length === 0 ? Number.NEGATIVE_INFINITY : at(s, count(s) - 1, T);
      if (seen < t) {
        t = seen;
        stalest = service;
      }
    }
    if (stalest !== null) this.edges.delete(stalest);
  }
}

const count = (s: readonly number[]): number => s.length / SAMPLE;
/** field `field` (T, CALLS, ERRORS) of sample i */
const at = (s: readonly number[], i: number, field: number): number => s[i * SAMPLE + field] as number;

/** the sample of the edge's last new call: the first of the samples since with the same call count */
function lastCallIndex(s: readonly number[]): number {
  let end = count(s) - 1;
  while (end > 0 && at(s, end, CALLS) === at(s, end - 1, CALLS)) end -= 1;
  return end;
}

/** the newest sample at least RECENT_MS older than sample `end` (else the first): it splits recent from baseline */
function splitIndex(s: readonly number[], end: number): number {
  const lastT = at(s, end, T);
  for (let i = end; i > 0; i--) if (lastT - at(s, i, T) >= RECENT_MS) return i;
  return 0;
}

/**
 * Drops what read() can no longer tell apart: samples older than the history span (keeping the
 * last call's), the middle of three samples with the same counts, and, older than the split,
 * every sample within a minute of the one kept before it.
 */
function dropUnread(edge: EdgeSamples, nowMs: number): void {
  const s = edge.s;
  const n = count(s);
  if (n >= 3 && sameCounts(s, n - 1, n - 2) && sameCounts(s, n - 2, n - 3)) s.splice((n - 2) * SAMPLE, SAMPLE);
  // the sample of the last call stays however old: an edge quiet for over an hour stays quiet
  const lastCall = lastCallIndex(s);
  let drop = 0;
  while (drop < lastCall && nowMs - at(s, drop, T) > HISTORY_MS) drop += 1;
  if (drop > 0) {
    s.splice(0, drop * SAMPLE);
    edge.thinned = Math.max(0, edge.thinned - drop);
  }
  const split = splitIndex(s, lastCallIndex(s));
  let kept = Math.max(1, edge.thinned);
  for (let i = kept; i < split; i++) {
    if (at(s, i, T) - at(s, kept - 1, T) >= BASELINE_SAMPLE_EVERY_MS) {
      if (i !== kept) s.copyWithin(kept * SAMPLE, i * SAMPLE, (i + 1) * SAMPLE);
      kept += 1;
    }
  }
  if (split > kept) s.splice(kept * SAMPLE, (split - kept) * SAMPLE);
  edge.thinned = Math.max(edge.thinned, Math.min(kept, count(s)));
}

function sameCounts(s: readonly number[], i: number, j: number): boolean {
  return at(s, i, CALLS) === at(s, j, CALLS) && at(s, i, ERRORS) === at(s, j, ERRORS);
}
