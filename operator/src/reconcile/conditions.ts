/** metav1.Condition bookkeeping (operator.md §2.4): lastTransitionTime moves only when status flips. */
import type { Condition, ConditionStatus } from '../crd-types.js';

export function setCondition(
  list: readonly Condition[] | undefined,
  type: string,
  status: ConditionStatus,
  reason: string,
  message: string,
  generation: number | undefined,
  now: Date,
): Condition[] {
  const old = (list ?? []).find((c) => c.type === type);
  const next: Condition = {
    type,
    status,
    reason,
    message,
    lastTransitionTime: old !== undefined && old.status === status ? old.lastTransitionTime : now.toISOString(),
    ...(generation === undefined ? {} : { observedGeneration: generation }),
  };
  return [...(list ?? []).filter((c) => c.type !== type), next];
}

/** Scope rule of operator.md §6: keys inside the object's namespace; `*` only from the operator's. */
export function scopeRefusal(selector: string, objectNamespace: string, operatorNamespace: string): { reason: string; message: string } | undefined {
  if (selector === '*') {
    return objectNamespace === operatorNamespace
      ? undefined
      : { reason: 'ClusterScopeNotAllowed', message: `"*" is honoured only from the operator namespace ${operatorNamespace}` };
  }
  return selector.startsWith(`${objectNamespace}/`)
    ? undefined
    : { reason: 'NamespaceMismatch', message: `${selector} is outside namespace ${objectNamespace}` };
}

const canonical = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([k, v]) => v !== undefined && k !== 'lastSyncTime')
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, canonical(v)]),
    );
  }
  return value;
};

/**
 * True when a status write would change more than lastSyncTime. Status writes wake the watch, so
 * an unconditional write per reconcile would reconcile the object again forever.
 */
export function statusDiffers(current: object | undefined, next: object): boolean {
  const conditionsOrdered = (s: object | undefined): unknown => {
    const c = canonical(s ?? {}) as { conditions?: { type: string }[] };
    if (c.conditions) c.conditions = [...c.conditions].sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
    return c;
  };
  return JSON.stringify(conditionsOrdered(current)) !== JSON.stringify(conditionsOrdered({ ...current, ...next }));
}
