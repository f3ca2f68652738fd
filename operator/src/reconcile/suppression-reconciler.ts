/**
 * Suppression CR → sidecar window (operator.md §3, §7.1): finalizer, owner mark, create-then-delete
 * on spec change, crash idempotency by owner, phase from the clock, orphan sweep.
 */
import type { Logger } from 'pino';
import type { Condition, Suppression, SuppressionPhase } from '../crd-types.js';
import type { FaultlineObjects } from '../kube/custom-objects.js';
import type { SidecarClient, SidecarSuppression } from '../sidecar/sidecar-client.js';
import { SidecarError } from '../sidecar/sidecar-client.js';
import type { ObjectCache } from '../kube/reflector.js';
import { scopeRefusal, setCondition, statusDiffers } from './conditions.js';

export const SUPPRESSION_FINALIZER = 'health.faultline.io/engine-cleanup';

export const ownerOf = (s: Suppression): string => `k8s:${s.metadata.namespace ?? ''}/${s.metadata.name ?? ''}/${s.metadata.uid ?? ''}`;

export function phaseAt(spec: { start: string; end: string }, nowMs: number): SuppressionPhase {
  if (nowMs < Date.parse(spec.start)) return 'Upcoming';
  if (nowMs < Date.parse(spec.end)) return 'Active';
  return 'Expired';
}

const sameWindow = (w: SidecarSuppression, s: Suppression): boolean =>
  Date.parse(w.start) === Date.parse(s.spec.start) &&
  Date.parse(w.end) === Date.parse(s.spec.end) &&
  w.workload === s.spec.workload &&
  (w.reason ?? '') === (s.spec.reason ?? '') &&
  JSON.stringify([...(w.signals ?? [])].sort()) === JSON.stringify([...(s.spec.signals ?? [])].sort());

export interface SuppressionReconcilerDeps {
  objects: FaultlineObjects;
  cache: ObjectCache<Suppression>;
  sidecar: SidecarClient;
  operatorNamespace: string;
  logger: Logger;
  now?: () => number;
  /** re-enqueue this key after delayMs (next phase boundary) */
  requeue(key: string, delayMs: number): void;
}

export class SuppressionReconciler {
  constructor(private readonly d: SuppressionReconcilerDeps) {}

  private now(): number {
    return (this.d.now ?? Date.now)();
  }

