/**
 * A rate-limited work queue with the client-go contract (operator.md §10.1): a key is never
 * processed twice at once, a key added while in flight is marked dirty and runs again afterwards,
 * failures back off per key (500 ms x 2^n with full jitter, capped), success resets the backoff,
 * and a global token bucket limits how fast keys start.
 */

export interface WorkQueueOptions {
  baseDelayMs: number;
  maxDelayMs: number;
  /** global start rate (tokens per second) and burst */
  ratePerSecond: number;
  burst: number;
  /** number of keys processed concurrently */
  workers: number;
  /** random source in [0, 1) for the jitter; injectable for tests */
  random?: () => number;
}

export type Reconcile = (key: string) => Promise<void>;

export interface WorkQueueHooks {
  failed?(key: string, error: unknown, retryInMs: number): void;
}

export const DEFAULT_WORK_QUEUE: WorkQueueOptions = { baseDelayMs: 500, maxDelayMs: 300_000, ratePerSecond: 10, burst: 100, workers: 2 };

export class WorkQueue {
  private readonly queue: string[] = [];
  private readonly queued = new Set<string>();
  private readonly inFlight = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly delayed = new Map<string, NodeJS.Timeout>();
  private tokens: number;
  private lastRefill = Date.now();
  private active = 0;
  private stopped = false;
  private wakeTimer: NodeJS.Timeout | undefined;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly reconcile: Reconcile,
    private readonly options: WorkQueueOptions = DEFAULT_WORK_QUEUE,
    private readonly hooks: WorkQueueHooks = {},
  ) {
    this.tokens = options.burst;
  }

  add(key: string): void {
    if (this.stopped) return;
    if (this.inFlight.has(key)) {
      this.dirty.add(key);
      return;
    }
    if (this.queued.has(key)) return;
    this.queued.add(key);
    this.queue.push(key);
    this.pump();
  }

  /** Adds `key` after `delayMs`, unless it is added sooner. */
  addAfter(key: string, delayMs: number): void {
    if (this.stopped || this.delayed.has(key)) return;
    const timer = setTimeout(() => {
      this.delayed.delete(key);
      this.add(key);
    }, delayMs);
    timer.unref();
    this.delayed.set(key, timer);
  }

  /** Forgets a key's failure history (the object is gone). */
  forget(key: string): void {
    this.failures.delete(key);
  }

  get length(): number {
    return this.queue.length;
  }

  /** Resolves when nothing is queued, delayed or in flight. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.delayed.values()) clearTimeout(timer);
    this.delayed.clear();
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.queue.length = 0;
    this.queued.clear();
  }

  private isIdle(): boolean {
    return this.queue.length === 0 && this.inFlight.size === 0 && this.delayed.size === 0;
  }

  private pump(): void {
    while (!this.stopped && this.active < this.options.workers && this.queue.length > 0) {
      if (!this.takeToken()) {
        this.scheduleWake();
        return;
      }
      const key = this.queue.shift() as string;
      this.queued.delete(key);
      this.inFlight.add(key);
      this.active += 1;
      void this.run(key);
    }
    if (this.isIdle()) this.notifyIdle();
  }

  private async run(key: string): Promise<void> {
    try {
      await this.reconcile(key);
      this.failures.delete(key);
    } catch (error) {
      const n = this.failures.get(key) ?? 0;
      this.failures.set(key, n + 1);
      const cap = Math.min(this.options.maxDelayMs, this.options.baseDelayMs * 2 ** n);
      const delay = Math.floor((this.options.random ?? Math.random)() * cap);
      this.hooks.failed?.(key, error, delay);
      this.addAfter(key, delay);
    } finally {
      this.inFlight.delete(key);
      this.active -= 1;
      if (this.dirty.delete(key)) this.add(key);
      this.pump();
    }
  }

  private takeToken(): boolean {
    const now = Date.now();
    this.tokens = Math.min(this.options.burst, this.tokens + ((now - this.lastRefill) / 1000) * this.options.ratePerSecond);
    this.lastRefill = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  private scheduleWake(): void {
    if (this.wakeTimer) return;
    const waitMs = Math.ceil(((1 - this.tokens) / this.options.ratePerSecond) * 1000);
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = undefined;
      this.pump();
    }, waitMs);
    this.wakeTimer.unref();
  }

  private notifyIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
