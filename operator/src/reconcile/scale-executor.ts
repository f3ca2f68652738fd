/**
 * Executes an approved scale action on a Deployment (operator.md §9): safety gates of §9.3 in
 * order (the same gates guard a restart, restart-executor.ts, but the autoscaler one),
 * order, target with clamps, write-ahead journal in the HealthAction status before the scale,
 * PUT /scale with the read resourceVersion (compare-and-set, ≤5 tries), then report. Rollback
 * (§9.4) restores previousReplicas only when spec.replicas still equals the journalled target.
 */
import type { AppsV1Api, AutoscalingV2Api, CoreV1Api, V1Scale } from '@kubernetes/client-node';
import { ApiException } from '@kubernetes/client-node';
import type { HealthAction, HealthActionExecution } from '../crd-types.js';
import type { SidecarAction } from '../sidecar/sidecar-client.js';

export interface ScaleSettings {
  maxReplicas: number;
  /** undefined: max(2, current) */
  maxStep?: number;
  maxActionAgeMs: number;
  dryRun: boolean;
  executionNamespaces?: string[];
}

export interface GateContext {
  emergencyStop: boolean;
  namespaceAllowlist?: string[];
  activeSuppression(workload: string): boolean;
  nowMs: number;
}

export type ScaleOutcome =
  | { kind: 'executed'; previous: number; target: number; observed: number; alreadySatisfied: boolean; clampNote?: string; dryRun: boolean }
  | { kind: 'refused'; reason: string; message: string }
  | { kind: 'defer'; reason: string; message: string };

const code = (error: unknown): number | undefined => (error instanceof ApiException ? error.code : undefined);

export function parseWorkload(key: string): { namespace: string; kind: string; name: string } {
  const [namespace = '', kind = '', ...rest] = key.split('/');
  return { namespace, kind, name: rest.join('/') };
}

export class ScaleExecutor {
  constructor(
    private readonly apps: AppsV1Api,
    private readonly autoscaling: AutoscalingV2Api,
    private readonly core: CoreV1Api,
    private readonly settings: ScaleSettings,
  ) {}

  /** §9.3 gates; undefined when the action may run. */
  async gate(action: SidecarAction, ctx: GateContext): Promise<Extract<ScaleOutcome, { kind: 'refused' | 'defer' }> | undefined> {
    if (action.type !== 'scale' && action.type !== 'restart') return { kind: 'refused', reason: 'UnsupportedActionType', message: `${action.type} actions are not executed by the operator` };
    const w = parseWorkload(action.workload);
    if (w.kind !== 'Deployment') return { kind: 'refused', reason: 'UnsupportedTargetKind', message: `${w.kind} targets are not executed in v1alpha1` };
    let deployment;
    try {
      deployment = await this.apps.readNamespacedDeployment({ namespace: w.namespace, name: w.name });
    } catch (error) {
      if (code(error) === 404) return { kind: 'defer', reason: 'TargetNotFound', message: `deployment ${w.namespace}/${w.name} not found` };
      if (code(error) === 403) return { kind: 'refused', reason: 'Forbidden', message: `get deployments in ${w.namespace} is forbidden` };
      throw error;
    }
    if (deployment.metadata?.deletionTimestamp !== undefined) return { kind: 'refused', reason: 'TargetNotFound', message: `deployment ${w.namespace}/${w.name} is being deleted` };
    const automatic = action.approved_by === 'engine';
    if (this.settings.executionNamespaces !== undefined && !this.settings.executionNamespaces.includes(w.namespace)) {
      return { kind: 'refused', reason: 'NamespaceNotAllowed', message: `${w.namespace} is not in operator.executionNamespaces` };
    }
    if (automatic && ctx.namespaceAllowlist !== undefined && ctx.namespaceAllowlist.length > 0 && !ctx.namespaceAllowlist.includes(w.namespace)) {
      return { kind: 'refused', reason: 'NamespaceNotAllowed', message: `${w.namespace} is not in the engine's namespace_allowlist` };
    }
    const optOut = 'health.faultline.io/automation';
    if (deployment.metadata?.annotations?.[optOut] === 'disabled') return { kind: 'refused', reason: 'OptedOut', message: `deployment carries ${optOut}: disabled` };
    const ns = await this.core.readNamespace({ name: w.namespace });
    if (ns.metadata?.annotations?.[optOut] === 'disabled') return { kind: 'refused', reason: 'OptedOut', message: `namespace carries ${optOut}: disabled` };
    // an autoscaler owns the replica count, not the pods: a restart under one is fine
    const hpas = action.type === 'scale' ? (await this.autoscaling.listNamespacedHorizontalPodAutoscaler({ namespace: w.namespace })).items : [];
    const hpa = hpas.find((h) => h.spec?.scaleTargetRef.kind === 'Deployment' && h.spec.scaleTargetRef.name === w.name);
    if (hpa !== undefined) return { kind: 'refused', reason: 'ManagedByAutoscaler', message: `HorizontalPodAutoscaler ${hpa.metadata?.name ?? ''} manages this deployment` };
    const observed = deployment.status?.observedGeneration;
    if (observed !== undefined && observed < (deployment.metadata?.generation ?? 0)) {
      return { kind: 'defer', reason: 'RolloutInProgress', message: 'the deployment controller has not observed the latest generation' };
    }
    if (automatic && ctx.nowMs - Date.parse(action.created_at) > this.settings.maxActionAgeMs) return { kind: 'refused', reason: 'Stale', message: 'the automatic action is older than operator.maxActionAge' };
    if (automatic && ctx.emergencyStop) return { kind: 'refused', reason: 'GateEmergencyStop', message: 'emergency stop is active; automatic executions are refused' };
    if (automatic && ctx.activeSuppression(action.workload)) return { kind: 'refused', reason: 'GateSuppression', message: 'an active Suppression covers the workload' };
    return undefined;
  }

