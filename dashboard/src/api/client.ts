/**
 * The page's REST client: every call goes to the same origin under /api/v2 with the bearer key.
 * Error answers ({error, code, field?, upgrade?}, api.md §1.3) become ApiError.
 */
import type {
  Action,
  Anomaly,
  ContextEvent,
  EmergencyStop,
  ExplainFormula,
  ExplainNarrative,
  ExplainTrace,
  Health,
  HistoryAnswer,
  NewContextEvent,
  NewSuppression,
  RuptureListItem,
  Snapshot,
  Suppression,
  WeightOverride,
  WorkloadRef,
} from './types.js';
import { refPath } from '../model/routes.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
    readonly upgrade: string | undefined,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type HistorySpan = '1h' | '6h' | '2d' | '30d' | '1y';

export class ApiClient {
  constructor(
    private readonly key: string,
    private readonly base = '/api/v2',
    private readonly fetchImpl: typeof fetch = (input, init) => fetch(input, init),
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.key}`, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await this.fetchImpl(`${this.base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
    const text = await response.text();
    let parsed: unknown = undefined;
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    if (!response.ok) {
      const e = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { error?: unknown; code?: unknown; upgrade?: unknown };
      const message = typeof e.error === 'string' ? e.error : `${method} ${path} answered ${response.status}`;
      throw new ApiError(response.status, message, typeof e.code === 'string' ? e.code : undefined, typeof e.upgrade === 'string' ? e.upgrade : undefined);
    }
    return parsed as T;
  }

  health(): Promise<Health> {
    return this.call('GET', '/health');
  }

  async ruptures(): Promise<RuptureListItem[]> {
    return (await this.call<{ ruptures: RuptureListItem[] }>('GET', '/ruptures')).ruptures;
  }

  rupture(ref: WorkloadRef): Promise<Snapshot> {
    return this.call('GET', `/rupture/${refPath(ref)}`);
  }

  history(ref: WorkloadRef, span: HistorySpan): Promise<HistoryAnswer> {
    return this.call('GET', `/history/${refPath(ref)}?span=${span}`);
  }

  async anomalies(ref: WorkloadRef, sinceIso: string): Promise<Anomaly[]> {
    return (await this.call<{ anomalies: Anomaly[] }>('GET', `/anomalies/${refPath(ref)}?since=${encodeURIComponent(sinceIso)}&limit=200`)).anomalies;
  }

  async actions(): Promise<Action[]> {
    return (await this.call<{ actions: Action[] }>('GET', '/actions')).actions;
  }

  approve(id: string): Promise<{ status: string; id: string; action?: Action }> {
    return this.call('POST', `/actions/${encodeURIComponent(id)}/approve`, {});
  }

  reject(id: string): Promise<{ status: string; id: string }> {
    return this.call('POST', `/actions/${encodeURIComponent(id)}/reject`, {});
  }

  rollback(id: string): Promise<{ status: string; id: string; action?: Action }> {
    return this.call('POST', `/actions/${encodeURIComponent(id)}/rollback`, {});
  }

  emergencyStatus(): Promise<EmergencyStop> {
    return this.call('GET', '/actions/emergency-stop');
  }

  emergencyStop(): Promise<EmergencyStop> {
    return this.call('POST', '/actions/emergency-stop', {});
  }

  releaseEmergencyStop(): Promise<EmergencyStop> {
    return this.call('DELETE', '/actions/emergency-stop');
  }

  async suppressions(): Promise<Suppression[]> {
    return (await this.call<{ suppressions: Suppression[] }>('GET', '/suppressions')).suppressions;
  }

  createSuppression(s: NewSuppression): Promise<Suppression> {
    return this.call('POST', '/suppressions', s);
  }

  async deleteSuppression(id: string): Promise<void> {
    await this.call('DELETE', `/suppressions/${encodeURIComponent(id)}`);
  }

  async contextEvents(workload?: string): Promise<ContextEvent[]> {
    const q = workload === undefined ? '' : `?workload=${encodeURIComponent(workload)}`;
    return (await this.call<{ events: ContextEvent[] }>('GET', `/context${q}`)).events;
  }

  createContextEvent(e: NewContextEvent): Promise<ContextEvent> {
    return this.call('POST', '/context', e);
  }

  async deleteContextEvent(id: string): Promise<void> {
    await this.call('DELETE', `/context/${encodeURIComponent(id)}`);
  }

  weights(): Promise<WeightOverride[]> {
    return this.call('GET', '/config/weights');
  }

  setWeights(list: WeightOverride[]): Promise<{ applied: number }> {
    return this.call('POST', '/config/weights', list);
  }

  explain(ruptureId: string): Promise<ExplainTrace> {
    return this.call('GET', `/explain/${encodeURIComponent(ruptureId)}`);
  }

  formula(ruptureId: string): Promise<ExplainFormula> {
    return this.call('GET', `/explain/${encodeURIComponent(ruptureId)}/formula`);
  }

  narrative(ruptureId: string): Promise<ExplainNarrative> {
    return this.call('GET', `/explain/${encodeURIComponent(ruptureId)}/narrative`);
  }
}
