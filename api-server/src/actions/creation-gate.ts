/**
 * Whether a step may create an action (docs/adr/0011-alert-decision-layer.md): only a sustained,
 * confirmed critical state on fresh telemetry. The announced band (decision layer) must have been
 * critical or worse for `sustainMs`, FusedR itself must still be at least the critical edge at this
 * step (the rupture is current, not only held open by the level hold), and the metric source must be
 * present (metricR is null when the last metric bucket is more than 5 minutes old: stale telemetry).
 * Which action is created is the rule table's choice, not this gate's.
 */
import type { WorkloadSnapshot } from '../analysis/contract.js';
import { CRITICAL_EDGE } from '../analysis/bands.js';

export const ACTION_SUSTAIN_MS = 2 * 60_000;

export function mayCreateAction(snapshot: WorkloadSnapshot, sustainMs = ACTION_SUSTAIN_MS): boolean {
  if (snapshot.status !== 'active' || snapshot.ruptureId === null) return false;
  if (snapshot.state !== 'critical' && snapshot.state !== 'emergency') return false;
  if ((snapshot.criticalForMs ?? 0) < sustainMs) return false;
  if (snapshot.sources.metricR === null) return false;
  return snapshot.fusedR >= CRITICAL_EDGE;
}
