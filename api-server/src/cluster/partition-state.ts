/**
 * The latest records of one state-topic partition, by kind: what a new owner imports before it
 * analyses the partition's workloads (analysis states, views, actions and their control state).
 */
import type { Consumer } from '@platformatic/kafka';
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
