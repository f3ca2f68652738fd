/**
 * Lease-based leader election (operator.md §11, the client-go algorithm restated): only the
 * holder of the `coordination.k8s.io/v1` Lease writes anything. Every write of the Lease is a
 * compare-and-set on its resourceVersion, so exactly one candidate wins; a follower takes over only
 * after it has seen the record unchanged for a whole lease duration on its own monotonic clock
 * (remote timestamps are never compared with the local clock).
 */
import type { CoordinationV1Api, V1Lease } from '@kubernetes/client-node';
import { ApiException, V1MicroTime } from '@kubernetes/client-node';

export interface LeaderElectionOptions {
  namespace: string;
  name: string;
  identity: string;
  leaseDurationSeconds: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

export interface LeaderCallbacks {
  startedLeading(): void;
  /** leadership lost (renew deadline passed or another holder seen): stop writing at once */
  stoppedLeading(reason: string): void;
}

export type LeaseStatus = 'standby' | 'leader' | 'stopped';

export class LeaderElector {
  private status: LeaseStatus = 'standby';
  private observedRecord = '';
  private observedAtMs = 0;
  private lastRenewMs = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopping = false;

  constructor(
    private readonly api: CoordinationV1Api,
    private readonly options: LeaderElectionOptions,
    private readonly callbacks: LeaderCallbacks,
    private readonly monotonicMs: () => number = () => performance.now(),
  ) {}

  get state(): LeaseStatus {
    return this.status;
  }

  start(): void {
    this.stopping = false;
    void this.loop();
  }

  /** Stops trying; a leader releases the Lease so a successor takes over within one retry period. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.status === 'leader') {
      try {
        const lease = await this.read();
        if (lease?.spec?.holderIdentity === this.options.identity) {
          lease.spec.holderIdentity = '';
          lease.spec.leaseDurationSeconds = 1;
          await this.api.replaceNamespacedLease({ name: this.options.name, namespace: this.options.namespace, body: lease });
        }
      } catch {
        // releasing is a courtesy: the lease expires on its own
      }
    }
    this.status = 'stopped';
  }

  private async loop(): Promise<void> {
    if (this.stopping) return;
    try {
      const held = await this.tryAcquireOrRenew();
      if (held) {
        this.lastRenewMs = this.monotonicMs();
        if (this.status !== 'leader') {
          this.status = 'leader';
          this.callbacks.startedLeading();
        }
      } else if (this.status === 'leader') {
        this.lose('another holder owns the lease');
        return;
      }
    } catch (error) {
      if (this.status === 'leader' && this.monotonicMs() - this.lastRenewMs > this.options.renewDeadlineMs) {
        this.lose(`could not renew within ${this.options.renewDeadlineMs} ms: ${(error as Error).message}`);
        return;
      }
    }
    if (this.status === 'leader' && this.monotonicMs() - this.lastRenewMs > this.options.renewDeadlineMs) {
      this.lose(`could not renew within ${this.options.renewDeadlineMs} ms`);
      return;
    }
    if (!this.stopping) {
      this.timer = setTimeout(() => void this.loop(), this.options.retryPeriodMs);
    }
  }

  private lose(reason: string): void {
    this.status = 'stopped';
    this.stopping = true;
    this.callbacks.stoppedLeading(reason);
  }

  private async read(): Promise<V1Lease | undefined> {
    try {
      return await this.api.readNamespacedLease({ name: this.options.name, namespace: this.options.namespace });
    } catch (error) {
      if (error instanceof ApiException && error.code === 404) return undefined;
      throw error;
    }
  }

  /** true when this candidate holds the lease after the call */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const now = new V1MicroTime();
    const lease = await this.read();
    if (lease === undefined) {
      try {
        await this.api.createNamespacedLease({
          namespace: this.options.namespace,
          body: {
            apiVersion: 'coordination.k8s.io/v1',
            kind: 'Lease',
            metadata: { name: this.options.name, namespace: this.options.namespace },
            spec: {
              holderIdentity: this.options.identity,
              leaseDurationSeconds: this.options.leaseDurationSeconds,
              acquireTime: now,
              renewTime: now,
              leaseTransitions: 0,
            },
          },
        });
        return true;
      } catch (error) {
        if (error instanceof ApiException && error.code === 409) return false;
        throw error;
      }
    }
    const spec = lease.spec ?? {};
    const record = `${spec.holderIdentity ?? ''}|${String(spec.renewTime?.getTime?.() ?? spec.renewTime ?? '')}|${lease.metadata?.resourceVersion ?? ''}`;
    if (record !== this.observedRecord) {
      this.observedRecord = record;
      this.observedAtMs = this.monotonicMs();
    }
    const holder = spec.holderIdentity ?? '';
    if (holder === this.options.identity) {
      lease.spec = { ...spec, renewTime: now, leaseDurationSeconds: this.options.leaseDurationSeconds };
      return this.replace(lease);
    }
    const durationMs = (spec.leaseDurationSeconds ?? this.options.leaseDurationSeconds) * 1000;
    const expired = holder === '' || this.monotonicMs() - this.observedAtMs >= durationMs;
    if (!expired) return false;
    lease.spec = {
      ...spec,
      holderIdentity: this.options.identity,
      leaseDurationSeconds: this.options.leaseDurationSeconds,
      acquireTime: now,
      renewTime: now,
      leaseTransitions: (spec.leaseTransitions ?? 0) + 1,
    };
    return this.replace(lease);
  }

  private async replace(lease: V1Lease): Promise<boolean> {
    try {
      await this.api.replaceNamespacedLease({ name: this.options.name, namespace: this.options.namespace, body: lease });
      return true;
    } catch (error) {
      if (error instanceof ApiException && error.code === 409) return false;
      throw error;
    }
  }
}
