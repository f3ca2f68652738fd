/**
 * Records of the compacted state topic, two per workload, on the workload's partition:
 *
 * - `s|<workload>`: the analysis state (`exportWorkload`), written at each checkpoint by the
 *   owner; a new owner imports it before analysing the workload.
 * - `v|<workload>`: the read view: the latest snapshot and the workload's latest anomalies (at
 *   most VIEW_ANOMALIES), written by the owner after every analysis tick that stepped it; every
 *   replica materialises these to answer reads for every workload.
 *
 * - `a|<action id>`: an action of the workload (api.md §6.5 record), written by the owner's action
 *   engine at every change before the change is answered; no value (a tombstone) once rejected or
 *   evicted. Every replica mirrors them; a new owner adopts them with the partition.
 * - `c|<workload>`: the workload's part of the action engine's control state (Tier-1 rate window,
 *   last execution and last creation per action type), written with its actions.
 *
 * - `r|<partition>`: the owner's read position in the telemetry partition (the next offset it had
 *   not handed to its analysis), written with the states; a new owner counts the samples of the
 *   records below it as replayed (rpt_cluster_replayed_samples_total).
 *
 * Compaction keeps the latest record per key, so the topic's size follows the workload count
 * (and the kept actions, which the engine bounds).
 */
import type { AnomalyEvent, WorkloadSnapshot } from '../analysis/contract.js';

export const VIEW_ANOMALIES = 100;

export type StateKey = { kind: 'state' | 'view' | 'action-control'; workload: string } | { kind: 'action'; id: string } | { kind: 'position'; partition: number };

export const stateKey = (workload: string): string => `s|${workload}`;
export const viewKey = (workload: string): string => `v|${workload}`;
export const actionKey = (id: string): string => `a|${id}`;
export const actionControlKey = (workload: string): string => `c|${workload}`;
export const positionKey = (partition: number): string => `r|${partition}`;

export function parseStateKey(key: string | undefined): StateKey | undefined {
  if (key === undefined || key.length < 3 || key[1] !== '|') return undefined;
  if (key[0] === 's') return { kind: 'state', workload: key.slice(2) };
  if (key[0] === 'v') return { kind: 'view', workload: key.slice(2) };
  if (key[0] === 'a') return { kind: 'action', id: key.slice(2) };
  if (key[0] === 'c') return { kind: 'action-control', workload: key.slice(2) };
  if (key[0] === 'r' && /^\d+$/.test(key.slice(2))) return { kind: 'position', partition: Number(key.slice(2)) };
  return undefined;
}

export interface ViewRecord {
  snapshot: WorkloadSnapshot;
  /** newest last */
  anomalies: AnomalyEvent[];
}

/** The view record in a state-topic value, or undefined when it is not one (logged by the caller). */
export function parseViewRecord(value: string | undefined): ViewRecord | undefined {
  if (value === undefined) return undefined;
  try {
    const doc = JSON.parse(value) as Partial<ViewRecord>;
    if (typeof doc !== 'object' || doc === null || typeof doc.snapshot !== 'object' || doc.snapshot === null || !Array.isArray(doc.anomalies)) return undefined;
    if (typeof (doc.snapshot as { key?: unknown }).key !== 'string') return undefined;
    return { snapshot: doc.snapshot, anomalies: doc.anomalies };
  } catch {
    return undefined;
  }
}
