/**
 * Cooperative time slices for long synchronous work on the event loop (the analysis step and its
 * LevelDB batch): the work asks `pause()` at points where it may stop; once the current slice has
 * lasted `sliceMs`, the pause resolves on the next turn of the event loop (setImmediate), so the
 * requests and socket events waiting meanwhile are served first; otherwise it returns undefined
 * and the work goes on at once. Every turn of the loop runs one slice, so neither side can starve
 * the other: ingest waits at most one slice, the step advances one slice per turn.
 */
import { performance } from 'node:perf_hooks';

export type Pause = () => Promise<void> | undefined;

export class TimeSlicer {
  private started = performance.now();

  constructor(private readonly sliceMs: number) {}

  /** a promise to await when the slice is used up (the next slice starts after it), else undefined */
  readonly pause: Pause = () => {
    if (performance.now() - this.started < this.sliceMs) return undefined;
    return new Promise<void>((resolve) => {
      setImmediate(() => {
        this.started = performance.now();
        resolve();
      });
    });
  };

  /** starts a fresh slice (at the beginning of a piece of work) */
  restart(): void {
    this.started = performance.now();
  }
}
