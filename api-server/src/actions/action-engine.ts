/**
 * The action engine: turns critical and emergency steps into recommendations (analytics.md §9.1),
 * runs Tier-1 automation behind its gates (§9.4) and carries out people's decisions (approve,
 * reject, rollback, emergency stop). Every change is written through the repository before the
 * promise resolves.
 */
import type { ExplainRecord, WorkloadSnapshot } from '../analysis/contract.js';
import { ActionError, EDITION_MESSAGE } from './action-errors.js';
import type { ActionControlState, ActionRepository, WorkloadActionControl } from './action-repository.js';
import { adoptWorkloadControl, emptyControlState, workloadControl } from './action-repository.js';
import type { Action } from './action.js';
import { isLive } from './action.js';
import type { ActionExecutor } from './executor.js';
import type { GateSettings } from './tier1-gates.js';
import { checkTier1Gates } from './tier1-gates.js';
import { recommendationFor } from '../analysis/explain/recommendation-rules.js';
import { rollbackRefusal } from './rollback-refusal.js';
import { mayCreateAction } from './creation-gate.js';

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

const ONE_HOUR_MS = 3_600_000;

export class ActionEngine implements ActionDecisions {
  private readonly actions = new Map<string, Action>();
  private control: ActionControlState = emptyControlState();
  /** reasons already reported per action, so a blocked gate is logged once, not every cycle */
  private readonly lastBlock = new Map<string, string>();
  /** the workloads whose actions this engine drives; the others' are mirrors (cluster mode) */
  private drives: (workload: string) => boolean = () => true;

  constructor(
    private readonly settings: ActionEngineSettings,
    private readonly repository: ActionRepository,
    private readonly executor: ActionExecutor,
    private readonly policy: DispatchPolicy,
    private readonly newId: () => string,
    private readonly hooks: ActionEngineHooks,
  ) {}

  async load(): Promise<number> {
    const { actions, control } = await this.repository.load();
    for (const action of actions) this.actions.set(action.id, action);
    if (control) this.control = control;
    return actions.length;
  }

  /**
   * Cluster mode: this engine creates, gates, executes and evicts only the actions of workloads
   * `drives` accepts (the partitions this replica owns); the others are mirrors of their owners'
   * records, kept for listing (`mirror`, `unmirror`). Standalone: every workload.
   */
  restrictTo(drives: (workload: string) => boolean): void {
    this.drives = drives;
  }

  /** whether this engine drives the workload's actions */
  drivesWorkload(workload: string): boolean {
    return this.drives(workload);
  }

  /** An owner's record of an action of a workload this engine does not drive; an older version never replaces a newer one. */
  mirror(action: Action): void {
    if (this.drives(action.workload)) return;
    const known = this.actions.get(action.id);
    if (known !== undefined && known.updatedAtMs > action.updatedAtMs) return;
    this.actions.set(action.id, action);
  }

  /** The owner deleted (rejected or evicted) an action this engine does not drive. */
  unmirror(id: string): void {
    const known = this.actions.get(id);
    if (known !== undefined && !this.drives(known.workload)) this.actions.delete(id);
  }

  /**
   * Takes over the workloads `belongs` selects (a partition this replica was just assigned): their
   * actions become exactly `actions`, their control entries (rate window, cooldowns) `controls`.
   */
  adopt(belongs: (workload: string) => boolean, actions: readonly Action[], controls: ReadonlyMap<string, WorkloadActionControl>): void {
    for (const [id, action] of this.actions) {
      if (belongs(action.workload)) {
        this.actions.delete(id);
        this.lastBlock.delete(id);
      }
    }
    for (const action of actions) if (belongs(action.workload)) this.actions.set(action.id, action);
    const workloads = new Set<string>([...controls.keys()]);
    for (const key of [...Object.keys(this.control.rateWindows), ...Object.keys(this.control.lastExecutionMs), ...Object.keys(this.control.lastCreationMs)]) {
      const bar = key.lastIndexOf('|');
      workloads.add(bar < 0 ? key : key.slice(0, bar));
    }
    for (const workload of workloads) if (belongs(workload)) adoptWorkloadControl(this.control, workload, controls.get(workload));
  }

