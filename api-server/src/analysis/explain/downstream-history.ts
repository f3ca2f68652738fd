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
 * State bound: ≤ MAX_EDGES edges (the least recently seen goes), ≤ one sample per 15 s of sample
 * time per edge, none older than the history span.
 */
import type { ServiceEdge } from '../traces/service-graph.js';
import type { DependencyEdge } from './diagnosis.js';

export const RECENT_MS = 5 * 60_000;
export const HISTORY_MS = 60 * 60_000;
/** an edge without a new call for this long is not read (the trace graph forgets it after 10 min) */
export const QUIET_MS = 10 * 60_000;
const SAMPLE_EVERY_MS = 15_000;
const MAX_EDGES = 32;

interface Sample {
  t: number;
  calls: number;
  errors: number;
}

export class DownstreamHistory {
  private readonly edges = new Map<string, Sample[]>();
  /** the graph's last counts of each edge (a drop means it re-created the edge) */
  private readonly raw = new Map<string, { calls: number; errors: number }>();

  /** records the edges' cumulated counts at `nowMs` (non-finite times and counts are ignored) */
  observe(edges: readonly Pick<ServiceEdge, 'to' | 'calls' | 'errors'>[], nowMs: number): void {
    if (!Number.isFinite(nowMs)) return;
    for (const e of edges) {
      if (!Number.isFinite(e.calls) || !Number.isFinite(e.errors) || e.calls < 0 || e.errors < 0) continue;
      let list = this.edges.get(e.to);
      const last = list?.[list.length - 1];
      if (list === undefined || (last !== undefined && nowMs < last.t)) {
        if (list === undefined && this.edges.size >= MAX_EDGES) this.dropStalest();
        list = [];
        this.edges.set(e.to, list);
        this.raw.delete(e.to);
      }
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
      let drop = 0;
      while (drop < list.length - 1 && nowMs - list[drop]!.t > HISTORY_MS) drop += 1;
      if (drop > 0) list.splice(0, drop);
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
    for (const [service, list] of this.edges) {
      if (list.length === 0 || nowMs - list[list.length - 1]!.t > RECENT_MS) continue;
      // the recent 5 min end at the edge's last call: an edge that went quiet (its callee stopped
      // answering, or its spans stopped coming) keeps the share of its last calls, up to QUIET_MS
      let end = list.length - 1;
      while (end > 0 && list[end]!.calls === list[end - 1]!.calls) end -= 1;
      const last = list[end]!;
      if (nowMs - last.t > QUIET_MS) continue;
      const first = list[0]!;
      // the newest sample at least 5 min older than the last call splits recent from baseline
      let split = first;
      for (let i = 0; i <= end; i++) if (last.t - list[i]!.t >= RECENT_MS) split = list[i]!;
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

  private dropStalest(): void {
    let stalest: string | null = null;
    let t = Number.POSITIVE_INFINITY;
    for (const [service, list] of this.edges) {
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
