/**
 * Cluster mode's action records in the state topic (see state-records.ts): `a|<id>` → an action,
 * `c|<workload>` → the workload's part of the engine's control state. Read back with zod: a record
 * of another version or a damaged one is skipped (and logged by the caller), never trusted.
 *
 * ClusterActionRepository is the action engine's repository in cluster mode: every change is
 * written to the workload's state partition (acks=all) before the engine goes on, so what the
 * engine answered is what a new owner adopts after a failover. Nothing is loaded at start: the
 * read view mirrors every replica's actions and the partition owner adopts its partitions'.
 */
import { z } from 'zod';
import type { Action } from '../actions/action.js';
import type { ActionControlState, ActionRepository, WorkloadActionControl } from '../actions/action-repository.js';
import { workloadControl } from '../actions/action-repository.js';
import type { OutgoingRecord, SerialProducer } from './serial-producer.js';
import { actionControlKey, actionKey } from './state-records.js';
import { partitionOf } from './workload-partition.js';

const finite = z.number().refine(Number.isFinite, 'must be finite');

export const actionSchema = z.object({
  id: z.string().min(1),
  workload: z.string().min(1),
  type: z.enum(['scale', 'restart', 'cordon', 'alert']),
  params: z.record(z.string(), z.union([z.string(), finite])),
  tier: z.union([z.literal(1), z.literal(2)]),
  state: z.enum(['pending', 'approved', 'executed', 'failed', 'rolled_back', 'rejected']),
  ruptureId: z.string(),
  createdAtMs: finite,
  updatedAtMs: finite,
  executedAtMs: finite.nullable(),
  description: z.string(),
  confidence: finite,
  fusedR: finite,
  triggerSignal: z.string(),
  previousReplicas: finite.nullable(),
  reason: z.string().nullable(),
  executor: z.enum(['internal', 'external']),
  approvedBy: z.enum(['engine', 'api']).nullable(),
  approvedAtMs: finite.nullable(),
  blockedBy: z.string().nullable(),
  rollbackRequested: z.boolean(),
  execution: z
    .object({ previousReplicas: finite.nullable(), replicas: finite.nullable(), executedAtMs: finite, dryRun: z.boolean(), executor: z.string() })
    .nullable(),
});

const workloadControlSchema = z.object({
  rateWindow: z.object({ startMs: finite, count: z.number().int().nonnegative() }).nullable(),
  lastExecutionMs: z.record(z.string(), finite),
  lastCreationMs: z.record(z.string(), finite),
});

function parseJson(value: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

/** the action in an `a|` record's value, or undefined when it is not a readable one */
export function parseActionRecord(value: string): Action | undefined {
  const parsed = actionSchema.safeParse(parseJson(value));
  return parsed.success ? parsed.data : undefined;
}

/** the control entries in a `c|` record's value, or undefined when it is not a readable one */
export function parseActionControlRecord(value: string): WorkloadActionControl | undefined {
  const parsed = workloadControlSchema.safeParse(parseJson(value));
  return parsed.success ? parsed.data : undefined;
}

export class ClusterActionRepository implements ActionRepository {
  private target: { producer: SerialProducer; partitions: number } | undefined;

  constructor(private readonly topic: string) {}

  /** the state topic's producer and partition count, once the cluster node has them */
  bind(producer: SerialProducer, partitions: number): void {
    this.target = { producer, partitions };
  }

  load(): Promise<{ actions: Action[]; control: ActionControlState | undefined }> {
    return Promise.resolve({ actions: [], control: undefined });
  }

  async commit(change: { put: Action[]; deleted: Action[]; control: ActionControlState }): Promise<void> {
    const workloads = new Set([...change.put, ...change.deleted].map((a) => a.workload));
    if (workloads.size === 0) return; // the emergency stop: the control topic carries it
    const target = this.target;
    if (target === undefined) throw new Error('cluster: the action records cannot be written before the replica joined');
    const partition = (workload: string): number => partitionOf(workload, target.partitions);
    const records: OutgoingRecord[] = [
      ...change.put.map((a) => ({ topic: this.topic, partition: partition(a.workload), key: actionKey(a.id), value: JSON.stringify(a) })),
      ...change.deleted.map((a) => ({ topic: this.topic, partition: partition(a.workload), key: actionKey(a.id) })),
      ...[...workloads].map((w) => ({ topic: this.topic, partition: partition(w), key: actionControlKey(w), value: JSON.stringify(workloadControl(change.control, w)) })),
    ];
    await target.producer.send(records);
  }
}
