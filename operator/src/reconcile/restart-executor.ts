/**
 * Executes an approved restart action on a Deployment the way `kubectl rollout restart` does: the
 * pod template gets the annotation `kubectl.kubernetes.io/restartedAt` (RFC 3339 time), a
 * template change the Deployment controller rolls out pod by pod under the Deployment's own
 * rolling-update strategy. The same gates as scale run first (ScaleExecutor.gate); the time is
 * journalled in the HealthAction status before the patch, so a retried reconcile finds its own
 * annotation and restarts at most once.
 *
 * A restart has no rollback: the old pods are gone and nothing restores them (a second restart is
 * a new action, not an undo). The CRD refuses rollbackRequested on non-scale actions and the
 * engine answers 409 with the reason (api-server/src/actions/rollback-refusal.ts).
 */
import type { AppsV1Api } from '@kubernetes/client-node';
import { ApiException, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import type { HealthActionExecution } from '../crd-types.js';
import type { SidecarAction } from '../sidecar/sidecar-client.js';
import { parseWorkload } from './scale-executor.js';

export const RESTARTED_AT = 'kubectl.kubernetes.io/restartedAt';

export type RestartOutcome =
  | { kind: 'executed'; restartedAt: string; alreadyDone: boolean; dryRun: boolean }
  | { kind: 'refused'; reason: string; message: string };

const code = (error: unknown): number | undefined => (error instanceof ApiException ? error.code : undefined);

/** RFC 3339 without fractional seconds, as kubectl writes it */
export function restartStamp(nowMs: number): string {
  return new Date(nowMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export class RestartExecutor {
  constructor(
    private readonly apps: AppsV1Api,
    private readonly settings: { dryRun: boolean },
  ) {}

  /**
   * Writes the journal (`restartedAt`) and then patches the pod template. A journal that already
   * holds a time the template carries means the restart was done: it is reported, not repeated.
   */
  async restart(action: SidecarAction, previousJournal: HealthActionExecution | undefined, journal: (e: HealthActionExecution) => Promise<void>, nowMs: number): Promise<RestartOutcome> {
    const w = parseWorkload(action.workload);
    let current: string | undefined;
    try {
      const deployment = await this.apps.readNamespacedDeployment({ namespace: w.namespace, name: w.name });
      current = deployment.spec?.template.metadata?.annotations?.[RESTARTED_AT];
    } catch (error) {
      if (code(error) === 404) return { kind: 'refused', reason: 'TargetNotFound', message: `deployment ${w.namespace}/${w.name} not found` };
      throw error;
    }
    const journalled = previousJournal?.restartedAt;
    if (journalled !== undefined && current === journalled) return { kind: 'executed', restartedAt: journalled, alreadyDone: true, dryRun: this.settings.dryRun };
    const restartedAt = journalled ?? restartStamp(nowMs);
    await journal({ restartedAt, attempts: (previousJournal?.attempts ?? 0) + 1, startedAt: new Date(nowMs).toISOString(), dryRun: this.settings.dryRun });
    const body = { spec: { template: { metadata: { annotations: { [RESTARTED_AT]: restartedAt } } } } };
    try {
      await this.apps.patchNamespacedDeployment(
        { namespace: w.namespace, name: w.name, body, fieldManager: 'faultline-operator', ...(this.settings.dryRun ? { dryRun: 'All' } : {}) },
        setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
      );
    } catch (error) {
      if (code(error) === 403) return { kind: 'refused', reason: 'Forbidden', message: `patch deployments in ${w.namespace} is forbidden` };
      if (code(error) === 404) return { kind: 'refused', reason: 'TargetNotFound', message: `deployment ${w.namespace}/${w.name} not found` };
      throw error;
    }
    return { kind: 'executed', restartedAt, alreadyDone: false, dryRun: this.settings.dryRun };
  }
}
