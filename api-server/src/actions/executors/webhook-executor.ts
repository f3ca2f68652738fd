import { z } from 'zod';
import type { Action } from '../action.js';
import type { ActionExecutor, ExecutionResult } from '../executor.js';

/** What a receiver may answer (all optional): the replica counts it saw and set. */
const receiverReply = z
  .object({
    previous_replicas: z.number().int().nonnegative().optional(),
    replicas: z.number().int().nonnegative().optional(),
  })
  .passthrough();

export interface WebhookExecutorOptions {
  url: string;
  /** request time-out per call */
  timeoutMs: number;
  /** extra headers, e.g. an Authorization for the receiver */
  headers?: Record<string, string>;
}

/**
 * Executes by POSTing the action as JSON to a URL; a 2xx is success. The body is
 * `{operation: "execute" | "rollback", action: {...}}`; the receiver may answer
 * `{previous_replicas, replicas}` so a later rollback can restore the count.
 */
export class WebhookExecutor implements ActionExecutor {
  readonly name = 'webhook';
  constructor(private readonly options: WebhookExecutorOptions) {}

  execute(action: Action): Promise<ExecutionResult> {
    return this.post('execute', action);
  }

  rollback(action: Action): Promise<ExecutionResult> {
    return this.post('rollback', action);
  }

  private async post(operation: 'execute' | 'rollback', action: Action): Promise<ExecutionResult> {
    const body = JSON.stringify({
      operation,
      action: {
        id: action.id,
        workload: action.workload,
        type: action.type,
        params: action.params,
        tier: action.tier,
        rupture_id: action.ruptureId,
        description: action.description,
        previous_replicas: action.previousReplicas,
      },
    });
    let response: Response;
    try {
      response = await fetch(this.options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...this.options.headers },
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      return { ok: false, reason: `webhook ${operation} failed: ${(error as Error).message}` };
    }
    const text = await response.text().catch(() => '');
    if (!response.ok) {
      return { ok: false, reason: `webhook ${operation} answered ${response.status}` };
    }
    const parsed = receiverReply.safeParse(safeJson(text));
    const result: ExecutionResult = { ok: true };
    if (parsed.success) {
      if (parsed.data.previous_replicas !== undefined) result.previousReplicas = parsed.data.previous_replicas;
      if (parsed.data.replicas !== undefined) result.replicas = parsed.data.replicas;
    }
    return result;
  }
}

function safeJson(text: string): unknown {
  if (text === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return {};
  }
}
