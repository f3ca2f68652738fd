/**
 * The action engine: turns critical and emergency steps into recommendations (analytics.md §9.1),
 * runs Tier-1 automation behind its gates (§9.4) and carries out people's decisions (approve,
 * reject, rollback, emergency stop). Every change is written through the repository before the
 * promise resolves.
 */
import type { ExplainRecord, WorkloadSnapshot } from '../analysis/contract.js';
import { recommendationFor } from '../analysis/explain/recommendation-rules.js';
import { ActionBook } from './action-book.js';
import type { ActionDecisions, ActionEngineHooks, ActionEngineSettings, DispatchPolicy, ExecutionReport } from './action-engine-types.js';
import { ActionError, EDITION_MESSAGE } from './action-errors.js';
import type { ActionRepository, WorkloadActionControl } from './action-repository.js';
import type { Action } from './action.js';
import { isLive } from './action.js';
import { mayCreateAction } from './creation-gate.js';
import type { ActionExecutor } from './executor.js';
import { reportStep } from './execution-report.js';
import { newPendingAction } from './new-action.js';
import { rollbackRefusal } from './rollback-refusal.js';
import { checkTier1Gates } from './tier1-gates.js';


export class ActionEngine implements ActionDecisions {
  private readonly book: ActionBook;

  constructor(
    private readonly settings: ActionEngineSettings,
    private readonly repository: ActionRepository,
    private readonly executor: ActionExecutor,
    private readonly policy: DispatchPolicy,
    private readonly newId: () => string,
    private readonly hooks: ActionEngineHooks,
  ) {
    this.book = new ActionBook(settings, (action, detail) => hooks.outcome(action, 'evicted', detail));
  }

  async load(): Promise<number> {
    const { actions, control } = await this.repository.load();
    for (const action of actions) this.book.actions.set(action.id, action);
    if (control) this.book.control = control;
    return actions.length;
  }

  /**
   * Cluster mode: this engine creates, gates, executes and evicts only the actions of workloads
   * `drives` accepts (the partitions this replica owns); the others are mirrors of their owners'
   * records, kept for listing (`mirror`, `unmirror`). Standalone: every workload.
   */
  restrictTo(drives: (workload: string) => boolean): void {
    this.book.drives = drives;
  }

  /** whether this engine drives the workload's actions */
  drivesWorkload(workload: string): boolean {
    return this.book.drives(workload);
  }

  /** An owner's record of an action of a workload this engine does not drive; an older version never replaces a newer one. */
  mirror(action: Action): void {
    this.book.mirror(action);
  }

  /** The owner deleted (rejected or evicted) an action this engine does not drive. */
  unmirror(id: string): void {
    this.book.unmirror(id);
  }

  /**
   * Takes over the workloads `belongs` selects (a partition this replica was just assigned): their
   * actions become exactly `actions`, their control entries (rate window, cooldowns) `controls`.
   */
  adopt(belongs: (workload: string) => boolean, actions: readonly Action[], controls: ReadonlyMap<string, WorkloadActionControl>): void {
    this.book.adopt(belongs, actions, controls);
  }

  /** the workload's part of the control state (cluster mode publishes it with the workload's actions) */
  controlOf(workload: string): WorkloadActionControl {
    return this.book.controlOf(workload);
  }

  /** 402 for approve and rollback outside the autopilot edition, before any lookup */
  checkEdition(verb: 'approve' | 'reject' | 'rollback' | 'result'): void {
    if (verb === 'approve' || verb === 'rollback') this.requireAutopilot();
  }

  get emergencyStopSinceMs(): number | null {
    return this.book.control.emergencyStopSinceMs;
  }

  /** Pending and approved actions, then the kept terminal ones; newest first. */
  list(): Action[] {
    return this.book.list();
  }

  get(id: string): Action | undefined {
    return this.book.actions.get(id);
  }

