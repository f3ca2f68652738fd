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
 * 15 s an edge keeps ≤ 80 samples instead of 240, and its baseline starts within a minute of the
 * hour before the latest sample instead of within 15 s.
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

interface Sample {
  t: number;
  calls: number;
  errors: number;
}

interface EdgeSamples {
  readonly list: Sample[];
  /** list[0, thinned) are one per BASELINE_SAMPLE_EVERY_MS already */
  thinned: number;
}

export class DownstreamHistory {
  private readonly edges = new Map<string, EdgeSamples>();
  /** the graph's last counts of each edge (a drop means it re-created the edge) */
  private readonly raw = new Map<string, { calls: number; errors: number }>();

  /** records the edges' cumulated counts at `nowMs` (non-finite times and counts are ignored) */
  observe(edges: readonly Pick<ServiceEdge, 'to' | 'calls' | 'errors'>[], nowMs: number): void {
    if (!Number.isFinite(nowMs)) return;
    for (const e of edges) {
      if (!Number.isFinite(e.calls) || !Number.isFinite(e.errors) || e.calls < 0 || e.errors < 0) continue;
      let edge = this.edges.get(e.to);
      const newest = edge?.list[edge.list.length - 1];
      if (edge === undefined || (newest !== undefined && nowMs < newest.t)) {
        if (edge === undefined && this.edges.size >= MAX_EDGES) this.dropStalest();
        edge = { list: [], thinned: 0 };
        this.edges.set(e.to, edge);
        this.raw.delete(e.to);
      }
      const list = edge.list;
      // the counts since the last sample: all of them when the graph re-created the edge (its counts went down)
      const before = this.raw.get(e.to);
      const reset = before === undefined || e.calls < before.calls || e.errors < before.errors;
      const prev = list[list.length - 1];
      const calls = (prev?.calls ?? 0) + (reset ? (prev === undefined ? 0 : e.calls) : e.calls - before.calls);
      const errors = (prev?.errors ?? 0) + (reset ? (prev === undefined ? 0 : e.errors) : e.errors - before.errors);
      this.raw.set(e.to, { calls: e.calls, errors: e.errors });
      const sample = { t: nowMs, calls, errors };
      // within one sampling interval of the sample before it, the newest counts replace the last sample
      if (list.length >= 2 && nowMs - list[list.length - 2]!.t < SAMPLE_EVERY_MS) list[list.length - 1] = sample;
      else list.push(sample);
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
    for (const [service, { list }] of this.edges) {
      if (list.length === 0 || nowMs - list[list.length - 1]!.t > RECENT_MS) continue;
      // the recent 5 min end at the edge's last call: an edge that went quiet (its callee stopped
      // answering, or its spans stopped coming) keeps the share of its last calls, up to QUIET_MS
      const end = lastCallIndex(list);
      const last = list[end]!;
      if (nowMs - last.t > QUIET_MS) continue;
      const first = list[0]!;
      const split = list[splitIndex(list, end)]!;
      const calls = last.calls - split.calls;
      const errors = last.errors - split.errors;
      const baseCalls = split.calls - first.calls;
      const baseErrors = split.errors - first.errors;
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
    return this.edges.get(service)?.list.length ?? 0;
  }

  private dropStalest(): void {
    let stalest: string | null = null;
    let t = Number.POSITIVE_INFINITY;
    for (const [service, { list }] of this.edges) {
      const seen = list[list.length - 1]?.t ?? Number.NEGATIVE_INFINITY;
      if (seen < t) {
        t = seen;
        stalest = service;
      }
    }
    if (stalest !== null) {
      this.edges.delete(stalest);
      this.raw.delete(stalest);
    }
  }
}

/** the sample of the edge's last new call: the first of the samples since with the same call count */
function lastCallIndex(list: readonly Sample[]): number {
  let end = list.length - 1;
  while (end > 0 && list[end]!.calls === list[end - 1]!.calls) end -= 1;
  return end;
}

/** the newest sample at least RECENT_MS older than list[end] (else the first): it splits recent from baseline */
function splitIndex(list: readonly Sample[], end: number): number {
  const lastT = list[end]!.t;
  let split = 0;
  for (let i = end; i > 0; i--) {
    if (lastT - list[i]!.t >= RECENT_MS) {
      split = i;
      break;
    }
  }
  return split;
}

/**
 * Drops what read() can no longer tell apart: samples older than the history span (keeping the
 * last call's), the middle of three samples with the same counts, and, older than the split,
 * every sample within a minute of the one kept before it.
 */
function dropUnread(edge: EdgeSamples, nowMs: number): void {
  const list = edge.list;
  const n = list.length;
  if (n >= 3 && sameCounts(list[n - 1]!, list[n - 2]!) && sameCounts(list[n - 2]!, list[n - 3]!)) list.splice(n - 2, 1);
  // the sample of the last call stays however old: an edge quiet for over an hour stays quiet
  const lastCall = lastCallIndex(list);
  let drop = 0;
  while (drop < lastCall && nowMs - list[drop]!.t > HISTORY_MS) drop += 1;
  if (drop > 0) {
    list.splice(0, drop);
    edge.thinned = Math.max(0, edge.thinned - drop);
  }
  const split = splitIndex(list, lastCallIndex(list));
  let kept = Math.max(1, edge.thinned);
  for (let i = kept; i < split; i++) {
    if (list[i]!.t - list[kept - 1]!.t >= BASELINE_SAMPLE_EVERY_MS) list[kept++] = list[i]!;
  }
  if (split > kept) list.splice(kept, split - kept);
  edge.thinned = Math.max(edge.thinned, Math.min(kept, list.length));
}

function sameCounts(a: Sample, b: Sample): boolean {
  return a.calls === b.calls && a.errors === b.errors;
}
