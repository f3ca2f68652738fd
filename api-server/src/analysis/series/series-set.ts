/**
 * The per-workload series of analytics.md §5.1 — every canonical and general input (bucket
 * means) plus health_score, stress, fatigue and fused_rupture_index — each with its forecasting
 * ensemble and anomaly detectors. One point per analysis step.
 *
 * The derived series have no novelty score (no chunk, no `novelty` firings): their values are
 * functions of the step's inputs, whose own series are scored for novelty; their zscore, mad,
 * seasonal and ca_ilr methods run as on the inputs (docs/memory.md, "the derived series").
 *
 * Bound: at most `maxSeries` series per workload (default 32: the 4 derived series plus 28
 * inputs); points of further input names are not tracked as series and counted in `untracked`.
 */
import { SeriesEnsemble, replayPoints } from '../ensemble/index.js';
import { NO_NOVELTY, detectPoint, releaseWithOwner, touchDetectorLines, type Firing } from '../anomaly/series-detectors.js';
import { allocateNovelty, noveltyFromJSON, noveltyToJSON, releaseNovelty, touchNovelty, touchNoveltyContexts } from '../anomaly/novelty-score.js';
import { BURST_POINTS, STABLE_POINTS } from '../ensemble/series-memory.js';

/** sizes of a series' burst and stable lines (analytics.md §5.6 ca_ilr: 20 and 240 points) */
export const SERIES_BURST_POINTS = BURST_POINTS;
export const SERIES_STABLE_POINTS = STABLE_POINTS;

export const DERIVED_SERIES = ['health_score', 'stress', 'fatigue', 'fused_rupture_index'] as const;

export interface SeriesPoint {
  series: string;
  value: number;
  /** detectPoint's array of this point (its own: detectPoint returns a fresh one whenever a method fires) */
  firings: readonly Firing[];
  consensus: boolean;
}

/** where prefetch leaves the sum of what it read (a store, so the reads stay) */
const TOUCHED = new Float64Array(1);

/** shared result of a point without firings (read-only by convention) */
const NO_FIRINGS: SeriesPoint = Object.freeze({ series: '', value: 0, firings: [], consensus: false }) as SeriesPoint;

/**
 * `[name, ensemble points, novelty state]`: the detectors share the ensemble's points and rebuild
 * their §5.6 methods from them; the third slot is the novelty score's saved state (null in older
 * states, whose novelty score then warms up again; older states that carried the points twice
 * there are read the same way). A derived series' third slot is null; the novelty state that
 * states saved before this carry there is not read.
 */
export interface SeriesSetState {
  series: [string, unknown, unknown][];
  untracked: number;
}

export class SeriesSet {
  /** series name -> its index in the arrays below */
  private readonly index = new Map<string, number>();
  /** each series' ensemble, whose memory holds its detectors' state too */
  private readonly ensembles: SeriesEnsemble[] = [];
  /** each series' novelty chunk (given back when the set is garbage collected); NO_NOVELTY for a derived series */
  private readonly novelty: number[] = [];
  untracked = 0;
  private inputSeries = 0;

  constructor(private readonly maxSeries: number) {
    releaseWithOwner(this, this.novelty);
  }

  /**
   * feeds one point; returns the detector result (a shared empty result when nothing fired), or
   * null when the series is over the bound or y is not finite
   */
  observe(name: string, y: number, xSeconds: number, atSeconds = xSeconds): SeriesPoint | null {
    if (!Number.isFinite(y) || !Number.isFinite(xSeconds)) return null;
    let i = this.index.get(name);
    if (i === undefined) {
      const derived = (DERIVED_SERIES as readonly string[]).includes(name);
      if (!derived && this.inputSeries >= this.maxSeries - DERIVED_SERIES.length) {
        this.untracked += 1;
        return null;
      }
      i = this.add(name, new SeriesEnsemble(), derived ? NO_NOVELTY : allocateNovelty());
      if (!derived) this.inputSeries += 1;
    }
    const ensemble = this.ensembles[i] as SeriesEnsemble;
    ensemble.observe(y, xSeconds);
    const firings = detectPoint(ensemble, this.novelty[i] as number, y, xSeconds, atSeconds);
    return firings.length === 0 ? NO_FIRINGS : { series: name, value: y, firings, consensus: firings.length >= 2 };
  }

