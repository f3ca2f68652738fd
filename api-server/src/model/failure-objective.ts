/**
 * Per-workload failure objectives (docs/diagnosis.md "Failure objectives"): the level of an input
 * at which the team calls the workload's state an outage. A list of overrides, the selector rules
 * of the weight overrides (`*`, `<namespace>/*`, `<namespace>/<Kind>/<name>`, first match wins);
 * an input left out keeps the product's fixed failure edge. Shared by the control plane (stored,
 * validated at the edge) and the analysis (the failure ETA aims at it).
 */
export interface FailureObjective {
  selector: string;
  /** error share of the requests, a fraction in (0, 1] */
  error_rate?: number;
  /** latency in milliseconds, > 0 */
  latency_ms?: number;
  /** memory utilisation, a fraction of the limit in (0, 1] */
  memory?: number;
  /** cpu utilisation, a fraction in (0, 1] */
  cpu?: number;
}

/** the fields of an objective besides its selector, in the order they are written */
export const OBJECTIVE_FIELDS = ['error_rate', 'latency_ms', 'memory', 'cpu'] as const;
export type ObjectiveField = (typeof OBJECTIVE_FIELDS)[number];