  /** the workload's part of the control state (cluster mode publishes it with the workload's actions) */
  controlOf(workload: string): WorkloadActionControl {
    return workloadControl(this.control, workload);
  }

  /** 402 for approve and rollback outside the autopilot edition, before any lookup */
  checkEdition(verb: 'approve' | 'reject' | 'rollback' | 'result'): void {
    if (verb === 'approve' || verb === 'rollback') this.requireAutopilot();
  }

  get emergencyStopSinceMs(): number | null {
    return this.control.emergencyStopSinceMs;
  }

  /** Pending and approved actions, then the kept terminal ones; newest first. */
  list(): Action[] {
    return [...this.actions.values()].sort((a, b) => b.createdAtMs - a.createdAtMs || (a.id < b.id ? 1 : -1));
  }

  get(id: string): Action | undefined {
    return this.actions.get(id);
  }

  /** Creates recommendations for the steps of one tick. */
  async considerStep(snapshots: readonly WorkloadSnapshot[], explain: (ruptureId: string) => ExplainRecord | undefined, nowMs: number): Promise<Action[]> {
    const created: Action[] = [];
    const deleted: Action[] = [];
    for (const snapshot of snapshots) {
      if (!mayCreateAction(snapshot, this.settings.sustainMs) || snapshot.ruptureId === null) continue;
      if (!this.drives(snapshot.key)) continue;
      const record = explain(snapshot.ruptureId);
      if (record === undefined) continue;
      const workload = snapshot.key;
      // the type, params and reason come from the rule table (records saved before it keep theirs)
      const recommendation = record.diagnosis === undefined ? record.recommendation : recommendationFor(record.diagnosis, { workload, state: snapshot.state, currentReplicas: null });
      // an undetermined diagnosis recommends nothing yet
      if (recommendation === null) continue;
      const signal = record.topSignal ?? record.topFactor;
      const pairKey = `${workload}|${recommendation.type}`;
      if (this.policy.isSuppressed(workload, signal, snapshot.timeMs)) continue;
      if (this.policy.isQuiet(workload, snapshot.timeMs)) continue;
      if (this.hasLive(workload, recommendation.type)) continue;
      const lastCreation = this.control.lastCreationMs[pairKey];
      if (lastCreation !== undefined && snapshot.timeMs - lastCreation < this.settings.creationCooldownMs) continue;
      const action: Action = {
        id: this.newId(),
        workload,
        type: recommendation.type,
        params: { ...recommendation.params },
        tier: recommendation.tier,
        state: 'pending',
        ruptureId: snapshot.ruptureId,
        createdAtMs: nowMs,
        updatedAtMs: nowMs,
        executedAtMs: null,
        description: describe(workload, recommendation.type, recommendation.params, recommendation.text),
        confidence: snapshot.confidence,
        fusedR: snapshot.fusedR,
        triggerSignal: signal,
        previousReplicas: null,
        reason: null,
        executor: this.settings.executor,
        approvedBy: null,
        approvedAtMs: null,
        blockedBy: null,
        rollbackRequested: false,
        execution: null,
      };
      this.control.lastCreationMs[pairKey] = snapshot.timeMs;
      this.actions.set(action.id, action);
      created.push(action);
      deleted.push(...this.evictBeyondLimits());
    }
    if (created.length === 0) return created;
    const kept = created.filter((a) => this.actions.has(a.id));
    await this.repository.commit({ put: kept, deleted: deleted.filter((a) => !created.includes(a)), control: this.control });
    for (const action of created) this.hooks.outcome(action, 'created');
    return kept;
  }

