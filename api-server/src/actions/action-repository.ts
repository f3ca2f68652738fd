/**
 * Persistence port of the action engine. The LevelDB implementation lives in storage/; every
 * method resolves only after the change is durable, so a 2xx can follow it (runtime.md, Durability).
 */
import type { Action } from './action.js';

export interface RateWindow {
  startMs: number;
  count: number;
}

/** Engine state other than the actions themselves, kept across restarts. */
export interface ActionControlState {
  emergencyStopSinceMs: number | null;
  /** Tier-1 execution windows per workload key */
  rateWindows: Record<string, RateWindow>;
  /** last execution per `${workload}|${type}` */
  lastExecutionMs: Record<string, number>;
  /** last creation per `${workload}|${type}` (arbitration cooldown) */
  lastCreationMs: Record<string, number>;
}

export function emptyControlState(): ActionControlState {
  return { emergencyStopSinceMs: null, rateWindows: {}, lastExecutionMs: {}, lastCreationMs: {} };
}

export interface ActionRepository {
  load(): Promise<{ actions: Action[]; control: ActionControlState | undefined }>;
  /** writes the given actions and control state, and deletes the `deleted` actions, in one atomic batch */
  commit(change: { put: Action[]; deleted: Action[]; control: ActionControlState }): Promise<void>;
}

/**
 * The part of the engine's control state that belongs to one workload (cluster mode hands it over
 * with the workload's partition): its Tier-1 execution window, and its last execution and last
 * creation per action type.
 */
export interface WorkloadActionControl {
  rateWindow: RateWindow | null;
  lastExecutionMs: Record<string, number>;
  lastCreationMs: Record<string, number>;
}

export function workloadControl(control: ActionControlState, workload: string): WorkloadActionControl {
  const prefix = `${workload}|`;
  const pick = (all: Record<string, number>): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const [k, v] of Object.entries(all)) if (k.startsWith(prefix)) out[k.slice(prefix.length)] = v;
    return out;
  };
  return { rateWindow: control.rateWindows[workload] ?? null, lastExecutionMs: pick(control.lastExecutionMs), lastCreationMs: pick(control.lastCreationMs) };
}

/** Replaces the workload's entries of `control` with `adopted` (none: the workload has no entries). */
export function adoptWorkloadControl(control: ActionControlState, workload: string, adopted: WorkloadActionControl | undefined): void {
  const prefix = `${workload}|`;
  for (const all of [control.lastExecutionMs, control.lastCreationMs]) for (const k of Object.keys(all)) if (k.startsWith(prefix)) delete all[k];
  delete control.rateWindows[workload];
  if (adopted === undefined) return;
  if (adopted.rateWindow !== null) control.rateWindows[workload] = { ...adopted.rateWindow };
  for (const [type, t] of Object.entries(adopted.lastExecutionMs)) control.lastExecutionMs[`${prefix}${type}`] = t;
  for (const [type, t] of Object.entries(adopted.lastCreationMs)) control.lastCreationMs[`${prefix}${type}`] = t;
}
