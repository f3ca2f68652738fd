/**
 * Service dependency graph of analytics.md §4.2, built from parent/child spans. One instance
 * serves all workloads (edges cross workloads). Pure: time is the span's own sample time and
 * the `nowMs` passed to queries and prune().
 *
 * - spanId → service cache for 5 min (by span end time). A span whose parent is known with a
 *   different service adds the edge parent-service → service: calls += 1, errors += 1 when
 *   statusCode = 2, duration sum += end − start (clamped to [0, 1e9] ms).
 * - A child that arrives before its parent is parked (same 5-min lifetime) and joined when the
 *   parent arrives [D: exporters of different services send in any order].
 * - Queries only see edges seen within the last 10 min of `nowMs`; prune() frees older state.
 *
 * State bound: at most `maxSpans` cached span ids, `maxSpans` parked children and `maxEdges`
 * edges (defaults 100 000 / 100 000 / 10 000); when full, the oldest eighth of the span cache
 * (or parked children) is evicted in one pass (a Map iterated from its start after many single
 * deletes is quadratic in V8). prune() does a full pass at most once per minute of `nowMs`.
 * A cached parent older than 5 min relative to the child is not joined, pruned or not.
 * observeSpan() allocates only for what it stores (cache entry, parked child, new edge).
 */
import { z } from 'zod';
import type { SpanRecord } from '../../model/records.js';

export const SPAN_CACHE_MS = 5 * 60_000;
export const EDGE_TTL_MS = 10 * 60_000;
/** Edges with an error rate above this name their caller a contagion source (§8.6). */
export const CONTAGION_SOURCE_ERROR_RATE = 0.1;
/** Smallest interval between two prune passes (sample time). */
export const PRUNE_INTERVAL_MS = 60_000;

/** Durations are clamped to this (≈ 11.6 days) so sums stay finite. */
export const MAX_SPAN_DURATION_MS = 1e9;

export interface ServiceGraphOptions {
  spanCacheMs?: number;
  edgeTtlMs?: number;
  maxSpans?: number;
  maxEdges?: number;
}

/** One caller → callee edge (a copy; mutating it changes nothing). */
export interface ServiceEdge {
  from: string;
  to: string;
  calls: number;
  errors: number;
  durationSumMs: number;
  lastSeenMs: number;
  /** errors / calls */
  errorRate: number;
  /** durationSumMs / calls */
  meanLatencyMs: number;
}

/** A caller whose edge into the workload carries errors (§8.6, §9.2). */
export interface ContagionSource {
  service: string;
  errorRate: number;
  calls: number;
}

/** p_e = (errors/calls)·clamp(calls/1000) of §3.2; 0 when calls ≤ 0 or inputs are not finite. In [0, 1]. */
export function edgeContagion(calls: number, errors: number): number {
  if (!Number.isFinite(calls) || !Number.isFinite(errors) || calls <= 0 || errors <= 0) return 0;
  const rate = Math.min(1, errors / calls);
  return rate * Math.min(1, calls / 1000);
}

interface EdgeCell {
  calls: number;
  errors: number;
  durationSumMs: number;
  lastSeenMs: number;
}

interface CachedSpan {
  service: string;
  seenMs: number;
}

interface ParkedChild {
  service: string;
  isError: boolean;
  durationMs: number;
  seenMs: number;
}

const edgeStateSchema = z.tuple([z.string(), z.string(), z.number().min(0), z.number().min(0), z.number().min(0), z.number()]);
const graphStateSchema = z.object({
  spans: z.array(z.tuple([z.string(), z.string(), z.number()])),
  parked: z.array(z.tuple([z.string(), z.string(), z.boolean(), z.number().min(0), z.number()])),
  edges: z.array(edgeStateSchema),
});
/**
 * JSON form of a {@link ServiceGraph}: spans [spanId, service, seenMs], parked children
 * [parentSpanId, service, isError, durationMs, seenMs], edges [from, to, calls, errors, durationSumMs, lastSeenMs].
 */
export type ServiceGraphState = z.infer<typeof graphStateSchema>;