  /**
   * One engine cycle: Tier-1 pending actions that pass every gate are approved, and approved
   * actions are executed (when this process is the executor).
   */
  async runCycle(nowMs: number, confidenceOf: (workload: string) => number): Promise<void> {
    for (const action of this.list().reverse()) {
      if (!this.drives(action.workload)) continue;
      if (action.state === 'pending' && action.tier === 1) {
        const verdict = checkTier1Gates(action, this.settings, {
          confidence: confidenceOf(action.workload),
          emergencyStop: this.control.emergencyStopSinceMs !== null,
          suppressed: this.policy.isSuppressed(action.workload, action.triggerSignal, nowMs),
          executionsInWindow: this.executionsInWindow(action.workload, nowMs),
          lastExecutionOfTypeMs: this.control.lastExecutionMs[`${action.workload}|${action.type}`] ?? null,
          nowMs,
        });
        if (!verdict.pass) {
          action.blockedBy = verdict.gate;
          this.noteBlocked(action, verdict.gate === 'execution_mode' && this.settings.executionMode === 'shadow' ? 'shadow' : 'blocked', verdict.reason);
          continue;
        }
        action.blockedBy = null;
        action.approvedBy = 'engine';
        action.approvedAtMs = nowMs;
        await this.transition(action, { state: 'approved', reason: 'tier-1 gates passed', updatedAtMs: nowMs });
        this.hooks.outcome(action, 'approved');
      }
      if (action.state !== 'approved') continue;
      if (this.settings.executor === 'internal') {
        await this.execute(action, nowMs);
      } else if (nowMs - (action.approvedAtMs ?? action.updatedAtMs) > this.settings.executorTimeoutMs) {
        await this.transition(action, { state: 'failed', reason: 'ExecutorTimeout', updatedAtMs: nowMs });
        this.hooks.outcome(action, 'failed', 'ExecutorTimeout');
      }
    }
  }

  async approve(id: string, nowMs: number): Promise<Action> {
    this.requireAutopilot();
    const action = this.require(id);
    if (action.state === 'approved') return action;
    if (action.state !== 'pending') throw new ActionError('conflict', `action ${id} is ${action.state}, only a pending action can be approved`);
    action.approvedBy = 'api';
    action.approvedAtMs = nowMs;
    action.blockedBy = null;
    await this.transition(action, { state: 'approved', reason: 'approved by a person', updatedAtMs: nowMs });
    this.hooks.outcome(action, 'approved');
    return action;
  }

  async reject(id: string, nowMs: number): Promise<Action> {
    const action = this.require(id);
    if (!isLive(action)) throw new ActionError('conflict', `action ${id} is ${action.state}, only a pending or approved action can be rejected`);
    action.state = 'rejected';
    action.updatedAtMs = nowMs;
    this.actions.delete(id);
    await this.repository.commit({ put: [], deleted: [action], control: this.control });
    this.hooks.outcome(action, 'rejected');
    return action;
  }

  async rollback(id: string, nowMs: number): Promise<Action> {
    this.requireAutopilot();
    const action = this.require(id);
    if (action.state !== 'executed') throw new ActionError('conflict', `action ${id} is ${action.state}, only an executed action can be rolled back`);
    if (action.type !== 'scale') throw new ActionError('conflict', rollbackRefusal(action.type));
    if (this.settings.executor === 'external') {
      if (!action.rollbackRequested) {
        action.rollbackRequested = true;
        await this.transition(action, { state: 'executed', reason: 'rollback requested', updatedAtMs: nowMs });
      }
      return action;
    }
    const result = await this.executor.rollback(action);
    if (!result.ok) {
      await this.transition(action, { state: 'executed', reason: `rollback failed: ${result.reason ?? 'unknown'}`, updatedAtMs: nowMs });
      this.hooks.outcome(action, 'failed', result.reason);
      throw new ActionError('conflict', `rollback of ${id} failed: ${result.reason ?? 'unknown'}`);
    }
    await this.transition(action, { state: 'rolled_back', reason: 'rolled back by a person', updatedAtMs: nowMs });
    this.hooks.outcome(action, 'rolled_back');
    return action;
  }

