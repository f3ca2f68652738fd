import type { Action } from '../action.js';
import type { ActionExecutor, ExecutionResult } from '../executor.js';

export interface ActionLogger {
  info(fields: Record<string, unknown>, message: string): void;
}

/** Executes by writing a structured log line: the standalone default, where no cluster is reachable. */
export class LoggingExecutor implements ActionExecutor {
  readonly name = 'log';
  constructor(private readonly logger: ActionLogger) {}

  async execute(action: Action): Promise<ExecutionResult> {
    this.logger.info({ action: action.id, workload: action.workload, type: action.type, params: action.params }, `execute: ${action.description}`);
    return { ok: true };
  }

  async rollback(action: Action): Promise<ExecutionResult> {
    this.logger.info(
      { action: action.id, workload: action.workload, type: action.type, previous_replicas: action.previousReplicas },
      `rollback: ${action.description}`,
    );
    return { ok: true };
  }
}
