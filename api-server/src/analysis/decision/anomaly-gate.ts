/**
 * Anomaly emission rules of the decision layer (docs/adr/0011-alert-decision-layer.md):
 *
 * - a monotonic input (a counter such as uptime, which grows by nature) is not judged as a level:
 *   its detector firings raise no anomaly;
 * - an anomaly is `critical` only when the detectors agree (consensus), outside a quiet period, and
 *   the workload's announced band is warning or worse (the rupture corroborates it); consensus on a
 *   workload in normal is a `warning` anomaly.
 */
import type { Band } from '../bands.js';

/** inputs that only grow between restarts */
export const MONOTONIC_SERIES: ReadonlySet<string> = new Set(['uptime']);

export function judgedAsLevel(series: string): boolean {
  return !MONOTONIC_SERIES.has(series);
}

export function anomalySeverity(consensus: boolean, quiet: boolean, band: Band): 'critical' | 'warning' {
  return consensus && !quiet && band !== 'normal' ? 'critical' : 'warning';
}