  /** Creates recommendations for the steps of one tick. */
  async considerStep(snapshots: readonly WorkloadSnapshot[], explain: (ruptureId: string) => ExplainRecord | undefined, nowMs: number): Promise<Action[]> {
    const created: Action[] = [];
    const deleted: Action[] = [];
    for (const snapshot of snapshots) {
      if (!mayCreateAction(snapshot, this.settings.sustainMs) || snapshot.ruptureId === null) continue;
      if (!this.book.drives(snapshot.key)) continue;
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
      if (this.book.hasLive(workload, recommendation.type)) continue;
      const lastCreation = this.book.control.lastCreationMs[pairKey];
      if (lastCreation !== undefined && snapshot.timeMs - lastCreation < this.settings.creationCooldownMs) continue;
      const action = newPendingAction(this.newId(), snapshot, snapshot.ruptureId, recommendation, signal, this.settings.executor, nowMs);
      this.book.control.lastCreationMs[pairKey] = snapshot.timeMs;
      this.book.actions.set(action.id, action);
      created.push(action);
      deleted.push(...this.book.evictBeyondLimits());
    }
    if (created.length === 0) return created;
    const kept = created.filter((a) => this.book.actions.has(a.id));
    await this.repository.commit({ put: kept, deleted: deleted.filter((a) => !created.includes(a)), control: this.book.control });
    for (const action of created) this.hooks.outcome(action, 'created');
    return kept;
  }

  /**
   * One engine cycle: Tier-1 pending actions that pass every gate are approved, and approved
   * actions are executed (when this process is the executor).
   */
  async runCycle(nowMs: number, confidenceOf: (workload: string) => number): Promise<void> {
    for (const action of this.list().reverse()) {
      if (!this.book.drives(action.workload)) continue;
      if (action.state === 'pending' && action.tier === 1) {
        const verdict = checkTier1Gates(action, this.settings, {
          confidence: confidenceOf(action.workload),
          emergencyStop: this.book.control.emergencyStopSinceMs !== null,
          suppressed: this.policy.isSuppressed(action.workload, action.triggerSignal, nowMs),
          executionsInWindow: this.book.executionsInWindow(action.workload, nowMs),
          lastExecutionOfTypeMs: this.book.control.lastExecutionMs[`${action.workload}|${action.type}`] ?? null,
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
    this.book.actions.delete(id);
    await this.repository.commit({ put: [], deleted: [action], control: this.book.control });
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
    if (on && this.book.control.emergencyStopSinceMs === null) this.book.control.emergencyStopSinceMs = nowMs;
    if (!on) this.book.control.emergencyStopSinceMs = null;
    await this.repository.commit({ put: [], deleted: [], control: this.book.control });
    return this.book.control.emergencyStopSinceMs;
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
    this.book.control.lastExecutionMs[pairKey] = nowMs;
    if (action.tier === 1 && action.approvedBy === 'engine') this.book.countExecution(action.workload, nowMs);
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

  /** The external executor's report (execution-report.ts says which fit which state). */
  async reportResult(id: string, report: ExecutionReport, nowMs: number): Promise<Action> {
    const action = this.require(id);
    const step = reportStep(action, report);
    if (step.kind === 'repeat') return action;
    if (step.kind === 'executed') {
      await this.markExecuted(action, { previousReplicas: report.previousReplicas, replicas: report.replicas, dryRun: report.dryRun ?? false, executor: report.executor }, nowMs);
      return action;
    }
    if (step.rollbackSettled) action.rollbackRequested = false;
    await this.transition(action, { state: step.state, reason: step.reason, updatedAtMs: nowMs });
    this.hooks.outcome(action, step.outcome, step.detail);
    return action;
  }

  private async transition(action: Action, change: Pick<Action, 'state' | 'reason' | 'updatedAtMs'>): Promise<void> {
    action.state = change.state;
    action.reason = change.reason;
    action.updatedAtMs = change.updatedAtMs;
    const deleted = this.book.evictBeyondLimits();
    await this.repository.commit({ put: deleted.includes(action) ? [] : [action], deleted, control: this.book.control });
  }

  private noteBlocked(action: Action, outcome: 'blocked' | 'shadow', reason: string): void {
    if (this.book.lastBlock.get(action.id) === reason) return;
    this.book.lastBlock.set(action.id, reason);
    action.reason = outcome === 'shadow' ? `shadow: would execute; ${reason}` : reason;
    this.hooks.outcome(action, outcome, reason);
  }

  private require(id: string): Action {
    const action = this.book.actions.get(id);
    if (action === undefined) throw new ActionError('not_found', `action ${id} not found`);
    return action;
  }

  private requireAutopilot(): void {
    if (this.settings.edition !== 'autopilot') throw new ActionError('edition', EDITION_MESSAGE);
  }
}
