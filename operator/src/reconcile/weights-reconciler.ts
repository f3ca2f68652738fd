/**
 * WorkloadWeight CRs → the engine's one ordered list (operator.md §4, §7.2). Level-triggered: the
 * list is a function of the cached set; never posts before the cache has synced; posts only when
 * the engine's list differs; then fills each object's status.position / normalized / Applied.
 */
import type { Logger } from 'pino';
import type { WorkloadWeight } from '../crd-types.js';
import { WEIGHTED_SIGNALS } from '../crd-types.js';
import type { FaultlineObjects } from '../kube/custom-objects.js';
import type { ObjectCache } from '../kube/reflector.js';
import type { SidecarClient } from '../sidecar/sidecar-client.js';
import { SidecarError } from '../sidecar/sidecar-client.js';
import { setCondition } from './conditions.js';
import type { WeightEntry } from './weights-order.js';
import { planWeights, sameLists } from './weights-order.js';

export interface WeightsReconcilerDeps {
  objects: FaultlineObjects;
  cache: ObjectCache<WorkloadWeight>;
  sidecar: SidecarClient;
  operatorNamespace: string;
  logger: Logger;
  /** operator.weightsSource: with 'api' the operator only reports */
  source: 'crd' | 'api';
  driftCorrected?(): void;
}

export class WeightsReconciler {
  private posted = false;

  constructor(private readonly d: WeightsReconcilerDeps) {}

  async reconcile(): Promise<void> {
    if (!this.d.cache.isSynced) return;
    const { list, placements } = planWeights(this.d.cache.list(), this.d.operatorNamespace);
    let engine: WeightEntry[];
    let failure: { reason: string; message: string } | undefined;
    try {
      engine = (await this.d.sidecar.getWeights()) as WeightEntry[];
      if (this.d.source === 'crd' && !sameLists(list, engine)) {
        await this.d.sidecar.postWeights(list);
        if (this.posted) this.d.driftCorrected?.();
        this.posted = true;
        this.d.logger.info({ kind: 'WorkloadWeight', entries: list.length }, 'weights list posted to the engine');
        engine = (await this.d.sidecar.getWeights()) as WeightEntry[];
      }
      this.posted = true;
    } catch (error) {
      failure =
        error instanceof SidecarError && error.status === 400
          ? { reason: 'EngineRejected', message: error.message }
          : { reason: 'EngineUnavailable', message: (error as Error).message };
      engine = [];
    }
    const now = new Date();
    for (const p of placements) {
      const o = p.object;
      const gen = o.metadata.generation;
      const refusal = p.refusal ?? failure;
      const applied = refusal === undefined ? engine[(p.position ?? 0) - 1] : undefined;
      const conditions =
        refusal !== undefined
          ? setCondition(o.status?.conditions, 'Applied', 'False', refusal.reason, refusal.message, gen, now)
          : setCondition(o.status?.conditions, 'Applied', 'True', 'InEngine', `position ${p.position ?? 0} of the engine's list`, gen, now);
      const position = refusal === undefined ? (p.position ?? 0) : 0;
      const normalized = applied === undefined ? undefined : Object.fromEntries(WEIGHTED_SIGNALS.map((s) => [s, applied[s]]));
      const unchanged =
        o.status?.position === position &&
        JSON.stringify(o.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.message])) === JSON.stringify(conditions.map((c) => [c.type, c.status, c.reason, c.message])) &&
        o.status?.observedGeneration === gen;
      if (unchanged) continue;
      await this.d.objects.patchStatus(o, {
        observedGeneration: gen,
        position,
        ...(normalized === undefined ? {} : { normalized, lastAppliedTime: now.toISOString() }),
        conditions,
      });
    }
    if (failure !== undefined && failure.reason === 'EngineUnavailable') throw new Error(failure.message);
  }
}
