/**
 * Cluster-wide reads: a workload this replica analyses is read from its own analysis (freshest);
 * any other from the read view materialised from the state topic. Anomalies come from the
 * owner's latest list (at most VIEW_ANOMALIES per workload), de-duplicated by workload, metric,
 * method and time (a replay after a failover raises the same anomaly again under a new id).
 * KPI history and explain records come from this replica's LevelDB, which holds every replica's
 * (the history topic is copied into it); an explain record of a workload this replica analyses
 * comes from its own analysis first (freshest).
 *
 * Reads never go backwards across a failover: a new owner that restored an older checkpoint (or
 * none) and is still replaying answers with the read view's snapshot (what every replica has
 * served) until its own analysis is at least as far (newerSnapshot).
 */
import type { AnalysisCore, AnomalyEvent, ExplainRecord, WorkloadSnapshot } from '../analysis/contract.js';
import type { WorkloadReads } from '../reads/workload-reads.js';
import type { HistoryTier } from '../model/retention.js';
import type { AnalysisStore, KpiPoint } from '../storage/analysis-store.js';
import type { PartitionOwner } from './partition-owner.js';
import type { ReadView } from './read-view.js';

export class ClusterReads implements WorkloadReads {
  constructor(
    private readonly core: AnalysisCore,
    private readonly owner: PartitionOwner,
    private readonly view: ReadView,
    private readonly store: AnalysisStore,
  ) {}

  async explain(ruptureId: string): Promise<ExplainRecord | undefined> {
    const local = this.core.explain(ruptureId);
    if (local !== undefined && this.owner.drives(local.workload)) return local;
    return (await this.store.rupture(ruptureId)) ?? local;
  }

  history(tier: HistoryTier, key: string, fromMs: number, toMs: number): Promise<KpiPoint[]> {
    return this.store.history(tier, key, fromMs, toMs);
  }

  snapshot(key: string): WorkloadSnapshot | undefined {
    const seen = this.view.snapshot(key);
    if (!this.owner.owns(key)) return seen;
    return newerSnapshot(this.core.snapshot(key), seen);
  }

  workloadKeys(): string[] {
    const keys = new Set(this.view.workloadKeys());
    for (const k of this.core.workloadKeys()) if (this.owner.owns(k)) keys.add(k);
    return [...keys];
  }

  anomalies(sinceMs: number, limit: number, filter?: (a: AnomalyEvent) => boolean): Promise<AnomalyEvent[]> {
    const seen = new Set<string>();
    const out: AnomalyEvent[] = [];
    for (const key of this.workloadKeys()) {
      const list = this.owner.owns(key) ? this.owner.anomalies(key) : this.view.anomalies(key);
      for (const a of list) {
        if (a.timeMs < sinceMs || (filter !== undefined && !filter(a))) continue;
        const id = `${a.workload}\u0000${a.metric}\u0000${a.method}\u0000${a.timeMs}`;
        if (seen.has(id)) continue;
        seen.add(id);
        out.push(a);
      }
    }
    out.sort((a, b) => b.timeMs - a.timeMs || (a.id < b.id ? -1 : 1));
    return Promise.resolve(out.slice(0, limit));
  }
}

/**
 * The snapshot further along: the later processed bucket (timeMs), then the longer calibration;
 * the owner's own on a tie (it is the fresher of the two for the same bucket).
 */
export function newerSnapshot(own: WorkloadSnapshot | undefined, seen: WorkloadSnapshot | undefined): WorkloadSnapshot | undefined {
  if (own === undefined) return seen;
  if (seen === undefined) return own;
  if (seen.timeMs !== own.timeMs) return seen.timeMs > own.timeMs ? seen : own;
  return seen.calibrationProgress > own.calibrationProgress ? seen : own;
}
