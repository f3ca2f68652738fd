/**
 * HealthAction mirror (operator.md §5, §7.3, §8, §9): every pending/approved engine action gets a
 * CR with the deterministic name; the CR's switches become approve/reject/rollback commands; an
 * approved scale (scale-executor.ts) or restart (restart-step.ts) is executed and reported with
 * POST /actions/{id}/result;
 * status is recomputed from the engine on every sync.
 */
import type { Logger } from 'pino';
import type { Condition, HealthAction, HealthActionExecution, HealthActionState, HealthActionStatus } from '../crd-types.js';
import { API_VERSION, healthActionName } from '../crd-types.js';
import type { FaultlineObjects } from '../kube/custom-objects.js';
import { isApiError } from '../kube/custom-objects.js';
import type { EventRecorder } from '../kube/event-recorder.js';
import type { ObjectCache } from '../kube/reflector.js';
import type { SidecarAction, SidecarClient } from '../sidecar/sidecar-client.js';
import { SidecarError } from '../sidecar/sidecar-client.js';
import { setCondition, statusDiffers } from './conditions.js';
import type { GateContext, ScaleExecutor } from './scale-executor.js';
import { parseWorkload } from './scale-executor.js';
import type { RestartExecutor } from './restart-executor.js';
import { executeRestart } from './restart-step.js';

export const ACTION_FINALIZER = 'health.faultline.io/reject-on-delete';
export const MANAGED_BY = { 'app.kubernetes.io/managed-by': 'faultline-operator' } as const;

export interface ActionReconcilerDeps {
  objects: FaultlineObjects;
  cache: ObjectCache<HealthAction>;
  sidecar: SidecarClient;
  executor: ScaleExecutor;
  restarter: RestartExecutor;
  events: EventRecorder;
  operatorNamespace: string;
  namespaceExists(ns: string): Promise<boolean>;
  gateContext(): Promise<GateContext>;
  isLeader(): boolean;
  /** queue `action/<ns>/<name>`: the work queue never runs one key twice at once, so one object is never executed concurrently */
  enqueue(namespace: string, name: string): void;
  logger: Logger;
  scaled?(outcome: string): void;
  restarted?(outcome: string): void;
}

export function stateOf(action: SidecarAction | undefined, journal: HealthActionExecution | undefined, rejectSent: boolean): HealthActionState {
  if (action === undefined) return rejectSent ? 'Rejected' : 'Expired';
  switch (action.state) {
    case 'pending':
      return 'Pending';
    case 'approved':
      return journal?.startedAt !== undefined && journal.finishedAt === undefined ? 'Executing' : 'Approved';
    case 'executed':
      return action.rollback_requested ? 'RollingBack' : 'Executed';
    case 'rolled_back':
      return 'RolledBack';
    case 'failed':
      return action.reason?.startsWith('rejected') === true || rejectSent ? 'Rejected' : 'Failed';
  }
}

const gateReason = (gate: string): string => `Gate${gate.split('_').map((p) => p.charAt(0).toUpperCase() + p.slice(1)).join('')}`;

export class ActionReconciler {
  private readonly rejectSent = new Set<string>();
  /** TargetNotFound is deferred 3 polls (the Deployment may be created late), then reported failed */
  private readonly missingTarget = new Map<string, number>();

  constructor(private readonly d: ActionReconcilerDeps) {}

  /** The mirror poll: create CRs for new live actions, then queue every managed CR for a sync. */
  async poll(): Promise<void> {
    const actions = await this.d.sidecar.listActions();
    const known = new Set(this.d.cache.list().map((h) => h.spec.actionId));
    for (const a of actions) {
      if (known.has(a.id) || (a.state !== 'pending' && a.state !== 'approved')) continue;
      await this.create(a);
    }
    for (const h of this.d.cache.list()) {
      if (h.metadata.labels?.['app.kubernetes.io/managed-by'] !== MANAGED_BY['app.kubernetes.io/managed-by']) continue;
      this.d.enqueue(h.metadata.namespace ?? '', h.metadata.name ?? '');
    }
  }

