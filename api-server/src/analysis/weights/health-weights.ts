/**
 * health_score weights (analytics.md §3.5): defaults, and per-workload overrides resolved by
 * selector (`*`, `ns/*`, exact key; first match wins). Every weight set handed to the score sums
 * to 1: entries are scaled to sum 1; negative or non-finite weights count as 0, and an entry
 * whose weights sum to < 1e-9 falls back to the defaults (the reference would keep it as given,
 * which makes health a constant 1; the issue requires weights that sum to 1).
 */
import type { WeightOverride } from '../contract.js';
import { selectorMatches } from '../../model/workload-selector.js';
import type { WeightedSignal } from '../../model/signals.js';
import { WEIGHTED_SIGNALS } from '../../model/signals.js';

export type HealthWeights = Record<WeightedSignal, number>;

export const DEFAULT_HEALTH_WEIGHTS: Readonly<HealthWeights> = Object.freeze({
  stress: 0.25,
  fatigue: 0.2,
  mood: 0.2,
  pressure: 0.15,
  humidity: 0.1,
  contagion: 0.1,
});

/** scales a weight set to sum 1 (see the module note for degenerate input) */
export function normaliseWeights(raw: Partial<Record<WeightedSignal, number>>): HealthWeights {
  const clean = WEIGHTED_SIGNALS.map((s) => {
    const v = raw[s];
    return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
  });
  const largest = Math.max(...clean);
  if (!(largest > 0)) return { ...DEFAULT_HEALTH_WEIGHTS };
  const scaled = clean.map((v) => v / largest);
  const sum = scaled.reduce((a, b) => a + b, 0);
  if (!(sum >= 1e-9)) return { ...DEFAULT_HEALTH_WEIGHTS };
  const out = {} as HealthWeights;
  WEIGHTED_SIGNALS.forEach((s, i) => (out[s] = scaled[i]! / sum));
  return out;
}

/** an override list ready for lookup: entries normalised once */
export class WeightTable {
  private readonly entries: { selector: string; weights: HealthWeights }[];

  constructor(overrides: readonly WeightOverride[] = []) {
    this.entries = overrides.map((o) => ({ selector: o.selector, weights: normaliseWeights(o.weights) }));
  }

  get size(): number {
    return this.entries.length;
  }

  /** weights of a workload: the first matching entry, else the defaults */
  weightsFor(key: string): Readonly<HealthWeights> {
    for (const e of this.entries) if (selectorMatches(e.selector, key)) return e.weights;
    return DEFAULT_HEALTH_WEIGHTS;
  }
}
