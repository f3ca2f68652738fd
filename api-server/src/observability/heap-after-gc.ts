/**
 * V8's heap as its last major collection (mark-compact) left it, against the heap's limit
 * (`--max-old-space-size`). Read between collections, "heap used" counts garbage not collected yet
 * and swings by hundreds of MB under a backfill; read after a major collection it is what the
 * heap really holds. When it nears the limit, V8 aborts the process (a fatal "heap out of memory",
 * no chance to answer anyone), whatever the container's limit is: the memory guard therefore
 * reads it beside the resident size (memory-guard.ts).
 *
 * The reading is taken when the collection's performance entry is delivered (shortly after the
 * collection; what was allocated in between is counted too).
 */
import { PerformanceObserver, constants, type PerformanceEntry } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

export interface HeapReading {
  /** V8's used heap after the last major collection; 0 before the first */
  usedAfterGcBytes: number;
  /** the heap's limit (heap_size_limit) */
  limitBytes: number;
}

export class HeapAfterGc {
  private usedAfterGc = 0;
  private observer: PerformanceObserver | undefined;
  private readonly limitBytes = getHeapStatistics().heap_size_limit;

  /** starts listening for major collections */
  start(): void {
    if (this.observer !== undefined) return;
    this.observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
        if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
          this.usedAfterGc = getHeapStatistics().used_heap_size;
          return;
        }
      }
    });
    this.observer.observe({ entryTypes: ['gc'] });
  }

  stop(): void {
    this.observer?.disconnect();
    this.observer = undefined;
  }

  reading(): HeapReading {
    return { usedAfterGcBytes: this.usedAfterGc, limitBytes: this.limitBytes };
  }
}