  private async create(a: SidecarAction): Promise<void> {
    const w = parseWorkload(a.workload);
    const namespace = (await this.d.namespaceExists(w.namespace)) ? w.namespace : this.d.operatorNamespace;
    const params: Record<string, string | number> = {};
    for (const k of ['replicas', 'delta', 'reason', 'dependency', 'strategy', 'event']) if (a.params[k] !== undefined) params[k] = a.params[k] as string | number;
    const body: HealthAction = {
      apiVersion: API_VERSION,
      kind: 'HealthAction',
      metadata: {
        name: healthActionName(a.id),
        namespace,
        labels: {
          ...MANAGED_BY,
          'health.faultline.io/action-id': a.id,
          'health.faultline.io/tier': String(a.tier),
          'health.faultline.io/type': a.type,
          'health.faultline.io/workload-kind': w.kind,
          'health.faultline.io/workload-name': w.name.slice(0, 63).replace(/[^A-Za-z0-9._-]/g, '-'),
        },
        finalizers: [ACTION_FINALIZER],
      },
      spec: {
        actionId: a.id,
        workload: a.workload,
        type: a.type,
        params,
        tier: a.tier,
        ruptureId: a.rupture_id,
        description: a.description.slice(0, 1024),
        confidence: Math.min(1, Math.max(0, a.confidence)),
        fusedRuptureIndex: Math.min(10, Math.max(0, a.fused_rupture_index)),
        createdAt: a.created_at,
      },
    };
    try {
      await this.d.objects.create(body);
      this.d.logger.info({ kind: 'HealthAction', namespace, name: body.metadata.name, actionId: a.id }, 'action mirrored');
    } catch (error) {
      if (!isApiError(error, 409)) throw error;
    }
  }