  async setEmergencyStop(on: boolean, nowMs: number): Promise<number | null> {
    if (on && this.control.emergencyStopSinceMs === null) this.control.emergencyStopSinceMs = nowMs;
    if (!on) this.control.emergencyStopSinceMs = null;
    await this.repository.commit({ put: [], deleted: [], control: this.control });
    return this.control.emergencyStopSinceMs;
  }

  private async execute(action: Action, nowMs: number): Promise<void> {
    const result = await this.executor.execute(action);
    if (!result.ok) {
      await this.transition(action, { state: 'failed', reason: result.reason ?? 'executor failed', updatedAtMs: nowMs });
      this.hooks.outcome(action, 'failed', result.reason);
      return;
    }
    await this.markExecuted(action, { previousReplicas: result.previousReplicas, replicas: result.replicas, dryRun: false, executor: this.executor.name }, nowMs);
  }

  private async markExecuted(
    action: Action,
    report: { previousReplicas: number | undefined; replicas: number | undefined; dryRun: boolean; executor: string },
    nowMs: number,
  ): Promise<void> {
    if (report.previousReplicas !== undefined) action.previousReplicas = report.previousReplicas;
    if (report.replicas !== undefined && action.type === 'scale') action.params = { ...action.params, replicas: report.replicas };
    const pairKey = `${action.workload}|${action.type}`;
    this.control.lastExecutionMs[pairKey] = nowMs;
    if (action.tier === 1 && action.approvedBy === 'engine') this.countExecution(action.workload, nowMs);
    action.executedAtMs = nowMs;
    action.execution = {
      previousReplicas: report.previousReplicas ?? null,
      replicas: report.replicas ?? null,
      executedAtMs: nowMs,
      dryRun: report.dryRun,
      executor: report.executor,
    };
    await this.transition(action, { state: 'executed', reason: `executed by ${report.executor}`, updatedAtMs: nowMs });
    this.hooks.outcome(action, 'executed');
  }

  /**
   * The external executor's report. Fits: executed/failed for an approved action, rolled_back/
   * rollback_failed for an executed one with a rollback requested; the same report twice is a no-op.
   */
  async reportResult(id: string, report: ExecutionReport, nowMs: number): Promise<Action> {
    const action = this.require(id);
    const sameNumbers =
      action.execution !== null &&
      (report.previousReplicas === undefined || report.previousReplicas === action.execution.previousReplicas) &&
      (report.replicas === undefined || report.replicas === action.execution.replicas);
    switch (report.outcome) {
      case 'executed':
        if (action.state === 'executed' && sameNumbers) return action;
        if (action.state !== 'approved') throw new ActionError('conflict', `action ${id} is ${action.state}; an executed report fits an approved action`);
        await this.markExecuted(action, { previousReplicas: report.previousReplicas, replicas: report.replicas, dryRun: report.dryRun ?? false, executor: report.executor }, nowMs);
        return action;
      case 'failed':
        if (action.state === 'failed') return action;
        if (action.state !== 'approved') throw new ActionError('conflict', `action ${id} is ${action.state}; a failed report fits an approved action`);
        await this.transition(action, { state: 'failed', reason: report.reason ?? report.message ?? 'executor reported failure', updatedAtMs: nowMs });
        this.hooks.outcome(action, 'failed', report.reason);
        return action;
      case 'rolled_back':
        if (action.state === 'rolled_back') return action;
        if (action.state !== 'executed') throw new ActionError('conflict', `action ${id} is ${action.state}; a rolled_back report fits an executed action`);
        action.rollbackRequested = false;
        await this.transition(action, { state: 'rolled_back', reason: `rolled back by ${report.executor}`, updatedAtMs: nowMs });
        this.hooks.outcome(action, 'rolled_back');
        return action;
      case 'rollback_failed':
        if (action.state !== 'executed') throw new ActionError('conflict', `action ${id} is ${action.state}; a rollback_failed report fits an executed action`);
        action.rollbackRequested = false;
        await this.transition(action, { state: 'executed', reason: `rollback failed: ${report.reason ?? report.message ?? 'unknown'}`, updatedAtMs: nowMs });
        this.hooks.outcome(action, 'failed', report.reason);
        return action;
    }
  }

