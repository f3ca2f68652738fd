/**
 * The restart branch of a HealthAction sync (action-reconciler.ts): after the gates passed, the
 * journal goes into the status (state Executing), the pod template is annotated
 * (restart-executor.ts), a `FaultlineRestarted` event is recorded on the Deployment and the result
 * is reported to the engine, as a scale is.
 */
import type { Logger } from 'pino';
import type { Condition, HealthAction, HealthActionExecution, HealthActionStatus } from '../crd-types.js';
import type { FaultlineObjects } from '../kube/custom-objects.js';
import type { EventRecorder } from '../kube/event-recorder.js';
import type { SidecarAction, SidecarClient } from '../sidecar/sidecar-client.js';
import { setCondition } from './conditions.js';
import type { RestartExecutor } from './restart-executor.js';
import { parseWorkload } from './scale-executor.js';

export interface RestartStepDeps {
  restarter: RestartExecutor;
  objects: FaultlineObjects;
  events: EventRecorder;
  sidecar: SidecarClient;
  logger: Logger;
  restarted?(outcome: string): void;
}

export interface SyncState {
  action: SidecarAction;
  execution: HealthActionExecution | undefined;
  conditions: Condition[] | undefined;
  status: HealthActionStatus;
}

export async function executeRestart(d: RestartStepDeps, obj: HealthAction, s: SyncState, now: Date): Promise<SyncState> {
  const gen = obj.metadata.generation;
  const id = s.action.id;
  let { execution, conditions, action } = s;
  const status = s.status;
  const outcome = await d.restarter.restart(
    action,
    execution,
    async (journal) => {
      execution = { ...execution, ...journal };
      await d.objects.patchStatus(obj, { ...status, state: 'Executing', execution, conditions });
    },
    now.getTime(),
  );
  if (outcome.kind === 'refused') {
    conditions = setCondition(conditions, 'Executed', 'False', outcome.reason, outcome.message, gen, now);
    action = await d.sidecar.reportResult(id, { outcome: 'failed', reason: outcome.reason, message: outcome.message, executor: 'faultline-operator' });
    d.restarted?.('failed');
    return { action, execution, conditions, status };
  }
  execution = { ...execution, restartedAt: outcome.restartedAt, finishedAt: now.toISOString(), dryRun: outcome.dryRun };
  status.executedAt = now.toISOString();
  const w = parseWorkload(action.workload);
  const note = `rolling restart of ${w.namespace}/${w.name} (${'kubectl.kubernetes.io/restartedAt'} ${outcome.restartedAt})`;
  conditions = setCondition(conditions, 'Executed', 'True', outcome.alreadyDone ? 'AlreadySatisfied' : 'Restarted', note, gen, now);
  if (!outcome.alreadyDone) {
    await d.events.record(
      { apiVersion: 'apps/v1', kind: 'Deployment', namespace: w.namespace, name: w.name },
      'Normal',
      'FaultlineRestarted',
      'Restart',
      `${note} for action ${id} (rupture ${action.rupture_id}, FusedR ${action.fused_rupture_index}, tier ${action.tier})`,
    );
  }
  action = await d.sidecar.reportResult(id, { outcome: 'executed', dry_run: outcome.dryRun, executor: 'faultline-operator' });
  execution.reportedToEngine = true;
  d.restarted?.(outcome.alreadyDone ? 'already_satisfied' : 'restarted');
  d.logger.info({ kind: 'HealthAction', namespace: obj.metadata.namespace, name: obj.metadata.name, actionId: id, restartedAt: outcome.restartedAt }, 'restart executed');
  return { action, execution, conditions, status };
}