  /**
   * Touches the memory the next observe of every series reads first: its ensemble's and detectors'
   * lines and its novelty chunk's (SeriesEnsemble.touchNextPoint). Called once per step before the
   * step's points are observed, so that the memory reads of all the workload's series overlap
   * instead of each observe waiting for its own, one after another (group prefetching,
   * docs/performance.md). Changes nothing.
   */
  prefetch(atSeconds: number): void {
    let sum = 0;
    for (let i = 0; i < this.ensembles.length; i++) {
      const ensemble = this.ensembles[i] as SeriesEnsemble;
      const novelty = this.novelty[i] as number;
      sum += ensemble.touchNextPoint() + touchDetectorLines(ensemble) + (novelty === NO_NOVELTY ? 0 : touchNovelty(novelty, atSeconds));
    }
    TOUCHED[0] = sum;
  }

  /**
   * Touches each series' ensemble object, memory view and first memory line: the chain of reads
   * prefetch must follow before it can name any other line, done a couple of workloads ahead
   * (WorkloadAnalyzer.touchAhead). Changes nothing.
   */
  touchObjects(): void {
    let sum = 0;
    for (let i = 0; i < this.ensembles.length; i++) sum += (this.ensembles[i] as SeriesEnsemble).memory[0] as number;
    TOUCHED[0] += sum;
  }

  /**
   * Touches the novelty context slots the next observe of `names[k]` will look up for the value
   * `values[k]` (k < count; unknown names are skipped): the part of prefetch that needs the values,
   * called as soon as they are known. Changes nothing.
   */
  prefetchContexts(names: readonly string[], values: readonly number[], count: number): void {
    let sum = 0;
    for (let k = 0; k < count; k++) {
      const i = this.index.get(names[k] as string);
      if (i === undefined) continue;
      const novelty = this.novelty[i] as number;
      if (novelty !== NO_NOVELTY) sum += touchNoveltyContexts(novelty, values[k] as number);
    }
    TOUCHED[0] += sum;
  }

  private add(name: string, ensemble: SeriesEnsemble, novelty: number): number {
    const i = this.ensembles.length;
    this.index.set(name, i);
    this.ensembles.push(ensemble);
    this.novelty.push(novelty);
    return i;
  }

  ensemble(name: string): SeriesEnsemble | undefined {
    const i = this.index.get(name);
    return i === undefined ? undefined : this.ensembles[i];
  }

  names(): string[] {
    return [...this.index.keys()];
  }

  get size(): number {
    return this.index.size;
  }

  toJSON(): SeriesSetState {
    const series: SeriesSetState['series'] = [];
    for (const [name, i] of this.index) {
      const novelty = this.novelty[i] as number;
      series.push([name, (this.ensembles[i] as SeriesEnsemble).toJSON(), novelty === NO_NOVELTY ? null : noveltyToJSON(novelty)]);
    }
    return { series, untracked: this.untracked };
  }

  static fromJSON(state: SeriesSetState, maxSeries: number): SeriesSet {
    const set = new SeriesSet(maxSeries);
    for (const [name, e, novelty] of state.series) {
      // replay the points through the ensemble and the detectors, as observe does; the novelty
      // score is restored afterwards from its own state (the replay must not count its points twice)
      const derived = (DERIVED_SERIES as readonly string[]).includes(name);
      const ensemble = SeriesEnsemble.forSaved(e);
      const replayed = derived ? NO_NOVELTY : allocateNovelty();
      for (const [x, y] of replayPoints(e)) {
        ensemble.observe(y, x);
        detectPoint(ensemble, replayed, y, x, x);
      }
      if (derived) {
        set.add(name, ensemble, NO_NOVELTY);
      } else {
        releaseNovelty(replayed);
        set.add(name, ensemble, noveltyFromJSON(novelty));
        set.inputSeries += 1;
      }
    }
    set.untracked = Number.isFinite(state.untracked) ? state.untracked : 0;
    return set;
  }
}
