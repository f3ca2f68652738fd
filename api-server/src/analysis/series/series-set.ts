/**
 * The per-workload series of analytics.md §5.1 — every canonical and general input (bucket
 * means) plus health_score, stress, fatigue and fused_rupture_index — each with its forecasting
 * ensemble and anomaly detectors. One point per analysis step.
 *
 * Bound: at most `maxSeries` series per workload (default 32: the 4 derived series plus 28
 * inputs); points of further input names are not tracked as series and counted in `untracked`.
 */
import { SeriesEnsemble } from '../ensemble/index.js';
import { SeriesDetectors, type Firing } from '../anomaly/index.js';

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
  observe(name: string, y: number, xSeconds: number): SeriesPoint | null {
    if (!Number.isFinite(y) || !Number.isFinite(xSeconds)) return null;
    let s = this.series.get(name);
    if (s === undefined) {
      const derived = (DERIVED_SERIES as readonly string[]).includes(name);
      if (!derived && this.inputSeries >= this.maxSeries - DERIVED_SERIES.length) {
        this.untracked += 1;
        return null;
      }
      s = { ensemble: new SeriesEnsemble(), detectors: new SeriesDetectors() };
      this.series.set(name, s);
      if (!derived) this.inputSeries += 1;
    }
    s.ensemble.observe(y, xSeconds);
    const d = s.detectors.observe(y, xSeconds);
    return d.firings.length === 0 ? NO_FIRINGS : { series: name, value: y, firings: d.firings, consensus: d.consensus };
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
    for (const [name, s] of this.series) series.push([name, s.ensemble.toJSON(), s.detectors.toJSON()]);
    return { series, untracked: this.untracked };
  }

  static fromJSON(state: SeriesSetState, maxSeries: number): SeriesSet {
    const set = new SeriesSet(maxSeries);
    for (const [name, e, d] of state.series) {
      set.series.set(name, { ensemble: SeriesEnsemble.fromJSON(e), detectors: SeriesDetectors.fromJSON(d) });
      if (!(DERIVED_SERIES as readonly string[]).includes(name)) set.inputSeries += 1;
    }
    set.untracked = Number.isFinite(state.untracked) ? state.untracked : 0;
    return set;
  }
}
