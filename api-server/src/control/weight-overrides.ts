/**
 * Per-workload health_score weight overrides (api.md §6.8): a list, first matching selector wins,
 * each entry scaled so its six weights sum to 1. Used by POST /config/weights and SVC_WORKLOAD_WEIGHTS.
 */
import { z } from 'zod';
import type { WeightOverride } from '../analysis/contract.js';
import { isWorkloadSelector } from '../model/workload-selector.js';
import type { WeightedSignal } from '../model/signals.js';
import { WEIGHTED_SIGNALS } from '../model/signals.js';

export const MAX_WEIGHT_OVERRIDES = 1000;

const weight = z.number().finite('must be a finite number').nonnegative('must be >= 0').optional();

const overrideEntry = z
  .object({
    selector: z.string().refine((s) => isWorkloadSelector(s), 'must be *, namespace/* or namespace/Kind/name'),
    ...(Object.fromEntries(WEIGHTED_SIGNALS.map((s) => [s, weight])) as Record<WeightedSignal, typeof weight>),
  })
  .refine((e) => WEIGHTED_SIGNALS.some((s) => (e[s] ?? 0) > 0), {
    message: `at least one of ${WEIGHTED_SIGNALS.join(', ')} must be > 0`,
    path: ['stress'],
  });

export const weightOverridesBody = z
  .array(overrideEntry, { message: 'must be a JSON array of weight overrides' })
  .max(MAX_WEIGHT_OVERRIDES, `must hold at most ${MAX_WEIGHT_OVERRIDES} entries`);

export type WeightOverridesBody = z.infer<typeof weightOverridesBody>;

/** Scales each entry so its six weights sum to 1. */
export function normaliseOverrides(body: WeightOverridesBody): WeightOverride[] {
  return body.map((entry) => {
    const raw = Object.fromEntries(WEIGHTED_SIGNALS.map((s) => [s, entry[s] ?? 0])) as Record<WeightedSignal, number>;
    // scale by the largest first so that weights near Number.MAX_VALUE cannot overflow the sum
    const largest = Math.max(...WEIGHTED_SIGNALS.map((s) => raw[s]));
    const sum = WEIGHTED_SIGNALS.reduce((acc, s) => acc + raw[s] / largest, 0);
    const weights = Object.fromEntries(WEIGHTED_SIGNALS.map((s) => [s, raw[s] / largest / sum])) as Record<WeightedSignal, number>;
    return { selector: entry.selector, weights };
  });
}

/** The wire form of GET /config/weights: `{selector, stress, …}` flat. */
export function renderOverride(o: WeightOverride): Record<string, string | number> {
  return { selector: o.selector, ...o.weights };
}
