/**
 * The per-workload series of analytics.md §5.1 — every canonical and general input (bucket
 * means) plus health_score, stress, fatigue and fused_rupture_index — each with its forecasting
 * ensemble and anomaly detectors. One point per analysis step.
 *
 * Bound: at most `maxSeries` series per workload (default 32: the 4 derived series plus 28
 * inputs); points of further input names are not tracked as series and counted in `untracked`.
 */
import { SeriesEnsemble, replayPoints } from '../ensemble/index.js';
import { SeriesDetectors, type Firing } from '../anomaly/index.js';
import type { SlidingRegression } from '../regression/index.js';

/** sizes of a series' burst and stable lines (analytics.md §5.6 ca_ilr: 20 and 240 points) */
export const SERIES_BURST_POINTS = 20;
export const SERIES_STABLE_POINTS = 240;

export const DERIVED_SERIES = ['health_score', 'stress', 'fatigue', 'fused_rupture_index'] as const;

export interface SeriesPoint {
  series: string;
  value: number;
  firings: Firing[];
  consensus: boolean;
}

/** shared result of a point without firings (read-only by convention) */
const NO_FIRINGS: SeriesPoint = Object.freeze({ series: '', value: 0, firings: [], consensus: false }) as SeriesPoint;

interface Series {
  ensemble: SeriesEnsemble;
  detectors: SeriesDetectors;
}

/**
 * `[name, ensemble points, novelty state]`: the detectors share the ensemble's points and rebuild
 * their §5.6 methods from them; the third slot is the novelty score's saved state (null in older
 * states, whose novelty score then warms up again; older states that carried the points twice
 * there are read the same way).
 */
export interface SeriesSetState {
  series: [string, unknown, unknown][];
  untracked: number;
}

export class SeriesSet {
  private readonly series = new Map<string, Series>();
  untracked = 0;
  private inputSeries = 0;

  constructor(private readonly maxSeries: number) {}

  /**
   * feeds one point; returns the detector result (a shared empty result when nothing fired), or
   * null when the series is over the bound or y is not finite
   */
  observe(name: string, y: number, xSeconds: number, atSeconds = xSeconds): SeriesPoint | null {
    if (!Number.isFinite(y) || !Number.isFinite(xSeconds)) return null;
    let s = this.series.get(name);
    if (s === undefined) {
      const derived = (DERIVED_SERIES as readonly string[]).includes(name);
      if (!derived && this.inputSeries >= this.maxSeries - DERIVED_SERIES.length) {
        this.untracked += 1;
        return null;
      }
      const ensemble = new SeriesEnsemble();
      s = { ensemble, detectors: new SeriesDetectors(ensemble) };
      this.series.set(name, s);
      if (!derived) this.inputSeries += 1;
    }
    s.ensemble.observe(y, xSeconds);
    const firings = s.detectors.firingsAt(y, xSeconds, atSeconds);
    return firings.length === 0 ? NO_FIRINGS : { series: name, value: y, firings: [...firings], consensus: firings.length >= 2 };
  }

  /**
   * The series' burst line (its detectors', SERIES_BURST_POINTS) and stable line (its ensemble's,
   * SERIES_STABLE_POINTS), undefined when `name` is not tracked. The workload's metricR windows
   * are these when their sizes agree.
   */
  lines(name: string): { burst: SlidingRegression; stable: SlidingRegression } | undefined {
    const s = this.series.get(name);
    return s === undefined ? undefined : { burst: s.detectors.burstLine, stable: s.ensemble.stableLine };
  }

  ensemble(name: string): SeriesEnsemble | undefined {
    return this.series.get(name)?.ensemble;
  }

  names(): string[] {
    return [...this.series.keys()];
  }

  get size(): number {
    return this.series.size;
  }

  toJSON(): SeriesSetState {
    const series: SeriesSetState['series'] = [];
    for (const [name, s] of this.series) series.push([name, s.ensemble.toJSON(), s.detectors.noveltyState()]);
    return { series, untracked: this.untracked };
  }

  static fromJSON(state: SeriesSetState, maxSeries: number): SeriesSet {
    const set = new SeriesSet(maxSeries);
    for (const [name, e, novelty] of state.series) {
      // replay the points through the pair, ensemble first, as observe does; the novelty score
      // is restored afterwards from its own state (the replay must not count its points twice)
      const ensemble = new SeriesEnsemble();
      let detectors = new SeriesDetectors(ensemble);
      for (const [x, y] of replayPoints(e)) {
        ensemble.observe(y, x);
        detectors.firingsAt(y, x);
      }
      detectors = detectors.withNovelty(novelty);
      set.series.set(name, { ensemble, detectors });
      if (!(DERIVED_SERIES as readonly string[]).includes(name)) set.inputSeries += 1;
    }
    set.untracked = Number.isFinite(state.untracked) ? state.untracked : 0;
    return set;
  }
}