export class ServiceGraph {
  private readonly spanCacheMs: number;
  private readonly edgeTtlMs: number;
  private readonly maxSpans: number;
  private readonly maxEdges: number;
  private readonly spans = new Map<string, CachedSpan>();
  private readonly parked = new Map<string, ParkedChild[]>();
  private parkedCount = 0;
  /** from → to → edge */
  private readonly out = new Map<string, Map<string, EdgeCell>>();
  /** to → from → edge (same cells) */
  private readonly into = new Map<string, Map<string, EdgeCell>>();
  private edgeCount = 0;
  private lastPruneMs = -Infinity;
  /** spans refused (non-finite times, empty ids) */
  rejectedSpans = 0;

  constructor(options: ServiceGraphOptions = {}) {
    this.spanCacheMs = options.spanCacheMs ?? SPAN_CACHE_MS;
    this.edgeTtlMs = options.edgeTtlMs ?? EDGE_TTL_MS;
    this.maxSpans = options.maxSpans ?? 100_000;
    this.maxEdges = options.maxEdges ?? 10_000;
  }

  /**
   * Adds one span. Spans with a non-finite start or end, or an empty spanId or service, are
   * refused (counted in rejectedSpans). Returns whether the span was taken.
   */
  observeSpan(span: SpanRecord): boolean {
    if (!Number.isFinite(span.startMs) || !Number.isFinite(span.endMs) || span.spanId === '' || span.service === '') {
      this.rejectedSpans++;
      return false;
    }
    const seenMs = Math.max(span.startMs, span.endMs);
    const durationMs = Math.min(MAX_SPAN_DURATION_MS, Math.max(0, span.endMs - span.startMs));
    const isError = span.statusCode === 2;
    if (this.spans.size >= this.maxSpans && !this.spans.has(span.spanId)) this.evictOldestSpans();
    this.spans.set(span.spanId, { service: span.service, seenMs });
    if (span.parentSpanId !== '') {
      const parent = this.spans.get(span.parentSpanId);
      if (parent !== undefined && Math.abs(seenMs - parent.seenMs) <= this.spanCacheMs) {
        if (parent.service !== span.service) this.addCall(parent.service, span.service, isError, durationMs, seenMs);
      } else {
        this.park(span.parentSpanId, { service: span.service, isError, durationMs, seenMs });
      }
    }
    const children = this.parked.get(span.spanId);
    if (children !== undefined) {
      this.parked.delete(span.spanId);
      this.parkedCount -= children.length;
      for (const c of children) {
        if (c.service !== span.service && Math.abs(c.seenMs - seenMs) <= this.spanCacheMs) this.addCall(span.service, c.service, c.isError, c.durationMs, c.seenMs);
      }
    }
    return true;
  }

  /**
   * Frees cached spans and parked children older than 5 min and edges older than 10 min before
   * `nowMs`. Does the pass only when `nowMs` is at least 60 s past the last pass (queries filter
   * by age themselves, so this only bounds memory).
   */
  prune(nowMs: number): void {
    if (!Number.isFinite(nowMs) || nowMs - this.lastPruneMs < PRUNE_INTERVAL_MS) return;
    this.lastPruneMs = nowMs;
    for (const [id, s] of this.spans) if (nowMs - s.seenMs > this.spanCacheMs) this.spans.delete(id);
    for (const [id, list] of this.parked) {
      const keep = list.filter((c) => nowMs - c.seenMs <= this.spanCacheMs);
      this.parkedCount -= list.length - keep.length;
      if (keep.length === 0) this.parked.delete(id);
      else if (keep.length !== list.length) this.parked.set(id, keep);
    }
    for (const [from, row] of this.out) {
      for (const [to, cell] of row) if (nowMs - cell.lastSeenMs > this.edgeTtlMs) this.deleteEdge(from, to);
    }
  }

