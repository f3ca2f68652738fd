/**
 * How an approved action reaches the world. The standalone service executes through a logging or
 * webhook executor; in a cluster the operator executes (executor `external`) and reports back.
 */
import type { Action } from './action.js';

export interface ExecutionResult {
  ok: boolean;
  /** replica count before a scale, when the executor knows it */
  previousReplicas?: number;
  /** replica count after a scale, when the executor knows it */
  replicas?: number;
  /** why it failed */
  reason?: string;
}

export interface ActionExecutor {
  readonly name: string;
  execute(action: Action): Promise<ExecutionResult>;
  rollback(action: Action): Promise<ExecutionResult>;
}
