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
  /** writes the given actions and control state, and deletes `deleteIds`, in one atomic batch */
  commit(change: { put: Action[]; deleteIds: string[]; control: ActionControlState }): Promise<void>;
}
