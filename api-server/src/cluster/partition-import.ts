/**
 * Imports what a new owner read of a state-topic partition (partition-state.ts) into this
 * replica: the workloads' analysis states into the analysis core, their latest anomalies into the
 * view, their actions and control state into the action engine. A workload whose state is
 * unreadable restarts calibration; unreadable action records are skipped (both logged).
 */
import type { Action } from '../actions/action.js';
import type { WorkloadActionControl } from '../actions/action-repository.js';
import type { AnalysisCore } from '../analysis/contract.js';
import { parseAdoptable, type PartitionState } from './partition-state.js';
import type { RecentAnomalies } from './recent-anomalies.js';
import type { StateLedger } from './state-ledger.js';
import { parseViewRecord } from './state-records.js';

export interface ImportTargets {
  core: AnalysisCore;
  ledger: StateLedger;
  anomalies: RecentAnomalies;
  /** whether a workload belongs to the partition being imported */
  belongs: (workload: string) => boolean;
  log: { warn(fields: Record<string, unknown>, message: string): void };
  adoptActions?(belongs: (workload: string) => boolean, actions: Action[], controls: Map<string, WorkloadActionControl>): void;
}

/** Returns the number of workload states imported. */
export function importPartitionState(p: number, state: PartitionState, targets: ImportTargets): number {
  let imported = 0;
  for (const [workload, value] of state.states) {
    if (!targets.belongs(workload)) continue;
    try {
      targets.core.importWorkload(workload, JSON.parse(value) as unknown);
      targets.ledger.restoredWorkload(workload);
      imported += 1;
    } catch (error) {
      targets.log.warn({ workload, err: error }, 'cluster: stored state unreadable; the workload restarts calibration');
    }
  }
  for (const [workload, value] of state.views) {
    const view = parseViewRecord(value);
    if (view !== undefined) targets.anomalies.restore(workload, view.anomalies);
  }
  if (targets.adoptActions !== undefined) {
    const { adopted, controls, unreadable } = parseAdoptable(state.actions, state.controls);
    if (unreadable > 0) targets.log.warn({ partition: p, records: unreadable }, 'cluster: unreadable action records skipped');
    targets.adoptActions(targets.belongs, adopted, controls);
  }
  return imported;
}
