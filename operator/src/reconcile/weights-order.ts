/**
 * The ordered weights list the operator posts (operator.md §4): specificity (exact key, then
 * `ns/*`, then `*`), then higher priority, then older creationTimestamp, then namespace/name.
 * Same selector twice: only the first is posted, the rest are Shadowed; beyond 1000 entries the
 * tail is ListFull; out-of-scope objects are refused. Pure: no I/O.
 */
import type { WeightedSignal, WorkloadWeight } from '../crd-types.js';
import { WEIGHTED_SIGNALS } from '../crd-types.js';
import { scopeRefusal } from './conditions.js';

export const MAX_WEIGHT_ENTRIES = 1000;

export type WeightEntry = { selector: string } & Record<WeightedSignal, number>;

export interface WeightPlacement {
  object: WorkloadWeight;
  /** 1-based position in the posted list, or the refusal */
  position?: number;
  refusal?: { reason: string; message: string };
}

const specificity = (selector: string): number => (selector === '*' ? 2 : selector.endsWith('/*') ? 1 : 0);
const idOf = (w: WorkloadWeight): string => `${w.metadata.namespace ?? ''}/${w.metadata.name ?? ''}`;

export function compareWeights(a: WorkloadWeight, b: WorkloadWeight): number {
  return (
    specificity(a.spec.selector) - specificity(b.spec.selector) ||
    (b.spec.priority ?? 0) - (a.spec.priority ?? 0) ||
    Date.parse(a.metadata.creationTimestamp ?? '') - Date.parse(b.metadata.creationTimestamp ?? '') ||
    (idOf(a) < idOf(b) ? -1 : idOf(a) > idOf(b) ? 1 : 0)
  );
}

export function planWeights(objects: readonly WorkloadWeight[], operatorNamespace: string): { list: WeightEntry[]; placements: WeightPlacement[] } {
  const placements: WeightPlacement[] = [];
  const list: WeightEntry[] = [];
  const winners = new Map<string, WorkloadWeight>();
  for (const object of [...objects].sort(compareWeights)) {
    const refusal = scopeRefusal(object.spec.selector, object.metadata.namespace ?? '', operatorNamespace);
    if (refusal !== undefined) {
      placements.push({ object, refusal });
      continue;
    }
    const winner = winners.get(object.spec.selector);
    if (winner !== undefined) {
      placements.push({ object, refusal: { reason: 'Shadowed', message: `selector ${object.spec.selector} is already applied by ${idOf(winner)}` } });
      continue;
    }
    if (list.length >= MAX_WEIGHT_ENTRIES) {
      placements.push({ object, refusal: { reason: 'ListFull', message: `the engine holds at most ${MAX_WEIGHT_ENTRIES} entries` } });
      continue;
    }
    winners.set(object.spec.selector, object);
    const entry = { selector: object.spec.selector } as WeightEntry;
    for (const s of WEIGHTED_SIGNALS) entry[s] = object.spec[s] ?? 0;
    list.push(entry);
    placements.push({ object, position: list.length });
  }
  return { list, placements };
}

/** The engine's normalisation (each entry scaled to sum 1), so a comparison never loops on rounding. */
export function normaliseEntry(e: WeightEntry): WeightEntry {
  const largest = Math.max(...WEIGHTED_SIGNALS.map((s) => e[s]));
  const sum = WEIGHTED_SIGNALS.reduce((acc, s) => acc + e[s] / largest, 0);
  const out = { selector: e.selector } as WeightEntry;
  for (const s of WEIGHTED_SIGNALS) out[s] = e[s] / largest / sum;
  return out;
}

export function sameLists(desired: readonly WeightEntry[], engine: readonly WeightEntry[]): boolean {
  if (desired.length !== engine.length) return false;
  return desired.every((d, i) => {
    const n = normaliseEntry(d);
    const e = engine[i] as WeightEntry;
    return e.selector === n.selector && WEIGHTED_SIGNALS.every((s) => Math.abs(e[s] - n[s]) < 1e-9);
  });
}
