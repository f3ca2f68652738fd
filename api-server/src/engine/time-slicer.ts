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
 *
 * While requests stream, a busy slice is followed by `busyGapMs` of the loop left to them (a
 * timer instead of the next turn): the work then takes at most busyMs / (busyMs + busyGapMs) of
 * the wall clock, and the process's other threads (the decode worker, the garbage collector's
 * helpers) get the cores it would have taken. The work still advances one slice per gap, so a
 * stream that never stops does not starve it; once requests stop, the next slice is idle-length
 * and follows at once.
 */
import { performance } from 'node:perf_hooks';

export type Pause = () => Promise<void> | undefined;

export interface SliceLengths {
  idleMs: number;
  busyMs: number;
  /** after a busy slice, the time left to the requests before the next slice (0 or absent: the next turn of the loop) */
  busyGapMs?: number;
}

export class TimeSlicer {
  private started = performance.now();
  private seen: number;
  private length: number;
  private busy = false;

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
    const gapMs = this.busy ? (this.lengths.busyGapMs ?? 0) : 0;
    return new Promise<void>((resolve) => {
      const next = (): void => {
        this.restart();
        resolve();
      };
      if (gapMs > 0) setTimeout(next, gapMs);
      else setImmediate(next);
    });
  };

  /** starts a fresh slice, short when requests came in since the previous one */
  restart(): void {
    const now = this.activity();
    this.busy = now !== this.seen;
    this.length = this.busy ? this.lengths.busyMs : this.lengths.idleMs;
    this.seen = now;
    this.started = performance.now();
  }
}
