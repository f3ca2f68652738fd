/**
 * The control plane people write to: suppressions, context events, weight overrides and failure
 * objectives. Held in memory for the hot paths (dispatch decisions every tick), written to LevelDB
 * before any change is acknowledged, and pushed to the analysis through `listener` whenever it
 * changes.
 */
import type { ClassicLevel } from 'classic-level';
import type { WeightOverride } from '../analysis/contract.js';
import type { DispatchPolicy } from '../actions/action-engine-types.js';
import type { FailureObjective } from '../model/failure-objective.js';
import { LevelJsonCollection } from '../storage/json-collection.js';
import type { ContextBody, ContextEvent } from './context-events.js';
import { QUIET_AFTER_MS, QUIET_BEFORE_MS, contextEventFromBody } from './context-events.js';
import { CONTEXT_RETENTION_MS } from '../model/retention.js';
import { selectorMatches } from '../model/workload-selector.js';
import type { Suppression, SuppressionBody } from './suppressions.js';
import { suppresses, suppressionFromBody } from './suppressions.js';

export interface ControlPlaneListener {
  suppressionsChanged(list: readonly Suppression[]): void;
  contextChanged(list: readonly ContextEvent[]): void;
  weightsChanged(list: readonly WeightOverride[]): void;
  objectivesChanged(list: readonly FailureObjective[]): void;
}

/** The writes of the control plane: the plane itself standalone, the control topic in cluster mode. */
export interface ControlWrites {
  addSuppression(body: SuppressionBody, nowMs: number): Promise<Suppression>;
  replaceSuppression(id: string, body: SuppressionBody): Promise<Suppression | undefined>;
  removeSuppression(id: string): Promise<boolean>;
  addContext(body: ContextBody, nowMs: number): Promise<ContextEvent>;
  removeContext(id: string): Promise<boolean>;
  replaceWeights(list: WeightOverride[]): Promise<void>;
  replaceObjectives(list: FailureObjective[]): Promise<void>;
}

export interface ContextQuery {
  workload?: string;
  sinceMs?: number;
  limit: number;
}

export class ControlPlane implements DispatchPolicy, ControlWrites {
  private suppressions = new Map<string, Suppression>();
  private context = new Map<string, ContextEvent>();
  private weights: WeightOverride[] = [];
  private objectives: FailureObjective[] = [];
  private readonly suppressionStore;
  private readonly contextStore;
  private readonly weightStore;
  private readonly objectiveStore;

  constructor(
    db: ClassicLevel<string, string>,
    private readonly newId: (prefix: 'sup_' | 'ctx_') => string,
    private readonly listener: ControlPlaneListener,
  ) {
    this.suppressionStore = new LevelJsonCollection<Suppression>(db, 'suppressions');
    this.contextStore = new LevelJsonCollection<ContextEvent>(db, 'context');
    this.weightStore = new LevelJsonCollection<WeightOverride>(db, 'weights');
    this.objectiveStore = new LevelJsonCollection<FailureObjective>(db, 'objectives');
  }

  /**
   * Loads what was stored; `bootstrapWeights` (SVC_WORKLOAD_WEIGHTS) and `bootstrapObjectives`
   * (SVC_WORKLOAD_OBJECTIVES) apply only when none of their kind are stored.
   */
  async load(bootstrapWeights: WeightOverride[] | undefined, bootstrapObjectives?: FailureObjective[]): Promise<void> {
    this.suppressions = new Map((await this.suppressionStore.all()).map((s) => [s.id, s]));
    this.context = new Map((await this.contextStore.all()).map((c) => [c.id, c]));
    const stored = await this.weightStore.all();
    // stored under zero-padded positions, so `all()` returns them in posted order
    this.weights = stored.length > 0 || bootstrapWeights === undefined ? stored : bootstrapWeights;
    this.listener.suppressionsChanged([...this.suppressions.values()]);
    this.listener.contextChanged([...this.context.values()]);
    const objectives = await this.objectiveStore.all();
    this.objectives = objectives.length > 0 || bootstrapObjectives === undefined ? objectives : bootstrapObjectives;
    this.listener.weightsChanged(this.weights);
    this.listener.objectivesChanged(this.objectives);
  }

  /** Windows whose end is still ahead, by start. */
  listSuppressions(nowMs: number): Suppression[] {
    return [...this.suppressions.values()].filter((s) => s.endMs > nowMs).sort((a, b) => a.startMs - b.startMs || cmp(a.id, b.id));
  }

  getSuppression(id: string): Suppression | undefined {
    return this.suppressions.get(id);
  }

  /** A new window from a validated body (the id is made here). */
  newSuppression(body: SuppressionBody, nowMs: number): Suppression {
    return suppressionFromBody(body, this.newId('sup_'), nowMs);
  }