  /** One object, read fresh from the API server (its status is the execution journal). */
  async sync(namespace: string, name: string): Promise<void> {
    if (!this.d.isLeader()) return;
    const obj = await this.d.objects.get<HealthAction>('HealthAction', namespace, name);
    if (obj === undefined) return;
    const id = obj.spec.actionId;
    let action = await this.d.sidecar.getAction(id);
    const gen = obj.metadata.generation;
    const now = new Date();
    let conditions: Condition[] | undefined = obj.status?.conditions;
    let execution = obj.status?.execution;
    const status: HealthActionStatus = { ...obj.status };
    const warn = async (reason: string, note: string, eventReason: string): Promise<void> => {
      await this.d.events.record({ apiVersion: API_VERSION, kind: 'HealthAction', namespace, name, uid: obj.metadata.uid }, 'Warning', eventReason, reason, note);
    };

    if (obj.metadata.deletionTimestamp !== undefined) {
      if (action !== undefined && (action.state === 'pending' || action.state === 'approved')) await this.command(id, 'reject');
      await this.d.objects.setFinalizers(obj, (obj.metadata.finalizers ?? []).filter((f) => f !== ACTION_FINALIZER));
      return;
    }

    // the human's switches
    const conditionAt = (type: string): Condition | undefined => conditions?.find((c) => c.type === type && c.observedGeneration === gen);
    if (action !== undefined && obj.spec.rejected === true && (action.state === 'pending' || action.state === 'approved')) {
      const r = await this.command(id, 'reject');
      this.rejectSent.add(id);
      if (r !== 'ok') conditions = setCondition(conditions, 'Approved', 'False', 'AlreadyTerminal', 'the action was already terminal', gen, now);
      action = await this.d.sidecar.getAction(id);
    } else if (action !== undefined && obj.spec.approved === true && action.state === 'pending' && conditionAt('Approved')?.reason !== 'EditionRequiresAutopilot') {
      const r = await this.command(id, 'approve');
      if (r === 'edition') {
        conditions = setCondition(conditions, 'Approved', 'False', 'EditionRequiresAutopilot', 'approval needs the autopilot edition (SVC_EDITION=autopilot)', gen, now);
        await warn('Approve', 'approval needs the autopilot edition (SVC_EDITION=autopilot)', 'ApprovalRefused');
      } else {
        status.approvedAt = now.toISOString();
      }
      action = await this.d.sidecar.getAction(id);
    }
    if (action !== undefined && obj.spec.rollbackRequested === true && action.state === 'executed' && !action.rollback_requested && conditionAt('RolledBack')?.reason !== 'EditionRequiresAutopilot') {
      const r = await this.command(id, 'rollback');
      if (r === 'edition') {
        conditions = setCondition(conditions, 'RolledBack', 'False', 'EditionRequiresAutopilot', 'rollback needs the autopilot edition (SVC_EDITION=autopilot)', gen, now);
        await warn('Rollback', 'rollback needs the autopilot edition (SVC_EDITION=autopilot)', 'ApprovalRefused');
      }
      action = await this.d.sidecar.getAction(id);
    }

    // execution of an approved action
    if (action !== undefined && action.state === 'approved') {
      const ctx = await this.d.gateContext();
      let refusal = await this.d.executor.gate(action, ctx);
      if (refusal?.kind === 'defer' && refusal.reason === 'TargetNotFound') {
        const seen = (this.missingTarget.get(id) ?? 0) + 1;
        this.missingTarget.set(id, seen);
        if (seen > 3) refusal = { ...refusal, kind: 'refused' };
      }
      if (refusal !== undefined) {
        conditions = setCondition(conditions, 'Executed', 'False', refusal.reason, refusal.message, gen, now);
        if (refusal.kind === 'refused') {
          action = await this.d.sidecar.reportResult(id, { outcome: 'failed', reason: refusal.reason, message: refusal.message, executor: 'faultline-operator' });
          if (action.type === 'restart') this.d.restarted?.('refused');
          else this.d.scaled?.('refused');
          await warn(action.type === 'restart' ? 'Restart' : 'Scale', `${refusal.reason}: ${refusal.message}`, action.type === 'restart' ? 'RestartRefused' : 'ScaleRefused');
        }
      } else if (action.type === 'restart') {
        ({ action, execution, conditions } = await executeRestart({ ...this.d, restarter: this.d.restarter }, obj, { action, execution, conditions, status }, now));
      } else {
        const outcome = await this.d.executor.scale(action, execution, async (journal) => {
          execution = { ...execution, ...journal };
          await this.d.objects.patchStatus(obj, { ...status, state: 'Executing', execution, conditions });
        });
        if (outcome.kind === 'executed') {
          execution = { ...execution, previousReplicas: outcome.previous, targetReplicas: outcome.target, observedReplicas: outcome.observed, finishedAt: now.toISOString(), dryRun: outcome.dryRun };
          status.executedAt = now.toISOString();
          conditions = setCondition(conditions, 'Executed', 'True', outcome.alreadySatisfied ? 'AlreadySatisfied' : 'Scaled', outcome.clampNote ?? `replicas ${outcome.previous} → ${outcome.target}`, gen, now);
          const w = parseWorkload(action.workload);
          if (!outcome.alreadySatisfied) {
            await this.d.events.record(
              { apiVersion: 'apps/v1', kind: 'Deployment', namespace: w.namespace, name: w.name },
              'Normal',
              'FaultlineScaled',
              'Scale',
              `scaled ${w.namespace}/${w.name} from ${outcome.previous} to ${outcome.target} for action ${id} (rupture ${action.rupture_id}, FusedR ${action.fused_rupture_index}, tier ${action.tier})`,
            );
          }
          action = await this.d.sidecar.reportResult(id, { outcome: 'executed', previous_replicas: outcome.previous, replicas: outcome.target, dry_run: outcome.dryRun, executor: 'faultline-operator' });
          execution.reportedToEngine = true;
          this.d.scaled?.(outcome.alreadySatisfied ? 'already_satisfied' : 'scaled');
          this.d.logger.info({ kind: 'HealthAction', namespace, name, actionId: id, previous: outcome.previous, target: outcome.target }, 'scale executed');
        } else {
          conditions = setCondition(conditions, 'Executed', 'False', outcome.reason, outcome.message, gen, now);
          if (outcome.kind === 'refused') {
            action = await this.d.sidecar.reportResult(id, { outcome: 'failed', reason: outcome.reason, message: outcome.message, executor: 'faultline-operator' });
            this.d.scaled?.('failed');
          }
        }
      }
    }

    // rollback of an executed action
    if (action !== undefined && action.state === 'executed' && action.rollback_requested) {
      const result = await this.d.executor.rollback(action, execution ?? {});
      const w = parseWorkload(action.workload);
      if (result.ok) {
        action = await this.d.sidecar.reportResult(id, { outcome: 'rolled_back', replicas: result.replicas, executor: 'faultline-operator' });
        conditions = setCondition(conditions, 'RolledBack', 'True', 'Restored', `replicas restored to ${result.replicas}`, gen, now);
        status.rolledBackAt = now.toISOString();
        await this.d.events.record({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: w.namespace, name: w.name }, 'Normal', 'FaultlineRolledBack', 'Rollback', `restored ${w.namespace}/${w.name} to ${result.replicas} replicas for action ${id}`);
      } else {
        action = await this.d.sidecar.reportResult(id, { outcome: 'rollback_failed', reason: result.reason, message: result.message, executor: 'faultline-operator' });
        conditions = setCondition(conditions, 'RolledBack', 'False', result.reason, result.message, gen, now);
      }
    }

    // status from the engine
    if (action === undefined) {
      conditions = setCondition(conditions, 'Synced', 'False', 'NotFoundInEngine', `the engine no longer knows ${id}`, gen, now);
    } else {
      conditions = setCondition(conditions, 'Synced', 'True', 'InEngine', `engine state ${action.state}`, gen, now);
      if (action.state === 'pending') {
        const blocked = action.blocked_by;
        if (conditionAt('Approved')?.reason !== 'EditionRequiresAutopilot') {
          conditions = setCondition(conditions, 'Approved', 'False', 'AwaitingApproval', blocked ? `held by the ${blocked} gate` : 'waiting for spec.approved', gen, now);
        }
        status.reason = blocked ? gateReason(blocked) : 'AwaitingApproval';
      } else if (action.approved_by !== null) {
        conditions = setCondition(conditions, 'Approved', 'True', action.approved_by === 'engine' ? 'AutoApproved' : 'ApprovedByUser', `approved by ${action.approved_by}`, gen, now);
      }
    }
    const state = stateOf(action, execution, this.rejectSent.has(id));
    const notTrue = (conditions ?? []).filter((c) => c.status !== 'True').sort((a, b) => a.lastTransitionTime.localeCompare(b.lastTransitionTime)).at(-1);
    const w = parseWorkload(obj.spec.workload);
    const next: HealthActionStatus = {
      ...status,
      observedGeneration: gen,
      state,
      ...(action === undefined ? {} : { engineState: action.state }),
      ...(notTrue === undefined ? {} : { reason: notTrue.reason, message: notTrue.message.slice(0, 2048) }),
      target: { apiVersion: 'apps/v1', kind: w.kind, namespace: w.namespace, name: w.name },
      ...(execution === undefined ? {} : { execution }),
      conditions,
    };
    if (statusDiffers(obj.status, next)) await this.d.objects.patchStatus(obj, { ...next, lastSyncTime: now.toISOString() });
  }

  private async command(id: string, verb: 'approve' | 'reject' | 'rollback'): Promise<'ok' | 'edition' | 'terminal'> {
    try {
      await this.d.sidecar.command(id, verb);
      return 'ok';
    } catch (error) {
      if (error instanceof SidecarError && error.status === 402) return 'edition';
      if (error instanceof SidecarError && (error.status === 404 || error.status === 409)) return 'terminal';
      throw error;
    }
  }
}