  /** Live edges (seen within 10 min of `nowMs`), sorted by from then to. */
  edges(nowMs: number): ServiceEdge[] {
    const outList: ServiceEdge[] = [];
    for (const [from, row] of this.out) for (const [to, cell] of row) if (this.live(cell, nowMs)) outList.push(view(from, to, cell));
    return outList.sort((a, b) => (a.from === b.from ? cmp(a.to, b.to) : cmp(a.from, b.from)));
  }

  /** Live edges into `service` with calls > 0, sorted by caller. */
  edgesInto(service: string, nowMs: number): ServiceEdge[] {
    const row = this.into.get(service);
    if (row === undefined) return [];
    const list: ServiceEdge[] = [];
    for (const [from, cell] of row) if (cell.calls > 0 && this.live(cell, nowMs)) list.push(view(from, service, cell));
    return list.sort((a, b) => cmp(a.from, b.from));
  }

  /** Live edges out of `service` (the services it calls) with calls > 0, sorted by callee. */
  edgesFrom(service: string, nowMs: number): ServiceEdge[] {
    const row = this.out.get(service);
    if (row === undefined) return [];
    const list: ServiceEdge[] = [];
    for (const [to, cell] of row) if (cell.calls > 0 && this.live(cell, nowMs)) list.push(view(service, to, cell));
    return list.sort((a, b) => cmp(a.to, b.to));
  }

  /** Graph part of contagion K (§3.2): max p_e over live edges into `service`; 0 without edges. In [0, 1]. */
  contagionInto(service: string, nowMs: number): number {
    const row = this.into.get(service);
    if (row === undefined) return 0;
    let k = 0;
    for (const cell of row.values()) if (this.live(cell, nowMs)) k = Math.max(k, edgeContagion(cell.calls, cell.errors));
    return k;
  }

  /** Distinct callers of `service` on live edges, sorted (blast radius = their count, §7.2). */
  callersOf(service: string, nowMs: number): string[] {
    return this.edgesInto(service, nowMs).map((e) => e.from);
  }

  /** callersOf(service, nowMs) without '' counted, without building the list: the blast radius (§7.2) */
  callerCount(service: string, nowMs: number): number {
    const row = this.into.get(service);
    if (row === undefined) return 0;
    let n = 0;
    for (const [from, cell] of row) if (from !== '' && cell.calls > 0 && this.live(cell, nowMs)) n++;
    return n;
  }

  /** Callers whose live edge into `service` has an error rate above `minErrorRate` (default 0.1), sorted by caller. */
  contagionSources(service: string, nowMs: number, minErrorRate: number = CONTAGION_SOURCE_ERROR_RATE): ContagionSource[] {
    return this.edgesInto(service, nowMs)
      .filter((e) => e.errorRate > minErrorRate)
      .map((e) => ({ service: e.from, errorRate: e.errorRate, calls: e.calls }));
  }

  /** Sizes, for self-metrics and bound tests. */
  sizes(): { spans: number; parked: number; edges: number } {
    return { spans: this.spans.size, parked: this.parkedCount, edges: this.edgeCount };
  }

  exportState(): ServiceGraphState {
    const spans: ServiceGraphState['spans'] = [];
    for (const [id, s] of this.spans) spans.push([id, s.service, s.seenMs]);
    const parked: ServiceGraphState['parked'] = [];
    for (const [id, list] of this.parked) for (const c of list) parked.push([id, c.service, c.isError, c.durationMs, c.seenMs]);
    const edges: ServiceGraphState['edges'] = [];
    for (const [from, row] of this.out) for (const [to, c] of row) edges.push([from, to, c.calls, c.errors, c.durationSumMs, c.lastSeenMs]);
    return { spans, parked, edges };
  }

