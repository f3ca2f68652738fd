/**
 * One analysis step that can be run in parts (AnalysisCore.beginStep): the closed buckets taken
 * at its start, run in ascending bucket index (within an index in workload order, the spans of an
 * index's buckets handed to the service graph before any of its runs), `advance(n)` running the
 * next n of them. Run to the end without a break it is exactly AnalysisCore.step; run in parts,
 * the engine can serve ingest between them (a long step no longer blocks the event loop). Pure:
 * how many buckets a part runs is the caller's choice, the analysis has no clock.
 */
import type { ExplainRecord, StepInParts, StepOutput, WorkloadSnapshot } from './contract.js';
import type { OpenBucket } from './buckets/workload-buckets.js';
import type { SpanRecord } from '../model/records.js';
import type { StepSink, WorkloadAnalyzer } from './workload-analyzer.js';

/** What a step run needs of the core that started it. */
export interface StepHost {
  observeSpan(span: SpanRecord): void;
  /** one workload's run of one bucket, with the core's environment for that workload */
  run(w: WorkloadAnalyzer, bucket: OpenBucket, sink: StepSink): WorkloadSnapshot;
  storeExplain(record: ExplainRecord): void;
  /** after the last bucket: prune what is older than the newest step time */
  finish(latestStepMs: number): void;
  /** the run is over; the buckets and owners arrays may be reused */
  release(): void;
}

export class StepRun implements StepInParts {
  /** the next bucket to run */
  private next = 0;
  /** end (exclusive) of the index group the next bucket belongs to; 0 before the first */
  private groupEnd = 0;
  private readonly snapshots: WorkloadSnapshot[] = [];
  /** a workload stepped more than once keeps its first place with its last snapshot */
  private readonly snapshotAt: Map<string, number> | null;
  private readonly sink: StepSink = { anomalies: [], logBursts: [], bandEvents: [], fingerprints: [], explain: null };
  private readonly ruptures = new Map<string, ExplainRecord>();
  private latestStepMs = Number.NEGATIVE_INFINITY;
  private finished: StepOutput | undefined;

  constructor(
    private readonly buckets: OpenBucket[],
    private readonly owners: WorkloadAnalyzer[],
    several: boolean,
    private readonly host: StepHost,
  ) {
    this.snapshotAt = several ? new Map<string, number>() : null;
  }

  /** workload-buckets this step runs in all */
  get size(): number {
    return this.buckets.length;
  }

  /** workload-buckets not run yet */
  get remaining(): number {
    return this.finished === undefined ? this.buckets.length - this.next : 0;
  }

  /** runs up to `count` more buckets; true once every bucket of the step has run */
  advance(count: number): boolean {
    if (this.finished !== undefined) return true;
    const buckets = this.buckets;
    const owners = this.owners;
    const n = buckets.length;
    let left = count;
    while (this.next < n && left > 0) {
      const i = this.next;
      if (i === this.groupEnd) this.openGroup(i);
      const end = this.groupEnd;
      const w = owners[i]!;
      const bucket = buckets[i]!;
      // the objects of the workload two places on are read now, so that they arrive during this run
      if (i + 2 < end) owners[i + 2]!.touchAhead();
      const snapshot = this.host.run(w, bucket, this.sink);
      this.keep(w.key, snapshot);
      const explain = this.sink.explain;
      if (explain !== null) {
        this.ruptures.set(explain.ruptureId, explain);
        this.host.storeExplain(explain);
      }
      if (snapshot.timeMs > this.latestStepMs) this.latestStepMs = snapshot.timeMs;
      w.buckets.recycle(bucket);
      this.next = i + 1;
      left -= 1;
    }
    if (this.next < n) return false;
    this.finish();
    return true;
  }

  /** what the whole step produced; runs what is left first */
  output(): StepOutput {
    this.advance(Number.POSITIVE_INFINITY);
    return this.finished!;
  }

  /** hands the spans of the index group starting at `start` to the graph */
  private openGroup(start: number): void {
    const buckets = this.buckets;
    const n = buckets.length;
    const index = buckets[start]!.index;
    let end = start + 1;
    while (end < n && buckets[end]!.index === index) end++;
    this.groupEnd = end;
    for (let i = start; i < end; i++) {
      const spans = buckets[i]!.spans;
      for (let k = 0; k < spans.length; k++) this.host.observeSpan(spans[k]!);
    }
  }

  private keep(key: string, snapshot: WorkloadSnapshot): void {
    const snapshotAt = this.snapshotAt;
    if (snapshotAt === null) {
      this.snapshots.push(snapshot);
      return;
    }
    const at = snapshotAt.get(key);
    if (at === undefined) {
      snapshotAt.set(key, this.snapshots.length);
      this.snapshots.push(snapshot);
    } else this.snapshots[at] = snapshot;
  }

  private finish(): void {
    if (this.buckets.length > 0) this.host.finish(this.latestStepMs);
    const sink = this.sink;
    this.finished = {
      snapshots: this.snapshots,
      buckets: this.buckets.length,
      anomalies: sink.anomalies,
      bandEvents: sink.bandEvents,
      ruptures: [...this.ruptures.values()],
      fingerprints: sink.fingerprints,
      logBursts: sink.logBursts,
    };
    this.host.release();
  }
}
