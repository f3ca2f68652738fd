/**
 * A small reflector (operator.md §12.2): paged list, then a watch with bookmarks and a spread
 * timeoutSeconds, resuming from the last resourceVersion; 410 Gone relists and synthesizes deletes
 * for objects that vanished; a watchdog aborts a silent watch; other errors back off with full
 * jitter. Handlers only see (type, object); `hasSynced()` resolves after the first full list.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { Watch } from '@kubernetes/client-node';

export interface KubeObject {
  metadata?: { name?: string; namespace?: string; resourceVersion?: string; uid?: string };
}

export type ReflectorEvent = 'add' | 'update' | 'delete';

export interface ReflectorHooks {
  restart?(reason: string): void;
  event?(type: string): void;
  relist?(): void;
}

interface ListPage<T> {
  items: T[];
  metadata?: { resourceVersion?: string; continue?: string };
}

export interface ReflectorOptions<T> {
  /** e.g. /apis/health.faultline.io/v1alpha1/suppressions (cluster-wide) */
  path: string;
  /** one page of the list (limit and continue token given) */
  listPage(limit: number, cont: string | undefined): Promise<ListPage<T>>;
  onEvent(type: ReflectorEvent, object: T): void;
  hooks?: ReflectorHooks;
  random?: () => number;
  /** list page size (default 500) */
  pageSize?: number;
}

export const objectKey = (o: KubeObject): string => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;

const errorCode = (error: unknown): number | undefined => {
  const e = error as { code?: unknown; statusCode?: unknown };
  if (typeof e?.code === 'number') return e.code;
  if (typeof e?.statusCode === 'number') return e.statusCode;
  return undefined;
};

export class Reflector<T extends KubeObject> {
  private readonly cache = new Map<string, T>();
  private resourceVersion: string | undefined;
  private stopped = false;
  private abort: AbortController | undefined;
  private watchdog: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private synced = false;
  private syncWaiters: (() => void)[] = [];
  private readonly random: () => number;

  constructor(
    private readonly kc: KubeConfig,
    private readonly options: ReflectorOptions<T>,
  ) {
    this.random = options.random ?? Math.random;
  }

  start(): void {
    this.stopped = false;
    void this.cycle();
  }

  /**
   * Starts again after stop(), watching from `resourceVersion` (default: the last one seen) with
   * the cache kept; a version the server no longer holds answers 410 and the reflector relists.
   */
  resume(resourceVersion?: string): void {
    if (resourceVersion !== undefined) this.resourceVersion = resourceVersion;
    this.start();
  }

  get lastResourceVersion(): string | undefined {
    return this.resourceVersion;
  }

  stop(): void {
    this.stopped = true;
    if (this.watchdog) clearTimeout(this.watchdog);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.abort?.abort();
  }

