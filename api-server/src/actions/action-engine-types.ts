/**
 * The action engine's vocabulary: its settings, the policy it consults, the decisions it takes
 * from people and the executor, and the outcomes it reports (action-engine.ts).
 */
import type { Action } from './action.js';
import type { GateSettings } from './tier1-gates.js';

export interface ActionEngineSettings extends GateSettings {
  /** `internal`: this process executes; `external`: the operator executes and reports back */
  executor: 'internal' | 'external';
  pendingLimit: number;
  terminalLimit: number;
  creationCooldownMs: number;
  /** with the external executor: an approved action without a result fails after this long */
  executorTimeoutMs: number;
  /** how long the announced band must have been critical or worse before an action is created */
  sustainMs?: number;
}

/** A result report of the external executor (POST /actions/{id}/result, operator.md §7.4). */
export interface ExecutionReport {
  outcome: 'executed' | 'failed' | 'rolled_back' | 'rollback_failed';
  previousReplicas?: number;
  replicas?: number;
  reason?: string;
  message?: string;
  dryRun?: boolean;
  executor: string;
}

/** What the engine needs to know about suppressions and context at a moment. */
export interface DispatchPolicy {
  /** whole-workload suppression, or a signal-scoped one listing `signal` */
  isSuppressed(workload: string, signal: string | null, nowMs: number): boolean;
  /** inside a context event's quiet period (analytics.md §8.7) */
  isQuiet(workload: string, nowMs: number): boolean;
}

export type ActionOutcome =
  | 'created'
  | 'approved'
  | 'executed'
  | 'failed'
  | 'rejected'
  | 'rolled_back'
  | 'evicted'
  | 'blocked'
  | 'shadow';

/**
 * People's and the executor's decisions on an action. The engine takes them itself; in cluster
 * mode they are handed to the replica that owns the action's workload (cluster/action-commands.ts).
 */
export interface ActionDecisions {
  approve(id: string, nowMs: number): Promise<Action>;
  reject(id: string, nowMs: number): Promise<Action>;
  rollback(id: string, nowMs: number): Promise<Action>;
  reportResult(id: string, report: ExecutionReport, nowMs: number): Promise<Action>;
}

export interface ActionEngineHooks {
  outcome(action: Action, outcome: ActionOutcome, detail?: string): void;
}
