/**
 * What the action engine holds in memory: the actions by id, the control state (emergency stop,
 * Tier-1 rate windows, last execution and creation per workload and type), which workloads this
 * process drives (cluster mode: the others' actions are mirrors of their owners' records), and the
 * eviction of the oldest actions beyond the pending and terminal limits.
 */
import type { ActionControlState, WorkloadActionControl } from './action-repository.js';
import { adoptWorkloadControl, emptyControlState, workloadControl } from './action-repository.js';
import type { Action } from './action.js';
import { isLive } from './action.js';

const ONE_HOUR_MS = 3_600_000;

export interface ActionBookLimits {
  pendingLimit: number;
  terminalLimit: number;
}

export class ActionBook {
  readonly actions = new Map<string, Action>();
  control: ActionControlState = emptyControlState();
  /** reasons already reported per action, so a blocked gate is logged once, not every cycle */
  readonly lastBlock = new Map<string, string>();
  /** the workloads whose actions this process drives; the others' are mirrors (cluster mode) */
  drives: (workload: string) => boolean = () => true;

  constructor(
    private readonly limits: ActionBookLimits,
    /** an action evicted from the full pending queue (terminal ones are forgotten silently) */
    private readonly onPendingEvicted: (action: Action, detail: string) => void,
  ) {}

  /** An owner's record of an action of a workload this process does not drive; an older version never replaces a newer one. */
  mirror(action: Action): void {
    if (this.drives(action.workload)) return;
    const known = this.actions.get(action.id);
    if (known !== undefined && known.updatedAtMs > action.updatedAtMs) return;
    this.actions.set(action.id, action);
  }

  /** The owner deleted (rejected or evicted) an action this process does not drive. */
  unmirror(id: string): void {
    const known = this.actions.get(id);
    if (known !== undefined && !this.drives(known.workload)) this.actions.delete(id);
  }

  /** The workloads `belongs` selects get exactly `actions` and the control entries `controls`. */
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

  controlOf(workload: string): WorkloadActionControl {
    return workloadControl(this.control, workload);
  }

  /** Pending and approved actions, then the kept terminal ones; newest first. */
  list(): Action[] {
    return [...this.actions.values()].sort((a, b) => b.createdAtMs - a.createdAtMs || (a.id < b.id ? 1 : -1));
  }

  hasLive(workload: string, type: string): boolean {
    for (const action of this.actions.values()) {
      if (action.workload === workload && action.type === type && isLive(action)) return true;
    }
    return false;
  }

  /** Tier-1 executions of the workload in its current one-hour window. */
  executionsInWindow(workload: string, nowMs: number): number {
    const window = this.control.rateWindows[workload];
    if (window === undefined || nowMs - window.startMs > ONE_HOUR_MS) return 0;
    return window.count;
  }

  countExecution(workload: string, nowMs: number): void {
    const window = this.control.rateWindows[workload];
    if (window === undefined || nowMs - window.startMs > ONE_HOUR_MS) {
      this.control.rateWindows[workload] = { startMs: nowMs, count: 1 };
    } else {
      window.count += 1;
    }
  }

  /** Oldest pending beyond the pending limit are evicted; oldest terminal beyond the terminal limit are forgotten. */
  evictBeyondLimits(): Action[] {
    const driven = [...this.actions.values()].filter((a) => this.drives(a.workload));
    const pending = driven.filter((a) => a.state === 'pending').sort((a, b) => a.createdAtMs - b.createdAtMs);
    const terminal = driven.filter((a) => !isLive(a)).sort((a, b) => a.updatedAtMs - b.updatedAtMs);
    const evicted: Action[] = [];
    for (const action of pending.slice(0, Math.max(0, pending.length - this.limits.pendingLimit))) {
      this.forget(action, evicted);
      this.onPendingEvicted(action, `pending queue full (${this.limits.pendingLimit})`);
    }
    for (const action of terminal.slice(0, Math.max(0, terminal.length - this.limits.terminalLimit))) this.forget(action, evicted);
    return evicted;
  }

  private forget(action: Action, evicted: Action[]): void {
    this.actions.delete(action.id);
    this.lastBlock.delete(action.id);
    evicted.push(action);
  }
}
