/**
 * What one analysis step of a workload gets from the core (StepEnv) and what it hands back
 * (StepSink, WorkloadStepResult): the types every stage of the tick (stages/*) shares.
 */
import type { AnomalyEvent, BandEvent, ContextEventInput, ExplainRecord, Fingerprint, SuppressionInput, WorkloadSnapshot } from '../contract.js';
import type { AnalysisConfig } from '../config.js';
import type { HealthWeights } from '../weights/health-weights.js';
import type { FailureEdges } from '../explain/failure-eta.js';
import type { ServiceGraph } from '../traces/service-graph.js';
import type { SloConfig } from '../business/business-signals.js';
import type { LogBurstEvent } from '../logs/log-burst.js';

export interface StepEnv {
  config: AnalysisConfig;
  calibrationSteps: number;
  weights: Readonly<HealthWeights>;
  /** the workload's failure edges: its failure objectives where set, else the fixed edges */
  edges: FailureEdges;
  newHexId: () => string;
  graph: ServiceGraph;
  contextEvents: readonly ContextEventInput[];
  suppressions: readonly SuppressionInput[];
  slo: SloConfig | undefined;
  maxSeries: number;
}

export interface WorkloadStepResult {
  snapshot: WorkloadSnapshot;
  anomalies: AnomalyEvent[];
  bandEvent: BandEvent | null;
  explain: ExplainRecord | null;
  fingerprint: Fingerprint | null;
  logBursts: LogBurstEvent[];
}

/** what WorkloadAnalyzer.run appends to (the core shares one over the workloads of a step) */
export interface StepSink {
  anomalies: AnomalyEvent[];
  logBursts: LogBurstEvent[];
  bandEvents: BandEvent[];
  fingerprints: Fingerprint[];
  /** the explain record of the last run, null without one */
  explain: ExplainRecord | null;
}
