/**
 * The failure edges of a workload from the failure objectives (model/failure-objective.ts): the
 * first entry whose selector matches the workload gives its objectives; an input it leaves out,
 * or a workload no entry matches, keeps the fixed edge (explain/failure-eta.ts). A latency
 * objective in ms is normalised as the latency samples are (clamp(ms/600)), so an objective at or
 * above 600 ms is the normalisation's ceiling. Pure.
 */
import type { FailureObjective } from '../../model/failure-objective.js';
import { selectorMatches } from '../../model/workload-selector.js';
import { latencyFromMs } from '../normalise/unit-rules.js';
import { DEFAULT_FAILURE_EDGES, type FailureEdges, type TrendInput } from '../explain/failure-eta.js';

/** the edges of one objective entry (undefined: the fixed edges) */
export function edgesOf(objective: FailureObjective | undefined): FailureEdges {
  if (objective === undefined) return DEFAULT_FAILURE_EDGES;
  const given: Partial<Record<TrendInput, number>> = {};
  if (usable(objective.memory)) given.memory = objective.memory;
  if (usable(objective.cpu)) given.cpu = objective.cpu;
  if (usable(objective.error_rate)) given.error_rate = objective.error_rate;
  if (objective.latency_ms !== undefined && Number.isFinite(objective.latency_ms) && objective.latency_ms > 0) given.latency = latencyFromMs(objective.latency_ms);
  const base = DEFAULT_FAILURE_EDGES;
  return {
    level: {
      memory: given.memory ?? base.level.memory,
      cpu: given.cpu ?? base.level.cpu,
      latency: given.latency ?? base.level.latency,
      error_rate: given.error_rate ?? base.level.error_rate,
    },
    objective: { memory: given.memory !== undefined, cpu: given.cpu !== undefined, latency: given.latency !== undefined, error_rate: given.error_rate !== undefined },
  };
}

/** a fraction in (0, 1] (the control plane validated it; this keeps the analysis safe on its own) */
function usable(x: number | undefined): x is number {
  return x !== undefined && Number.isFinite(x) && x > 0 && x <= 1;
}

/** an objective list ready for lookup: the edges of each entry resolved once */
export class ObjectiveTable {
  private readonly entries: { selector: string; edges: FailureEdges }[];

  constructor(objectives: readonly FailureObjective[] = []) {
    this.entries = objectives.map((o) => ({ selector: o.selector, edges: edgesOf(o) }));
  }

  get size(): number {
    return this.entries.length;
  }

  /** the edges of a workload: the first matching entry's, else the fixed edges */
  edgesFor(key: string): FailureEdges {
    for (const e of this.entries) if (selectorMatches(e.selector, key)) return e.edges;
    return DEFAULT_FAILURE_EDGES;
  }
}