  hasSynced(): Promise<void> {
    if (this.synced) return Promise.resolve();
    return new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  get isSynced(): boolean {
    return this.synced;
  }

  list(): T[] {
    return [...this.cache.values()];
  }

  get(namespace: string, name: string): T | undefined {
    return this.cache.get(`${namespace}/${name}`);
  }

  private async cycle(): Promise<void> {
    if (this.stopped) return;
    try {
      if (this.resourceVersion === undefined) await this.relist();
      await this.watchOnce();
    } catch (error) {
      if (this.stopped) return;
      if (errorCode(error) === 410) {
        this.resourceVersion = undefined;
        this.options.hooks?.restart?.('gone');
        void this.cycle();
        return;
      }
      this.failures += 1;
      if (this.failures >= 5) this.resourceVersion = undefined;
      const cap = Math.min(30_000, 800 * 2 ** Math.min(this.failures - 1, 10));
      this.options.hooks?.restart?.('error');
      this.retryTimer = setTimeout(() => void this.cycle(), Math.floor(this.random() * cap));
      this.retryTimer.unref();
    }
  }

  private async relist(): Promise<void> {
    this.options.hooks?.relist?.();
    const seen = new Map<string, T>();
    let cont: string | undefined;
    let rv: string | undefined;
    for (;;) {
      let page: ListPage<T>;
      try {
        page = await this.options.listPage(this.options.pageSize ?? 500, cont);
      } catch (error) {
        if (cont !== undefined && errorCode(error) === 410) {
          seen.clear();
          cont = undefined;
          continue;
        }
        throw error;
      }
      for (const item of page.items) seen.set(objectKey(item), item);
      rv = page.metadata?.resourceVersion;
      cont = page.metadata?.continue || undefined;
      if (cont === undefined) break;
    }
    for (const [key, old] of this.cache) {
      if (!seen.has(key)) {
        this.cache.delete(key);
        this.options.onEvent('delete', old);
      }
    }
    for (const [key, item] of seen) {
      const old = this.cache.get(key);
      this.cache.set(key, item);
      if (old === undefined) this.options.onEvent('add', item);
      else if (old.metadata?.resourceVersion !== item.metadata?.resourceVersion) this.options.onEvent('update', item);
    }
    this.resourceVersion = rv;
    if (!this.synced) {
      this.synced = true;
      for (const w of this.syncWaiters.splice(0)) w();
    }
  }

  private watchOnce(): Promise<void> {
    const timeoutSeconds = 300 + Math.floor(this.random() * 300);
    const startedAt = Date.now();
    let delivered = false;
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const finish = (error: unknown): void => {
        if (settled) return;
        settled = true;
        if (this.watchdog) clearTimeout(this.watchdog);
        if (delivered || Date.now() - startedAt > 60_000) this.failures = 0;
        if (error) reject(error);
        else resolve();
      };
      const arm = (): void => {
        if (this.watchdog) clearTimeout(this.watchdog);
        this.watchdog = setTimeout(() => {
          this.options.hooks?.restart?.('watchdog');
          // settle first: abort() fires the done callback with an AbortError synchronously
          finish(undefined);
          this.abort?.abort();
        }, (timeoutSeconds + 60) * 1000);
        this.watchdog.unref();
      };
      arm();
      new Watch(this.kc)
        .watch(
          this.options.path,
          { resourceVersion: this.resourceVersion, allowWatchBookmarks: true, timeoutSeconds },
          (type: string, obj: T & { code?: number }) => {
            arm();
            this.options.hooks?.event?.(type);
            if (type === 'ERROR') {
              const code = obj.code;
              finish(Object.assign(new Error(`watch error ${String(code)}`), { code }));
              this.abort?.abort();
              return;
            }
            const rv = obj.metadata?.resourceVersion;
            if (rv !== undefined) this.resourceVersion = rv;
            if (type === 'BOOKMARK') return;
            delivered = true;
            const key = objectKey(obj);
            if (type === 'DELETED') {
              this.cache.delete(key);
              this.options.onEvent('delete', obj);
            } else {
              const had = this.cache.has(key);
              this.cache.set(key, obj);
              this.options.onEvent(had ? 'update' : 'add', obj);
            }
          },
          (err: unknown) => finish(err ?? undefined),
        )
        .then((controller) => {
          this.abort = controller;
          if (this.stopped) controller.abort();
        })
        .catch((err: unknown) => finish(err));
    }).then(() => {
      if (!this.stopped) void this.cycle();
    });
  }
}

/** What reconcilers read: a synced cache of one resource (one or several reflectors). */
export interface ObjectCache<T> {
  list(): T[];
  get(namespace: string, name: string): T | undefined;
  readonly isSynced: boolean;
  hasSynced(): Promise<void>;
  start(): void;
  stop(): void;
}

/** One reflector per watched namespace behind one cache (operator.watchNamespaces, §13). */
export class ReflectorSet<T extends KubeObject> implements ObjectCache<T> {
  constructor(private readonly parts: Reflector<T>[]) {}

  list(): T[] {
    return this.parts.flatMap((p) => p.list());
  }

  get(namespace: string, name: string): T | undefined {
    for (const p of this.parts) {
      const o = p.get(namespace, name);
      if (o !== undefined) return o;
    }
    return undefined;
  }

  get isSynced(): boolean {
    return this.parts.every((p) => p.isSynced);
  }

  async hasSynced(): Promise<void> {
    await Promise.all(this.parts.map((p) => p.hasSynced()));
  }

  start(): void {
    for (const p of this.parts) p.start();
  }

  stop(): void {
    for (const p of this.parts) p.stop();
  }
}
