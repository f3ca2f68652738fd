/**
 * The latest anomalies per workload (newest last, at most VIEW_ANOMALIES each) that an owning
 * replica publishes with the workload's snapshot in its `v|` view record (state-records.ts).
 */
import type { AnomalyEvent } from '../analysis/contract.js';
import { VIEW_ANOMALIES } from './state-records.js';

export class RecentAnomalies {
  private readonly byWorkload = new Map<string, AnomalyEvent[]>();

  of(workload: string): readonly AnomalyEvent[] {
    return this.byWorkload.get(workload) ?? [];
  }

  add(events: readonly AnomalyEvent[]): void {
    for (const a of events) {
      let list = this.byWorkload.get(a.workload);
      if (list === undefined) {
        list = [];
        this.byWorkload.set(a.workload, list);
      }
      list.push(a);
      if (list.length > VIEW_ANOMALIES) list.splice(0, list.length - VIEW_ANOMALIES);
    }
  }

  /** a restored view's anomalies replace the workload's */
  restore(workload: string, events: readonly AnomalyEvent[]): void {
    this.byWorkload.set(workload, events.slice(-VIEW_ANOMALIES));
  }

  forget(workload: string): void {
    this.byWorkload.delete(workload);
  }
}
