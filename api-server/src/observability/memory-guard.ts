/**
 * The high-water guard (docs/memory.md): the service refuses telemetry of workloads it does not
 * know yet, instead of growing until it dies, while either
 * - the process's resident set size is above `highWater` × the memory limit (the container's), or
 * - V8's heap after its last major collection is above `highWater` × the heap's own limit
 *   (heap-after-gc.ts: near that limit V8 aborts the process, whatever the container allows).
 * Workloads it already analyses keep being served. The readings are taken at most every
 * `sampleEveryMs` (an ingest request asks every time).
 */
import type { HeapReading } from './heap-after-gc.js';
import type { MemoryLimit } from './memory-limit.js';

export interface MemoryGuardOptions {
  limit: MemoryLimit;
  /** fraction of the limit, (0, 1] */
  highWater: number;
  /** the process's resident set size in bytes (process.memoryUsage.rss) */
  rss: () => number;
  /** V8's heap after its last major collection and the heap's limit (HeapAfterGc.reading); undefined: not guarded */
  heap?: () => HeapReading;
  /** monotonic milliseconds (performance.now) */
  clock: () => number;
  sampleEveryMs?: number;
}

export interface MemoryGuardStatus {
  rss_bytes: number;
  limit_bytes: number | null;
  limit_source: MemoryLimit['source'];
  high_water: number;
  high_water_bytes: number | null;
  /** V8's used heap after its last major collection (0 before the first), and the heap's limit */
  heap_used_after_gc_bytes: number | null;
  heap_limit_bytes: number | null;
  heap_high_water_bytes: number | null;
  refusing_new_workloads: boolean;
  workloads_refused: number;
}

export class MemoryGuard {
  private readonly markBytes: number | undefined;
  private readonly sampleEveryMs: number;
  private lastRss = 0;
  private lastHeap: HeapReading | undefined;
  private sampledAt = Number.NEGATIVE_INFINITY;
  private refused = 0;

  constructor(private readonly options: MemoryGuardOptions) {
    this.markBytes = options.limit.bytes === undefined ? undefined : Math.floor(options.limit.bytes * options.highWater);
    this.sampleEveryMs = options.sampleEveryMs ?? 250;
  }

  /** reads the resident set size and the heap again when the last readings are older than sampleEveryMs */
  private sample(): void {
    const t = this.options.clock();
    if (t - this.sampledAt < this.sampleEveryMs) return;
    this.lastRss = this.options.rss();
    this.lastHeap = this.options.heap?.();
    this.sampledAt = t;
  }

  /** the resident set size (sampled) */
  rssBytes(): number {
    this.sample();
    return this.lastRss;
  }

  /** true while the resident size is above its mark (never without a known limit) */
  private rssHigh(): boolean {
    return this.markBytes !== undefined && this.rssBytes() > this.markBytes;
  }

  /** the heap's mark, undefined when the heap is not guarded */
  private heapMark(): number | undefined {
    return this.lastHeap === undefined ? undefined : Math.floor(this.lastHeap.limitBytes * this.options.highWater);
  }

  /** true while V8's heap after its last major collection is above its mark */
  private heapHigh(): boolean {
    this.sample();
    const mark = this.heapMark();
    return mark !== undefined && this.lastHeap!.usedAfterGcBytes > mark;
  }

  /** true while the resident size or V8's heap is above its mark */
  refusingNewWorkloads(): boolean {
    return this.rssHigh() || this.heapHigh();
  }

  /** counts workloads refused (one per new workload per refused request) */
  countRefused(n: number): void {
    this.refused += n;
  }

  /** the reason a 429 and the log name */
  reason(): string {
    const mb = (b: number | undefined): string => (b === undefined ? '?' : `${Math.round(b / 1_048_576)} MB`);
    if (!this.rssHigh() && this.heapHigh()) {
      const heap = this.lastHeap!;
      return `V8's heap after its last major collection, ${mb(heap.usedAfterGcBytes)}, is above the high-water mark ${mb(this.heapMark())} (${this.options.highWater} of the heap limit ${mb(heap.limitBytes)}, --max-old-space-size)`;
    }
    return `resident memory ${mb(this.lastRss)} is above the high-water mark ${mb(this.markBytes)} (${this.options.highWater} of the ${this.options.limit.source} limit ${mb(this.options.limit.bytes)})`;
  }

  status(): MemoryGuardStatus {
    const rss = this.rssBytes();
    const refusing = this.refusingNewWorkloads();
    const heap = this.lastHeap;
    return {
      rss_bytes: rss,
      limit_bytes: this.options.limit.bytes ?? null,
      limit_source: this.options.limit.source,
      high_water: this.options.highWater,
      high_water_bytes: this.markBytes ?? null,
      heap_used_after_gc_bytes: heap?.usedAfterGcBytes ?? null,
      heap_limit_bytes: heap?.limitBytes ?? null,
      heap_high_water_bytes: this.heapMark() ?? null,
      refusing_new_workloads: refusing,
      workloads_refused: this.refused,
    };
  }
}
