/**
 * The operator's only way to the analysis sidecar: its REST API under /api/v2 on loopback, with
 * the shared bearer key (operator.md §7). Responses are validated with zod; refusals surface as
 * SidecarError with the HTTP status and the engine's message, so reconcilers can classify them
 * (operator.md §10.2).
 */
import { z } from 'zod';

export class SidecarError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'SidecarError';
  }

  /** connection refused, time-out or 503 during start-up: back off and retry */
  get unavailable(): boolean {
    return this.status === 0 || this.status === 503;
  }
}

const healthSchema = z.object({
  status: z.string(),
  edition: z.enum(['community', 'autopilot']),
  uptime_seconds: z.number(),
  version: z.string(),
  emergency_stop: z.boolean().optional(),
});
export type SidecarHealth = z.infer<typeof healthSchema>;

const suppressionSchema = z.object({
  id: z.string(),
  workload: z.string(),
  start: z.string(),
  end: z.string(),
  reason: z.string().nullable().optional(),
  signals: z.array(z.string()).nullable().optional(),
  owner: z.string().nullable().optional(),
  active: z.boolean().optional(),
});
export type SidecarSuppression = z.infer<typeof suppressionSchema>;

const weightSchema = z.object({
  selector: z.string(),
  stress: z.number(),
  fatigue: z.number(),
  mood: z.number(),
  pressure: z.number(),
  humidity: z.number(),
  contagion: z.number(),
});
export type SidecarWeight = z.infer<typeof weightSchema>;

const actionSchema = z.object({
  id: z.string(),
  workload: z.string(),
  type: z.enum(['scale', 'restart', 'cordon', 'alert']),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  tier: z.union([z.literal(1), z.literal(2)]),
  state: z.enum(['pending', 'approved', 'executed', 'failed', 'rolled_back']),
  rupture_id: z.string(),
  created_at: z.string(),
  description: z.string(),
  confidence: z.number(),
  fused_rupture_index: z.number(),
  approved_by: z.enum(['engine', 'api']).nullable(),
  blocked_by: z.string().nullable(),
  rollback_requested: z.boolean(),
  reason: z.string().nullable().optional(),
  execution: z
    .object({ previous_replicas: z.number().nullable(), replicas: z.number().nullable(), executed_at: z.string() })
    .nullable(),
});
export type SidecarAction = z.infer<typeof actionSchema>;

export interface SuppressionRequest {
  workload: string;
  start: string;
  end: string;
  reason?: string;
  signals?: string[];
  owner: string;
}

export interface ResultReport {
  outcome: 'executed' | 'failed' | 'rolled_back' | 'rollback_failed';
  previous_replicas?: number;
  replicas?: number;
  reason?: string;
  message?: string;
  dry_run?: boolean;
  executor: string;
}

export class SidecarClient {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string | undefined,
    private readonly timeoutMs = 10_000,
  ) {}

  async health(): Promise<SidecarHealth> {
    return healthSchema.parse(await this.call('GET', '/health'));
  }

  async listSuppressions(): Promise<SidecarSuppression[]> {
    return z.object({ suppressions: z.array(suppressionSchema) }).parse(await this.call('GET', '/suppressions?limit=1000')).suppressions;
  }

  async createSuppression(body: SuppressionRequest): Promise<SidecarSuppression> {
    return suppressionSchema.parse(await this.call('POST', '/suppressions', body));
  }

  /** 404 counts as done. */
  async deleteSuppression(id: string): Promise<void> {
    try {
      await this.call('DELETE', `/suppressions/${encodeURIComponent(id)}`);
    } catch (error) {
      if (error instanceof SidecarError && error.status === 404) return;
      throw error;
    }
  }

  async getWeights(): Promise<SidecarWeight[]> {
    return z.array(weightSchema).parse(await this.call('GET', '/config/weights'));
  }

  async postWeights(list: Record<string, string | number>[]): Promise<void> {
    await this.call('POST', '/config/weights', list);
  }

  async listActions(): Promise<SidecarAction[]> {
    return z.object({ actions: z.array(actionSchema) }).parse(await this.call('GET', '/actions?limit=1000')).actions;
  }

  /** undefined when the engine does not know the id */
  async getAction(id: string): Promise<SidecarAction | undefined> {
    try {
      return actionSchema.parse(await this.call('GET', `/actions/${encodeURIComponent(id)}`));
    } catch (error) {
      if (error instanceof SidecarError && error.status === 404) return undefined;
      throw error;
    }
  }

  async command(id: string, verb: 'approve' | 'reject' | 'rollback'): Promise<void> {
    await this.call('POST', `/actions/${encodeURIComponent(id)}/${verb}`, {});
  }

  async reportResult(id: string, report: ResultReport): Promise<SidecarAction> {
    return actionSchema.parse(await this.call('POST', `/actions/${encodeURIComponent(id)}/result`, report));
  }

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.apiKey !== undefined && this.apiKey !== '') headers['authorization'] = `Bearer ${this.apiKey}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new SidecarError(0, `sidecar unreachable at ${this.baseUrl}: ${(error as Error).message}`, 'unreachable');
    }
    const text = await response.text();
    const parsed = text === '' ? undefined : (JSON.parse(text) as unknown);
    if (!response.ok) {
      const err = z.object({ error: z.string(), code: z.string().optional() }).safeParse(parsed);
      throw new SidecarError(response.status, err.success ? err.data.error : `sidecar answered ${response.status}`, err.success ? err.data.code : undefined);
    }
    return parsed;
  }
}
