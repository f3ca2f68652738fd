/**
 * Wires the operator: reflectors for the three CRs, one work queue, the reconcilers, the mirror
 * poll and the sweep; only the Lease holder processes keys (operator.md §10, §11).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { AppsV1Api, AutoscalingV2Api, CoordinationV1Api, CoreV1Api, CustomObjectsApi, EventsV1Api } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { HealthAction, Suppression, WorkloadWeight } from './crd-types.js';
import { FaultlineObjects, isApiError } from './kube/custom-objects.js';
import { EventRecorder } from './kube/event-recorder.js';
import { LeaderElector } from './kube/leader-election.js';
import type { ObjectCache } from './kube/reflector.js';
import { Reflector, ReflectorSet } from './kube/reflector.js';
import { WorkQueue } from './kube/work-queue.js';
import type { OperatorMetrics } from './ops/operator-metrics.js';
import { ActionReconciler } from './reconcile/action-reconciler.js';
import { ScaleExecutor } from './reconcile/scale-executor.js';
import { RestartExecutor } from './reconcile/restart-executor.js';
import { SuppressionReconciler, phaseAt } from './reconcile/suppression-reconciler.js';
import { WeightsReconciler } from './reconcile/weights-reconciler.js';
import type { SidecarClient } from './sidecar/sidecar-client.js';
import type { OperatorSettings } from './settings.js';

export class Operator {
  readonly elector: LeaderElector;
  private readonly queue: WorkQueue;
  private readonly suppressions: ObjectCache<Suppression>;
  private readonly weights: ObjectCache<WorkloadWeight>;
  private readonly actions: ObjectCache<HealthAction>;
  private readonly supReconciler: SuppressionReconciler;
  private readonly weightsReconciler: WeightsReconciler;
  private readonly actionReconciler: ActionReconciler;
  private timers: NodeJS.Timeout[] = [];
  private leading = false;
  private weightsDebounce: NodeJS.Timeout | undefined;
  private lastUptime: number | undefined;

  constructor(
    kc: KubeConfig,
    private readonly settings: OperatorSettings,
    private readonly sidecar: SidecarClient,
    private readonly logger: Logger,
    private readonly metrics: OperatorMetrics,
    onLostLeadership: (reason: string) => void,
  ) {
    const objects = new FaultlineObjects(kc.makeApiClient(CustomObjectsApi));
    const core = kc.makeApiClient(CoreV1Api);
    const events = new EventRecorder(kc.makeApiClient(EventsV1Api), 'health.faultline.io/operator', settings.identity, logger);
    const cacheOf = <T extends Suppression | WorkloadWeight | HealthAction>(
      kind: T['kind'],
      options: { onEvent: (type: 'add' | 'update' | 'delete', o: T) => void; hooks: ReturnType<typeof hooks> },
    ): ObjectCache<T> => {
      const namespaces = settings.watchNamespaces ?? [undefined];
      return new ReflectorSet<T>(
        namespaces.map((ns) => new Reflector<T>(kc, { ...options, path: objects.path(kind, ns), listPage: (limit, cont) => objects.listPage<T>(kind, ns, limit, cont) })),
      );
    };
    const hooks = (resource: string) => ({
      restart: (reason: string) => metrics.watchRestarts.inc({ resource, reason }),
      event: (type: string) => metrics.watchEvents.inc({ resource, type }),
      relist: () => metrics.relists.inc({ resource }),
    });
    this.queue = new WorkQueue((key) => this.process(key), undefined, {
      failed: (key, error, retry) => logger.warn({ key, err: error, retryInMs: retry }, 'reconcile failed'),
    });
    this.suppressions = cacheOf<Suppression>('Suppression', {
      onEvent: (_t, o) => this.queue.add(`suppression/${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`),
      hooks: hooks('suppressions'),
    });
    this.weights = cacheOf<WorkloadWeight>('WorkloadWeight', {
      onEvent: () => this.debounceWeights(),
      hooks: hooks('workloadweights'),
    });
    this.actions = cacheOf<HealthAction>('HealthAction', {
      onEvent: (_t, o) => this.queue.add(`action/${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`),
      hooks: hooks('healthactions'),
    });
    this.supReconciler = new SuppressionReconciler({
      objects,
      cache: this.suppressions,
      sidecar,
      operatorNamespace: settings.namespace,
      logger,
      requeue: (key, ms) => this.queue.addAfter(key, ms),
    });
    this.weightsReconciler = new WeightsReconciler({ objects, cache: this.weights, sidecar, operatorNamespace: settings.namespace, logger, source: settings.weightsSource });
    const executor = new ScaleExecutor(kc.makeApiClient(AppsV1Api), kc.makeApiClient(AutoscalingV2Api), core, {
      maxReplicas: settings.maxReplicas,
      maxStep: settings.maxStep,
      maxActionAgeMs: settings.maxActionAgeMinutes * 60_000,
      dryRun: settings.dryRun,
      executionNamespaces: settings.executionNamespaces,
    });
    this.actionReconciler = new ActionReconciler({
      objects,
      cache: this.actions,
      sidecar,
      executor,
      restarter: new RestartExecutor(kc.makeApiClient(AppsV1Api), { dryRun: settings.dryRun }),
      events,
      operatorNamespace: settings.namespace,
      logger,
      isLeader: () => this.leading,
      enqueue: (ns, name) => this.queue.add(`action/${ns}/${name}`),
      scaled: (outcome) => metrics.scale.inc({ outcome }),
      restarted: (outcome) => metrics.restart.inc({ outcome }),
      namespaceExists: async (ns) => {
        try {
          await core.readNamespace({ name: ns });
          return true;
        } catch (error) {
          if (isApiError(error, 404)) return false;
          throw error;
        }
      },
      gateContext: async () => {
        const health = await sidecar.health();
        const now = Date.now();
        return {
          emergencyStop: health.emergency_stop === true,
          nowMs: now,
          activeSuppression: (workload) =>
            this.suppressions.list().some((s) => {
              const w = s.spec.workload;
              const covers = w === '*' || w === workload || (w.endsWith('/*') && workload.startsWith(w.slice(0, -1)));
              return covers && phaseAt(s.spec, now) === 'Active' && s.spec.signals === undefined;
            }),
        };
      },
    });
    this.elector = new LeaderElector(
      kc.makeApiClient(CoordinationV1Api),
      { namespace: settings.namespace, name: 'faultline-operator', identity: settings.identity, leaseDurationSeconds: settings.leaseDurationSeconds, renewDeadlineMs: settings.renewDeadlineMs, retryPeriodMs: settings.retryPeriodMs },
      {
        startedLeading: () => void this.startLeading(),
        stoppedLeading: (reason) => {
          this.leading = false;
          metrics.leader.set(0);
          onLostLeadership(reason);
        },
      },
    );
  }

  /** Re-enqueues every key now (the periodic resync and the 60 s drift check do the same). */
  resyncNow(): void {
    if (this.leading) this.enqueueAll();
  }

  /** The orphan sweep of §7.1 now (it also runs on leadership start and every 60 s). */
  sweepNow(): Promise<number> {
    return this.supReconciler.sweep();
  }

  get isLeader(): boolean {
    return this.leading;
  }

  async start(): Promise<void> {
    this.suppressions.start();
    this.weights.start();
    this.actions.start();
    this.elector.start();
  }

  private async startLeading(): Promise<void> {
    await Promise.all([this.suppressions.hasSynced(), this.weights.hasSynced(), this.actions.hasSynced()]);
    this.leading = true;
    this.metrics.leader.set(1);
    this.logger.info({ leader: true, identity: this.settings.identity }, 'leading');
    this.enqueueAll();
    const pollLoop = (): void => {
      this.queue.add('engine-actions');
      const t = setTimeout(pollLoop, this.settings.actionPollSeconds * 1000);
      this.timers.push(t);
    };
    pollLoop();
    this.timers.push(setInterval(() => {
      this.queue.add('sweep');
      this.queue.add('weights');
    }, 60_000));
    this.timers.push(setInterval(() => this.enqueueAll(), this.settings.resyncMinutes * 60_000));
  }

  private enqueueAll(): void {
    for (const s of this.suppressions.list()) this.queue.add(`suppression/${s.metadata.namespace ?? ''}/${s.metadata.name ?? ''}`);
    this.queue.add('weights');
    this.queue.add('sweep');
    this.queue.add('engine-actions');
  }

  /** A drop of uptime_seconds means the sidecar restarted: re-run the sweep and the weights sync at once (§7.4). */
  private async noticeSidecarRestart(): Promise<void> {
    const uptime = (await this.sidecar.health()).uptime_seconds;
    if (this.lastUptime !== undefined && uptime < this.lastUptime) {
      this.logger.warn({ uptime, before: this.lastUptime }, 'sidecar restarted; re-syncing suppressions and weights');
      this.enqueueAll();
    }
    this.lastUptime = uptime;
  }

  private debounceWeights(): void {
    if (this.weightsDebounce) clearTimeout(this.weightsDebounce);
    this.weightsDebounce = setTimeout(() => this.queue.add('weights'), 500);
  }

  private async process(key: string): Promise<void> {
    if (!this.leading) return;
    const kind = key.split('/')[0] ?? key;
    const end = this.metrics.reconcileDuration.startTimer({ kind });
    try {
      const [, ns = '', name = ''] = key.split('/');
      if (kind === 'suppression') await this.supReconciler.reconcile(ns, name);
      else if (kind === 'weights') await this.weightsReconciler.reconcile();
      else if (kind === 'action') await this.actionReconciler.sync(ns, name);
      else if (kind === 'engine-actions') {
        await this.noticeSidecarRestart();
        await this.actionReconciler.poll();
      }
      else if (kind === 'sweep') await this.supReconciler.sweep();
      this.metrics.reconciles.inc({ kind, result: 'ok' });
    } catch (error) {
      this.metrics.reconciles.inc({ kind, result: 'error' });
      throw error;
    } finally {
      end();
      this.metrics.queueDepth.set(this.queue.length);
    }
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    if (this.weightsDebounce) clearTimeout(this.weightsDebounce);
    this.queue.stop();
    this.suppressions.stop();
    this.weights.stop();
    this.actions.stop();
    this.leading = false;
    await this.elector.stop();
  }
}