  private async transition(action: Action, change: Pick<Action, 'state' | 'reason' | 'updatedAtMs'>): Promise<void> {
    action.state = change.state;
    action.reason = change.reason;
    action.updatedAtMs = change.updatedAtMs;
    const deleted = this.evictBeyondLimits();
    await this.repository.commit({ put: deleted.includes(action) ? [] : [action], deleted, control: this.control });
  }

  private noteBlocked(action: Action, outcome: 'blocked' | 'shadow', reason: string): void {
    if (this.lastBlock.get(action.id) === reason) return;
    this.lastBlock.set(action.id, reason);
    action.reason = outcome === 'shadow' ? `shadow: would execute; ${reason}` : reason;
    this.hooks.outcome(action, outcome, reason);
  }

  private executionsInWindow(workload: string, nowMs: number): number {
    const window = this.control.rateWindows[workload];
    if (window === undefined || nowMs - window.startMs > ONE_HOUR_MS) return 0;
    return window.count;
  }

  private countExecution(workload: string, nowMs: number): void {
    const window = this.control.rateWindows[workload];
    if (window === undefined || nowMs - window.startMs > ONE_HOUR_MS) {
      this.control.rateWindows[workload] = { startMs: nowMs, count: 1 };
    } else {
      window.count += 1;
    }
  }

  private hasLive(workload: string, type: string): boolean {
    for (const action of this.actions.values()) {
      if (action.workload === workload && action.type === type && isLive(action)) return true;
    }
    return false;
  }

  /** Oldest pending beyond the pending limit are evicted; oldest terminal beyond the terminal limit are forgotten. */
  private evictBeyondLimits(): Action[] {
    const driven = [...this.actions.values()].filter((a) => this.drives(a.workload));
    const pending = driven.filter((a) => a.state === 'pending').sort((a, b) => a.createdAtMs - b.createdAtMs);
    const terminal = driven.filter((a) => !isLive(a)).sort((a, b) => a.updatedAtMs - b.updatedAtMs);
    const evicted: Action[] = [];
    for (const action of pending.slice(0, Math.max(0, pending.length - this.settings.pendingLimit))) {
      this.actions.delete(action.id);
      this.lastBlock.delete(action.id);
      evicted.push(action);
      this.hooks.outcome(action, 'evicted', `pending queue full (${this.settings.pendingLimit})`);
    }
    for (const action of terminal.slice(0, Math.max(0, terminal.length - this.settings.terminalLimit))) {
      this.actions.delete(action.id);
      this.lastBlock.delete(action.id);
      evicted.push(action);
    }
    return evicted;
  }

  private require(id: string): Action {
    const action = this.actions.get(id);
    if (action === undefined) throw new ActionError('not_found', `action ${id} not found`);
    return action;
  }

  private requireAutopilot(): void {
    if (this.settings.edition !== 'autopilot') throw new ActionError('edition', EDITION_MESSAGE);
  }
}

function describe(workload: string, type: string, params: Record<string, string | number>, text: string): string {
  if (type === 'scale') {
    const replicas = params['replicas'];
    const delta = params['delta'];
    if (typeof replicas === 'number') return `scale ${workload} to ${replicas} replicas`;
    if (typeof delta === 'number') return `scale ${workload} by ${delta >= 0 ? '+' : ''}${delta} replicas`;
  }
  if (type === 'restart') return `rolling restart of ${workload}`;
  return `${type} for ${workload}: ${text}`;
}
