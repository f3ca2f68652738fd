/**
 * One outbound channel's delivery loop: reads the channel's envelopes from the outbox in order,
 * hands them to the channel, advances the channel's cursor for what was handled, and on a failure
 * waits with exponential backoff (with jitter) and offers the same envelopes again. The loop never
 * throws and never blocks the analyzer: an outage only grows the channel's backlog (bounded by the
 * outbox). Its counters feed /health and the self-metrics.
 */
import type { Envelope } from './envelope.js';
import type { EventOutbox } from './outbox.js';

/** What a channel reports when it handled only part of a batch before failing. */
export class DeliveryFailure extends Error {
  constructor(
    readonly reason: unknown,
    /** the sequence up to which the batch was handled (delivered or dropped), 0 for nothing */
    readonly handledThrough: number,
  ) {
    super(reason instanceof Error ? reason.message : String(reason));
    this.name = 'DeliveryFailure';
  }
}

export interface OutboundChannel {
  /** unique; the outbox cursor and the metric label */
  readonly name: string;
  /** `bus` or `sink` */
  readonly kind: 'bus' | 'sink';
  readonly batchSize: number;
  /** Connects; rejects when the peer is unreachable (retried with backoff). */
  open(): Promise<void>;
  /**
   * Delivers the batch in order. Resolves with the number dropped on purpose (permanent errors),
   * rejects (ideally with a DeliveryFailure saying how far it got) to have the rest offered again.
   */
  deliver(batch: readonly Envelope[]): Promise<{ dropped: number }>;
  close(): Promise<void>;
}

export interface DeliveryHooks {
  delivered(channel: string, count: number): void;
  failed(channel: string, error: unknown): void;
  dropped(channel: string, reason: string, count: number): void;
  log(level: 'info' | 'warn', fields: Record<string, unknown>, message: string): void;
}

export interface ChannelStatus {
  channel: string;
  kind: 'bus' | 'sink';
  connected: boolean;
  backlog: number;
  delivered: number;
  failures: number;
  consecutive_failures: number;
  last_error: string | null;
  last_error_at: string | null;
  last_delivery_at: string | null;
}

export interface BackoffPolicy {
  minMs: number;
  maxMs: number;
  /** idle poll: the loop also wakes on every append */
  idleMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { minMs: 250, maxMs: 30_000, idleMs: 5_000 };

/** Exponential backoff with full jitter in [d/2, d]: attempt 1 → minMs, doubling up to maxMs. */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxMs, policy.minMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

export class DeliveryWorker {
  private running = false;
  private loop: Promise<void> | undefined;
  private opened = false;
  private delivered = 0;
  private failures = 0;
  private consecutive = 0;
  private lastError: string | null = null;
  private lastErrorAtMs: number | null = null;
  private lastDeliveryAtMs: number | null = null;
  private sleeper: { timer: NodeJS.Timeout; resolve: () => void } | undefined;

  constructor(
    private readonly channel: OutboundChannel,
    private readonly outbox: EventOutbox,
    private readonly hooks: DeliveryHooks,
    private readonly policy: BackoffPolicy = DEFAULT_BACKOFF,
    private readonly random: () => number = Math.random,
  ) {}

  get name(): string {
    return this.channel.name;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops after the attempt in progress and closes the channel; the backlog stays in the outbox. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    this.outbox.wakeAll();
    await this.loop;
    await this.channel.close().catch(() => undefined);
    this.opened = false;
  }

  status(): ChannelStatus {
    return {
      channel: this.channel.name,
      kind: this.channel.kind,
      connected: this.opened && this.consecutive === 0,
      backlog: this.outbox.backlog(this.channel.name),
      delivered: this.delivered,
      failures: this.failures,
      consecutive_failures: this.consecutive,
      last_error: this.lastError,
      last_error_at: this.lastErrorAtMs === null ? null : new Date(this.lastErrorAtMs).toISOString(),
      last_delivery_at: this.lastDeliveryAtMs === null ? null : new Date(this.lastDeliveryAtMs).toISOString(),
    };
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        if (!this.opened) {
          await this.channel.open();
          this.opened = true;
          this.hooks.log('info', { channel: this.channel.name }, 'outbound channel connected');
        }
        const batch = await this.outbox.read(this.channel.name, this.channel.batchSize);
        if (batch.length === 0) {
          await this.outbox.waitForAppend(this.policy.idleMs);
          continue;
        }
        const { dropped } = await this.channel.deliver(batch);
        await this.outbox.ack(this.channel.name, batch[batch.length - 1]!.seq);
        this.succeeded(batch.length - dropped, dropped);
      } catch (error) {
        await this.failed(error);
      }
    }
  }

  private succeeded(count: number, dropped: number): void {
    if (this.consecutive > 0) this.hooks.log('info', { channel: this.channel.name, after_failures: this.consecutive }, 'outbound channel recovered');
    this.consecutive = 0;
    this.delivered += count;
    this.lastDeliveryAtMs = Date.now();
    if (count > 0) this.hooks.delivered(this.channel.name, count);
    if (dropped > 0) this.hooks.dropped(this.channel.name, 'rejected', dropped);
  }

  private async failed(error: unknown): Promise<void> {
    if (error instanceof DeliveryFailure && error.handledThrough > 0) {
      await this.outbox.ack(this.channel.name, error.handledThrough).catch(() => undefined);
    }
    const cause = error instanceof DeliveryFailure ? error.reason : error;
    this.failures += 1;
    this.consecutive += 1;
    this.lastError = cause instanceof Error ? cause.message : String(cause);
    this.lastErrorAtMs = Date.now();
    this.hooks.failed(this.channel.name, cause);
    const delay = backoffDelay(this.consecutive, this.policy, this.random);
    // one line on the first failure and then every 10th, so an outage does not flood the log
    if (this.consecutive === 1 || this.consecutive % 10 === 0) {
      this.hooks.log('warn', { channel: this.channel.name, error: this.lastError, attempt: this.consecutive, retry_in_ms: delay, backlog: this.outbox.backlog(this.channel.name) }, 'outbound delivery failed; retrying');
    }
    if (!this.opened) {
      // a failed connect: nothing to close
    } else if (this.consecutive % 5 === 0) {
      // reconnect after repeated failures: a half-open connection is the usual cause
      await this.channel.close().catch(() => undefined);
      this.opened = false;
    }
    await this.sleep(delay);
  }

  private sleep(ms: number): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.sleeper = undefined;
        resolve();
      }, ms);
      this.sleeper = { timer, resolve };
    });
  }

  private wake(): void {
    if (this.sleeper === undefined) return;
    clearTimeout(this.sleeper.timer);
    this.sleeper.resolve();
    this.sleeper = undefined;
  }
}
