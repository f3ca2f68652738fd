/**
 * What the read routes (`/ruptures`, `/rupture/…`, `/kpi/…`, `/anomalies`, `/history/…`,
 * `/explain/…`) read. Standalone: the local analysis and LevelDB. Cluster mode: every workload,
 * whichever replica analyses it (cluster/cluster-reads.ts).
 */
import type { AnalysisCore, AnomalyEvent, ExplainRecord, WorkloadSnapshot } from '../analysis/contract.js';
import type { HistoryTier } from '../model/retention.js';
import type { AnalysisStore, KpiPoint } from '../storage/analysis-store.js';

export interface WorkloadReads {
  snapshot(key: string): WorkloadSnapshot | undefined;
  workloadKeys(): string[];
  /** newest first, at most `limit`, at or after `sinceMs` */
  anomalies(sinceMs: number, limit: number, filter?: (a: AnomalyEvent) => boolean): Promise<AnomalyEvent[]>;
  /** a rupture's explain record */
  explain(ruptureId: string): Promise<ExplainRecord | undefined>;
  /** stored KPI history of one workload, oldest first */
  history(tier: HistoryTier, key: string, fromMs: number, toMs: number): Promise<KpiPoint[]>;
}

export function localReads(core: AnalysisCore, store: AnalysisStore): WorkloadReads {
  return {
    snapshot: (key) => core.snapshot(key),
    workloadKeys: () => core.workloadKeys(),
    anomalies: (sinceMs, limit, filter) => store.anomalies(sinceMs, limit, filter),
    explain: async (id) => core.explain(id) ?? (await store.rupture(id)),
    history: (tier, key, fromMs, toMs) => store.history(tier, key, fromMs, toMs),
  };
}
