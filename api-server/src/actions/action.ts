/**
 * The action record of the action engine (interface "Action", api.md §6.5) and its states.
 */
import type { ActionType } from '../analysis/contract.js';

export type ActionState = 'pending' | 'approved' | 'executed' | 'failed' | 'rolled_back' | 'rejected';

/** States that end an action's life; a terminal action is kept for listing but never changes again, except executed → rolled_back. */
export const TERMINAL_STATES: ReadonlySet<ActionState> = new Set(['executed', 'failed', 'rolled_back', 'rejected']);

export type ActionParams = Record<string, string | number>;

export interface Action {
  id: string;
  workload: string;
  type: ActionType;
  params: ActionParams;
  tier: 1 | 2;
  state: ActionState;
  ruptureId: string;
  createdAtMs: number;
  updatedAtMs: number;
  executedAtMs: number | null;
  description: string;
  confidence: number;
  fusedR: number;
  /** the signal that triggered it (top factor), used by signal-scoped suppressions */
  triggerSignal: string;
  /** replica count read before a scale executed; what a rollback restores */
  previousReplicas: number | null;
  /** why the last transition happened (gate name, executor error, eviction) */
  reason: string | null;
  /** who executes: the in-process executor, or an external one (the operator) reporting back */
  executor: 'internal' | 'external';
  /** who approved: the engine's Tier-1 automation or a person through the API (operator.md §7.4) */
  approvedBy: 'engine' | 'api' | null;
  approvedAtMs: number | null;
  /** the Tier-1 gate that keeps this action pending, if any */
  blockedBy: string | null;
  /** a rollback was asked for and the external executor has not reported it yet */
  rollbackRequested: boolean;
  /** what the executor reported; a report repeated with the same numbers is idempotent */
  execution: ExecutionRecord | null;
}

export interface ExecutionRecord {
  previousReplicas: number | null;
  replicas: number | null;
  executedAtMs: number;
  dryRun: boolean;
  executor: string;
}

export function isLive(action: Action): boolean {
  return action.state === 'pending' || action.state === 'approved';
}