  /**
   * Steps 2-5 of §9.2. `journal` writes status.execution before the scale; a journal that already
   * says Executing supplies the previousReplicas to keep (the same action scales at most once).
   */
  async scale(action: SidecarAction, previousJournal: HealthActionExecution | undefined, journal: (e: HealthActionExecution) => Promise<void>): Promise<ScaleOutcome> {
    const w = parseWorkload(action.workload);
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const scale = await this.apps.readNamespacedDeploymentScale({ namespace: w.namespace, name: w.name });
      const current = scale.spec?.replicas ?? 0;
      if (previousJournal?.targetReplicas !== undefined && previousJournal.previousReplicas !== undefined && current === previousJournal.targetReplicas) {
        return { kind: 'executed', previous: previousJournal.previousReplicas, target: current, observed: current, alreadySatisfied: false, dryRun: this.settings.dryRun };
      }
      const base = previousJournal?.previousReplicas ?? current;
      const replicas = Number(action.params['replicas']);
      const delta = Number(action.params['delta']);
      const wanted = Number.isFinite(replicas) ? replicas : Number.isFinite(delta) ? base + delta : NaN;
      if (!Number.isFinite(wanted)) return { kind: 'refused', reason: 'InvalidParams', message: 'a scale action needs params.replicas or params.delta' };
      const step = this.settings.maxStep ?? Math.max(2, base);
      let target = Math.min(Math.max(1, wanted), this.settings.maxReplicas, base + step);
      const clampNote = target !== wanted ? `target ${wanted} clamped to ${target}` : undefined;
      const up = Number.isFinite(delta) ? delta > 0 : wanted > base;
      if (up && target <= current) {
        return { kind: 'executed', previous: current, target: current, observed: current, alreadySatisfied: true, dryRun: this.settings.dryRun };
      }
      target = Math.round(target);
      await journal({ previousReplicas: base, targetReplicas: target, attempts: (previousJournal?.attempts ?? 0) + attempt, startedAt: new Date().toISOString(), dryRun: this.settings.dryRun });
      try {
        const written = await this.putScale(w, scale, target);
        return { kind: 'executed', previous: base, target, observed: written.spec?.replicas ?? target, alreadySatisfied: false, dryRun: this.settings.dryRun, ...(clampNote === undefined ? {} : { clampNote }) };
      } catch (error) {
        if (code(error) === 409) continue;
        if (code(error) === 403) return { kind: 'refused', reason: 'Forbidden', message: `update deployments/scale in ${w.namespace} is forbidden` };
        if (code(error) === 404) return { kind: 'refused', reason: 'TargetNotFound', message: `deployment ${w.namespace}/${w.name} not found` };
        throw error;
      }
    }
    return { kind: 'refused', reason: 'Conflict', message: 'the deployment changed during 5 attempts to scale it' };
  }

  /** §9.4: restore previousReplicas when spec.replicas still equals the journalled target. */
  async rollback(action: SidecarAction, journal: HealthActionExecution): Promise<{ ok: true; replicas: number } | { ok: false; reason: string; message: string }> {
    const w = parseWorkload(action.workload);
    const previous = journal.previousReplicas ?? action.execution?.previous_replicas ?? undefined;
    const target = journal.targetReplicas ?? action.execution?.replicas ?? undefined;
    if (previous === undefined || previous === null || target === undefined || target === null) return { ok: false, reason: 'NoJournal', message: 'no execution journal to restore from' };
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const scale = await this.apps.readNamespacedDeploymentScale({ namespace: w.namespace, name: w.name });
      const current = scale.spec?.replicas ?? 0;
      if (current === previous) return { ok: true, replicas: previous };
      if (current !== target) return { ok: false, reason: 'ReplicasChangedSinceExecution', message: `replicas are ${current}, not the ${target} the action set` };
      try {
        await this.putScale(w, scale, previous);
        return { ok: true, replicas: previous };
      } catch (error) {
        if (code(error) === 409) continue;
        throw error;
      }
    }
    return { ok: false, reason: 'Conflict', message: 'the deployment changed during 5 attempts to restore it' };
  }

  private async putScale(w: { namespace: string; name: string }, read: V1Scale, replicas: number): Promise<V1Scale> {
    const body: V1Scale = {
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name: w.name, namespace: w.namespace, resourceVersion: read.metadata?.resourceVersion },
      spec: { replicas },
    };
    return this.apps.replaceNamespacedDeploymentScale({ namespace: w.namespace, name: w.name, body, ...(this.settings.dryRun ? { dryRun: 'All' } : {}) });
  }
}

export type { HealthAction };