  /** The window `id` with a new body, or undefined when there is no such window. */
  updatedSuppression(id: string, body: SuppressionBody): Suppression | undefined {
    const existing = this.suppressions.get(id);
    return existing === undefined ? undefined : suppressionFromBody(body, id, existing.createdAtMs);
  }

  async addSuppression(body: SuppressionBody, nowMs: number): Promise<Suppression> {
    const suppression = this.newSuppression(body, nowMs);
    await this.applySuppression(suppression.id, suppression);
    return suppression;
  }

  /** Replaces the window `id` in place (the operator's update of a Suppression CR). */
  async replaceSuppression(id: string, body: SuppressionBody): Promise<Suppression | undefined> {
    const updated = this.updatedSuppression(id, body);
    if (updated !== undefined) await this.applySuppression(id, updated);
    return updated;
  }

  async removeSuppression(id: string): Promise<boolean> {
    if (!this.suppressions.has(id)) return false;
    await this.applySuppression(id, undefined);
    return true;
  }

  /** Stores (or, undefined, deletes) one window as given: the one write path of suppressions. */
  async applySuppression(id: string, suppression: Suppression | undefined): Promise<void> {
    if (suppression === undefined) {
      await this.suppressionStore.del(id);
      this.suppressions.delete(id);
    } else {
      await this.suppressionStore.put(id, suppression);
      this.suppressions.set(id, suppression);
    }
    this.listener.suppressionsChanged([...this.suppressions.values()]);
  }

  /** Newest first. */
  listContext(query: ContextQuery): ContextEvent[] {
    return [...this.context.values()]
      .filter((c) => query.workload === undefined || c.workload === query.workload || selectorMatches(c.workload, query.workload))
      .filter((c) => query.sinceMs === undefined || c.timeMs >= query.sinceMs)
      .sort((a, b) => b.timeMs - a.timeMs || cmp(b.id, a.id))
      .slice(0, query.limit);
  }

  /** A new context event from a validated body (the id is made here). */
  newContext(body: ContextBody, nowMs: number): ContextEvent {
    return contextEventFromBody(body, this.newId('ctx_'), nowMs);
  }

  async addContext(body: ContextBody, nowMs: number): Promise<ContextEvent> {
    const event = this.newContext(body, nowMs);
    await this.applyContext(event.id, event);
    return event;
  }

  async removeContext(id: string): Promise<boolean> {
    if (!this.context.has(id)) return false;
    await this.applyContext(id, undefined);
    return true;
  }

  hasContext(id: string): boolean {
    return this.context.has(id);
  }

  /** Stores (or, undefined, deletes) one context event as given: the one write path of context. */
  async applyContext(id: string, event: ContextEvent | undefined): Promise<void> {
    if (event === undefined) {
      await this.contextStore.del(id);
      this.context.delete(id);
    } else {
      await this.contextStore.put(id, event);
      this.context.set(id, event);
    }
    this.listener.contextChanged([...this.context.values()]);
  }

  currentWeights(): readonly WeightOverride[] {
    return this.weights;
  }

  /** Replaces the whole list atomically, in the given order. */
  async replaceWeights(list: WeightOverride[]): Promise<void> {
    await this.weightStore.replaceAll(list.map((w, i) => [String(i).padStart(4, '0'), w]));
    this.weights = list;
    this.listener.weightsChanged(this.weights);
  }

  currentObjectives(): readonly FailureObjective[] {
    return this.objectives;
  }

  /** Replaces the whole list atomically, in the given order. */
  async replaceObjectives(list: FailureObjective[]): Promise<void> {
    await this.objectiveStore.replaceAll(list.map((o, i) => [String(i).padStart(4, '0'), o]));
    this.objectives = list;
    this.listener.objectivesChanged(this.objectives);
  }

  /** Drops windows that ended and context events past retention, in storage too. */
  async prune(nowMs: number): Promise<void> {
    const expired = [...this.suppressions.values()].filter((s) => s.endMs <= nowMs);
    const old = [...this.context.values()].filter((c) => nowMs - c.timeMs > CONTEXT_RETENTION_MS);
    for (const s of expired) {
      await this.suppressionStore.del(s.id);
      this.suppressions.delete(s.id);
    }
    for (const c of old) {
      await this.contextStore.del(c.id);
      this.context.delete(c.id);
    }
    if (expired.length > 0) this.listener.suppressionsChanged([...this.suppressions.values()]);
    if (old.length > 0) this.listener.contextChanged([...this.context.values()]);
  }

  isSuppressed(workload: string, signal: string | null, nowMs: number): boolean {
    for (const s of this.suppressions.values()) if (suppresses(s, workload, signal, nowMs)) return true;
    return false;
  }

  isQuiet(workload: string, nowMs: number): boolean {
    for (const c of this.context.values()) {
      if (!selectorMatches(c.workload, workload)) continue;
      if (nowMs >= c.timeMs - QUIET_BEFORE_MS && nowMs <= c.timeMs + QUIET_AFTER_MS) return true;
    }
    return false;
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