  async reconcile(namespace: string, name: string): Promise<void> {
    const cached = this.d.cache.get(namespace, name);
    if (cached === undefined) return;
    let obj = (await this.d.objects.get<Suppression>('Suppression', namespace, name)) ?? undefined;
    if (obj === undefined) return;
    const finalizers = obj.metadata.finalizers ?? [];
    if (obj.metadata.deletionTimestamp !== undefined) {
      if (!finalizers.includes(SUPPRESSION_FINALIZER)) return;
      const owner = ownerOf(obj);
      for (const w of await this.d.sidecar.listSuppressions()) if (w.owner === owner) await this.d.sidecar.deleteSuppression(w.id);
      await this.d.objects.setFinalizers(obj, finalizers.filter((f) => f !== SUPPRESSION_FINALIZER));
      this.d.logger.info({ kind: 'Suppression', namespace, name }, 'window removed from the engine; finalizer released');
      return;
    }
    if (!finalizers.includes(SUPPRESSION_FINALIZER)) obj = await this.d.objects.setFinalizers(obj, [...finalizers, SUPPRESSION_FINALIZER]);

    const now = new Date(this.now());
    const gen = obj.metadata.generation;
    let conditions = obj.status?.conditions;
    const refusal = scopeRefusal(obj.spec.workload, namespace, this.d.operatorNamespace);
    if (refusal !== undefined) {
      conditions = setCondition(conditions, 'Accepted', 'False', refusal.reason, refusal.message, gen, now);
      const failed = { observedGeneration: gen, phase: 'Failed' as const, conditions };
      if (statusDiffers(obj.status, failed)) await this.d.objects.patchStatus(obj, { ...failed, lastSyncTime: now.toISOString() });
      return;
    }
    conditions = setCondition(conditions, 'Accepted', 'True', 'Accepted', 'the workload is inside this namespace', gen, now);
    const phase = phaseAt(obj.spec, now.getTime());
    const owner = ownerOf(obj);
    let windows: SidecarSuppression[];
    try {
      windows = (await this.d.sidecar.listSuppressions()).filter((w) => w.owner === owner);
    } catch (error) {
      await this.engineFailure(obj, conditions, error, now);
      throw error;
    }
    let id: string | undefined = windows.find((w) => sameWindow(w, obj))?.id;
    if (id === undefined && phase !== 'Expired') {
      try {
        const body = {
          workload: obj.spec.workload,
          start: obj.spec.start,
          end: obj.spec.end,
          owner,
          ...(obj.spec.reason === undefined ? {} : { reason: obj.spec.reason }),
          ...(obj.spec.signals === undefined ? {} : { signals: [...obj.spec.signals] }),
        };
        id = (await this.d.sidecar.createSuppression(body)).id;
        this.d.logger.info({ kind: 'Suppression', namespace, name, suppressionId: id, generation: gen }, 'window created in the engine');
      } catch (error) {
        await this.engineFailure(obj, conditions, error, now);
        if (error instanceof SidecarError && error.status === 400) return;
        throw error;
      }
    }
    // create first, then delete the windows this object no longer wants (no gap)
    for (const w of windows) if (w.id !== id) await this.d.sidecar.deleteSuppression(w.id);
    conditions =
      id === undefined
        ? setCondition(conditions, 'Synced', 'True', 'Ended', 'the window was over; nothing sent to the engine', gen, now)
        : setCondition(conditions, 'Synced', 'True', 'InEngine', `the engine holds window ${id}`, gen, now);
    const synced = { observedGeneration: gen, phase, ...(id === undefined ? {} : { suppressionId: id }), conditions };
    if (statusDiffers(obj.status, synced)) await this.d.objects.patchStatus(obj, { ...synced, lastSyncTime: now.toISOString() });
    const boundaries = [Date.parse(obj.spec.start), Date.parse(obj.spec.end)];
    if (obj.spec.ttlSecondsAfterExpiry !== undefined) boundaries.push(Date.parse(obj.spec.end) + obj.spec.ttlSecondsAfterExpiry * 1000);
    const next = boundaries.filter((b) => b > now.getTime()).sort((a, b) => a - b)[0];
    if (next !== undefined) this.d.requeue(`suppression/${namespace}/${name}`, next - now.getTime() + 1000);
    if (phase === 'Expired' && obj.spec.ttlSecondsAfterExpiry !== undefined && next === undefined) {
      await this.d.objects.delete('Suppression', namespace, name);
    }
  }

  private async engineFailure(obj: Suppression, conditions: Condition[] | undefined, error: unknown, now: Date): Promise<void> {
    const rejected = error instanceof SidecarError && error.status === 400;
    const next = setCondition(conditions, 'Synced', 'False', rejected ? 'EngineRejected' : 'EngineUnavailable', (error as Error).message, obj.metadata.generation, now);
    await this.d.objects.patchStatus(obj, { observedGeneration: obj.metadata.generation, phase: rejected ? 'Failed' : 'Pending', conditions: next, lastSyncTime: now.toISOString() });
  }

  /** Owner-marked windows whose uid matches no CR are deleted (on leadership start and every 60 s). */
  async sweep(): Promise<number> {
    const uids = new Set(this.d.cache.list().map((s) => s.metadata.uid));
    let removed = 0;
    for (const w of await this.d.sidecar.listSuppressions()) {
      if (w.owner === undefined || w.owner === null || !w.owner.startsWith('k8s:')) continue;
      const uid = w.owner.slice(w.owner.lastIndexOf('/') + 1);
      if (!uids.has(uid)) {
        await this.d.sidecar.deleteSuppression(w.id);
        removed += 1;
      }
    }
    return removed;
  }
}
