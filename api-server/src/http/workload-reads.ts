/**
 * What the read routes (`/ruptures`, `/rupture/…`, `/kpi/…`, `/anomalies`) read. Standalone: the
 * local analysis and LevelDB. Cluster mode: every workload, whichever replica analyses it
 * (cluster/cluster-reads.ts).
 */
import type { AnalysisCore, AnomalyEvent, WorkloadSnapshot } from '../analysis/contract.js';
import type { AnalysisStore } from '../storage/analysis-store.js';

export interface WorkloadReads {
  snapshot(key: string): WorkloadSnapshot | undefined;
  workloadKeys(): string[];
  /** newest first, at most `limit`, at or after `sinceMs` */
  anomalies(sinceMs: number, limit: number, filter?: (a: AnomalyEvent) => boolean): Promise<AnomalyEvent[]>;
}

export function localReads(core: AnalysisCore, store: AnalysisStore): WorkloadReads {
  return {
    snapshot: (key) => core.snapshot(key),
    workloadKeys: () => core.workloadKeys(),
    anomalies: (sinceMs, limit, filter) => store.anomalies(sinceMs, limit, filter),
  };
}
