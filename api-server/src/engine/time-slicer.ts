/**
 * Cooperative time slices for long synchronous work on the event loop (the analysis step and its
 * LevelDB batch): the work asks `pause()` at points where it may stop; once the current slice has
 * lasted its length, the pause resolves on the next turn of the event loop (setImmediate), so the
 * requests and socket events waiting meanwhile are served first; otherwise it returns undefined
 * and the work goes on at once. Every turn of the loop runs one slice, so neither side starves the
 * other: a request waits at most one slice, the work advances one slice per turn.
 *
 * Two lengths: `busyMs` when requests were served since the previous slice (`activity`, a
 * counter of them, moved), so ingest keeps most of the loop while it streams; `idleMs` otherwise,
 * so the work finishes fast when nothing else waits.
 */
import { performance } from 'node:perf_hooks';

export type Pause = () => Promise<void> | undefined;

export interface SliceLengths {
  idleMs: number;
  busyMs: number;
}

export class TimeSlicer {
  private started = performance.now();
  private seen: number;
  private length: number;

  constructor(
    private readonly lengths: SliceLengths,
    private readonly activity: () => number = () => 0,
  ) {
    this.seen = activity();
    this.length = lengths.idleMs;
  }

  /** a promise to await when the slice is used up (the next slice starts after it), else undefined */
  readonly pause: Pause = () => {
    if (performance.now() - this.started < this.length) return undefined;
    return new Promise<void>((resolve) => {
      setImmediate(() => {
        this.restart();
        resolve();
      });
    });
  };

  /** starts a fresh slice, short when requests came in since the previous one */
  restart(): void {
    const now = this.activity();
    this.length = now !== this.seen ? this.lengths.busyMs : this.lengths.idleMs;
    this.seen = now;
    this.started = performance.now();
  }
}
