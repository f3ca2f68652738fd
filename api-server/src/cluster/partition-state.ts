/**
 * The latest records of one state-topic partition, by kind: what a new owner imports before it
 * analyses the partition's workloads (analysis states, views, actions and their control state).
 */
import type { Consumer } from '../kafka/kafka-client.js';
import type { Action } from '../actions/action.js';
import type { WorkloadActionControl } from '../actions/action-repository.js';
import { parseActionControlRecord, parseActionRecord } from './action-records.js';
import { readPartitionsToEnd } from './partition-reader.js';
import { parseStateKey } from './state-records.js';

export interface PartitionState {
  /** workload → its `s|` record (analysis state) */
  states: Map<string, string>;
  /** workload → its `v|` record (snapshot and latest anomalies) */
  views: Map<string, string>;
  /** action id → its `a|` record; undefined when a tombstone deleted it */
  actions: Map<string, string | undefined>;
  /** workload → its `c|` record (actions' control state) */
  controls: Map<string, string>;
  /** the previous owner's last recorded read position in the telemetry partition */
  position: bigint | undefined;
}

export async function readPartitionState(reader: Consumer<string, string, string, string>, topic: string, partition: number): Promise<PartitionState> {
  const out: PartitionState = { states: new Map(), views: new Map(), actions: new Map(), controls: new Map(), position: undefined };
  await readPartitionsToEnd(reader, topic, [partition], (r) => {
    const key = parseStateKey(r.key);
    if (key === undefined) return;
    // an action's tombstone (rejected, evicted) deletes it
    if (key.kind === 'action') out.actions.set(key.id, r.value === undefined || r.value === '' ? undefined : r.value);
    if (r.value === undefined || key.kind === 'action') return;
    if (key.kind === 'position') {
      if (key.partition === partition && /^\d+$/.test(r.value)) out.position = BigInt(r.value);
      return;
    }
    if (key.kind === 'action-control') out.controls.set(key.workload, r.value);
    else (key.kind === 'state' ? out.states : out.views).set(key.workload, r.value);
  });
  return out;
}

/** The partition's actions and their control state as the action engine adopts them; `unreadable` counts records skipped. */
export function parseAdoptable(actions: PartitionState['actions'], controls: PartitionState['controls']): { adopted: Action[]; controls: Map<string, WorkloadActionControl>; unreadable: number } {
  const adopted: Action[] = [];
  const parsedControls = new Map<string, WorkloadActionControl>();
  let unreadable = 0;
  for (const value of actions.values()) {
    if (value === undefined) continue;
    const action = parseActionRecord(value);
    if (action === undefined) unreadable += 1;
    else adopted.push(action);
  }
  for (const [workload, value] of controls) {
    const control = parseActionControlRecord(value);
    if (control === undefined) unreadable += 1;
    else parsedControls.set(workload, control);
  }
  return { adopted, controls: parsedControls, unreadable };
}