  /** Rebuilds a graph from {@link exportState} output; throws a ZodError naming the field when malformed. */
  static fromState(state: unknown, options: ServiceGraphOptions = {}): ServiceGraph {
    const s = graphStateSchema.parse(state);
    const g = new ServiceGraph(options);
    for (const [id, service, seenMs] of s.spans) {
      if (g.spans.size >= g.maxSpans && !g.spans.has(id)) g.evictOldestSpans();
      g.spans.set(id, { service, seenMs });
    }
    for (const [id, service, isError, durationMs, seenMs] of s.parked) g.park(id, { service, isError, durationMs, seenMs });
    for (const [from, to, calls, errors, durationSumMs, lastSeenMs] of s.edges) {
      if (from === to) continue;
      const cell = g.cell(from, to, lastSeenMs);
      cell.calls += calls;
      cell.errors += Math.min(errors, calls);
      cell.durationSumMs += durationSumMs;
      cell.lastSeenMs = Math.max(cell.lastSeenMs, lastSeenMs);
    }
    return g;
  }

  private live(cell: EdgeCell, nowMs: number): boolean {
    return nowMs - cell.lastSeenMs <= this.edgeTtlMs;
  }

  private park(parentSpanId: string, child: ParkedChild): void {
    if (this.parkedCount >= this.maxSpans) this.evictOldestParked();
    if (this.parkedCount >= this.maxSpans) return;
    const list = this.parked.get(parentSpanId);
    if (list === undefined) this.parked.set(parentSpanId, [child]);
    else list.push(child);
    this.parkedCount++;
  }

  private addCall(from: string, to: string, isError: boolean, durationMs: number, seenMs: number): void {
    const cell = this.cell(from, to, seenMs);
    cell.calls += 1;
    if (isError) cell.errors += 1;
    cell.durationSumMs += durationMs;
    if (seenMs > cell.lastSeenMs) cell.lastSeenMs = seenMs;
  }

  private cell(from: string, to: string, seenMs: number): EdgeCell {
    let row = this.out.get(from);
    let cell = row?.get(to);
    if (cell !== undefined) return cell;
    if (this.edgeCount >= this.maxEdges) this.evictOldestEdge();
    cell = { calls: 0, errors: 0, durationSumMs: 0, lastSeenMs: seenMs };
    if (row === undefined) {
      row = new Map();
      this.out.set(from, row);
    }
    row.set(to, cell);
    let back = this.into.get(to);
    if (back === undefined) {
      back = new Map();
      this.into.set(to, back);
    }
    back.set(from, cell);
    this.edgeCount++;
    return cell;
  }

  private deleteEdge(from: string, to: string): void {
    const row = this.out.get(from);
    if (row?.delete(to)) this.edgeCount--;
    if (row !== undefined && row.size === 0) this.out.delete(from);
    const back = this.into.get(to);
    back?.delete(from);
    if (back !== undefined && back.size === 0) this.into.delete(to);
  }

  /** Evicts the oldest eighth (at least one) of the span cache in one iteration. */
  private evictOldestSpans(): void {
    let n = Math.max(1, Math.floor(this.maxSpans / 8));
    for (const id of this.spans.keys()) {
      if (n-- <= 0) break;
      this.spans.delete(id);
    }
  }

  /** Evicts the oldest parked lists until an eighth (at least one child) of the bound is freed. */
  private evictOldestParked(): void {
    const target = Math.max(0, this.maxSpans - Math.max(1, Math.floor(this.maxSpans / 8)));
    for (const [id, list] of this.parked) {
      if (this.parkedCount <= target) break;
      this.parked.delete(id);
      this.parkedCount -= list.length;
    }
  }

  private evictOldestEdge(): void {
    let oldest: { from: string; to: string; t: number } | null = null;
    for (const [from, row] of this.out) {
      for (const [to, cell] of row) if (oldest === null || cell.lastSeenMs < oldest.t) oldest = { from, to, t: cell.lastSeenMs };
    }
    if (oldest !== null) this.deleteEdge(oldest.from, oldest.to);
  }
}

function view(from: string, to: string, c: EdgeCell): ServiceEdge {
  return {
    from,
    to,
    calls: c.calls,
    errors: c.errors,
    durationSumMs: c.durationSumMs,
    lastSeenMs: c.lastSeenMs,
    errorRate: c.calls > 0 ? c.errors / c.calls : 0,
    meanLatencyMs: c.calls > 0 ? c.durationSumMs / c.calls : 0,
  };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
