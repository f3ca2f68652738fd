/**
 * Cooperative time slices for long synchronous work on the event loop (the analysis step and its
 * LevelDB batch): the work asks `pause()` at points where it may stop; once the current slice has
 * lasted its length, the pause resolves on the next turn of the event loop (setImmediate), so the
 * requests and socket events waiting meanwhile are served first; otherwise it returns undefined
 * and the work goes on at once. Every turn of the loop runs one slice, so neither side starves the
 * other: a request waits at most one slice, the work advances one slice per turn.
 *
 * Three kinds of slice, chosen at each slice's start from what ingest offered since the previous
 * one (`IngestActivity`):
 * - **idle** (no request came in): `idleMs`, and the next slice follows at once, so the work
 *   finishes fast when nothing else waits;
 * - **busy** (requests came in): `busyMs`, then `busyGapMs` of the loop left to the requests (a
 *   timer instead of the next turn), so the work takes at most busyMs / (busyMs + busyGapMs) of
 *   the wall clock and the process's other threads (the decode worker, the garbage collector's
 *   helpers) get the cores it would have taken;
 * - **stream** (records came in at `streamRecordsPerSecond` or more: a backfill or a burst, far
 *   above a live fleet's rate): `busyMs`, then `streamGapMs`, a longer gap, so a sender that
 *   streams keeps nearly the whole machine while the work still advances one slice per gap.
 *
 * Whatever the kind, the work advances at least one slice per gap: a stream that never stops
 * slows it, never stops it (and a stream that outruns it meets the analysis backlog's 429).
 */
import { performance } from 'node:perf_hooks';

export type Pause = () => Promise<void> | undefined;

/** what the current slice was chosen as (see above) */
export type SliceKind = 'idle' | 'busy' | 'stream';

/** Counters of what ingest offered so far (the pipeline's), read at each slice's start. */
export interface IngestActivity {
  /** requests (decoded batches) offered, taken or refused */
  readonly offers: number;
  /** records (metric points, log lines, spans) in them */
  readonly offeredRecords: number;
}

export interface SliceLengths {
  idleMs: number;
  busyMs: number;
  /** after a busy slice, the time left to the requests before the next slice (0 or absent: the next turn of the loop) */
  busyGapMs?: number;
  /** records per second since the previous slice from which ingest counts as a stream (absent: never) */
  streamRecordsPerSecond?: number;
  /** after a busy slice while ingest streams, the time left to it (absent: busyGapMs) */
  streamGapMs?: number;
}

const NO_ACTIVITY: IngestActivity = { offers: 0, offeredRecords: 0 };

export class TimeSlicer {
  private started = performance.now();
  private seenOffers: number;
  private seenRecords: number;
  private length: number;
  private gapMs = 0;
  private current: SliceKind = 'idle';

  constructor(
    private readonly lengths: SliceLengths,
    private readonly activity: () => IngestActivity = () => NO_ACTIVITY,
  ) {
    const now = activity();
    this.seenOffers = now.offers;
    this.seenRecords = now.offeredRecords;
    this.length = lengths.idleMs;
  }

  /** a promise to await when the slice is used up (the next slice starts after it), else undefined */
  readonly pause: Pause = () => {
    if (performance.now() - this.started < this.length) return undefined;
    const gapMs = this.gapMs;
    return new Promise<void>((resolve) => {
      const next = (): void => {
        this.restart();
        resolve();
      };
      if (gapMs > 0) setTimeout(next, gapMs);
      else setImmediate(next);
    });
  };

  /** the gap the current slice's pause leaves to the loop, in ms (0: the next turn) */
  get gapAfterMs(): number {
    return this.gapMs;
  }

  /** the kind of the current slice */
  get kind(): SliceKind {
    return this.current;
  }

  /** starts a fresh slice: short, and followed by a gap, when requests came in since the previous one */
  restart(): void {
    const at = performance.now();
    const now = this.activity();
    const busy = now.offers !== this.seenOffers;
    const { busyMs, idleMs, busyGapMs = 0, streamRecordsPerSecond, streamGapMs = busyGapMs } = this.lengths;
    const seconds = Math.max(at - this.started, 1) / 1000;
    const streaming = busy && streamRecordsPerSecond !== undefined && (now.offeredRecords - this.seenRecords) / seconds >= streamRecordsPerSecond;
    this.current = streaming ? 'stream' : busy ? 'busy' : 'idle';
    this.length = busy ? busyMs : idleMs;
    this.gapMs = streaming ? streamGapMs : busy ? busyGapMs : 0;
    this.seenOffers = now.offers;
    this.seenRecords = now.offeredRecords;
    this.started = at;
  }
}
