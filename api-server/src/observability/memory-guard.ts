/**
 * The high-water guard (docs/memory.md): above `highWater` × the memory limit, measured on the
 * process's resident set size, the service refuses telemetry of workloads it does not know yet
 * instead of growing until the kernel kills it; workloads it already analyses keep being served.
 * The resident size is read at most every `sampleEveryMs` (an ingest request asks every time).
 */
import type { MemoryLimit } from './memory-limit.js';

export interface MemoryGuardOptions {
  limit: MemoryLimit;
  /** fraction of the limit, (0, 1] */
  highWater: number;
  /** the process's resident set size in bytes (process.memoryUsage.rss) */
  rss: () => number;
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
  refusing_new_workloads: boolean;
  workloads_refused: number;
}

export class MemoryGuard {
  private readonly markBytes: number | undefined;
  private readonly sampleEveryMs: number;
  private lastRss = 0;
  private sampledAt = Number.NEGATIVE_INFINITY;
  private refused = 0;

  constructor(private readonly options: MemoryGuardOptions) {
    this.markBytes = options.limit.bytes === undefined ? undefined : Math.floor(options.limit.bytes * options.highWater);
    this.sampleEveryMs = options.sampleEveryMs ?? 250;
  }

  /** the resident set size, read again when the last reading is older than sampleEveryMs */
  rssBytes(): number {
    const t = this.options.clock();
    if (t - this.sampledAt >= this.sampleEveryMs) {
      this.lastRss = this.options.rss();
      this.sampledAt = t;
    }
    return this.lastRss;
  }

  /** true while the resident size is above the mark (never without a known limit) */
  refusingNewWorkloads(): boolean {
    return this.markBytes !== undefined && this.rssBytes() > this.markBytes;
  }

  /** counts workloads refused (one per new workload per refused request) */
  countRefused(n: number): void {
    this.refused += n;
  }

  /** the reason a 429 and the log name */
  reason(): string {
    const mb = (b: number | undefined): string => (b === undefined ? '?' : `${Math.round(b / 1_048_576)} MB`);
    return `resident memory ${mb(this.lastRss)} is above the high-water mark ${mb(this.markBytes)} (${this.options.highWater} of the ${this.options.limit.source} limit ${mb(this.options.limit.bytes)})`;
  }

  status(): MemoryGuardStatus {
    const rss = this.rssBytes();
    const refusing = this.markBytes !== undefined && rss > this.markBytes;
    return {
      rss_bytes: rss,
      limit_bytes: this.options.limit.bytes ?? null,
      limit_source: this.options.limit.source,
      high_water: this.options.highWater,
      high_water_bytes: this.markBytes ?? null,
      refusing_new_workloads: refusing,
      workloads_refused: this.refused,
    };
  }
}
