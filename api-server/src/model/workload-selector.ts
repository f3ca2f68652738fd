/**
 * Workload selectors of suppressions, context events and weight overrides:
 * `*` (every workload), `{ns}/*` (one namespace) or an exact key `{ns}/{Kind}/{name}`.
 */
export function isWorkloadSelector(selector: string): boolean {
  if (selector === '*') return true;
  const parts = selector.split('/');
  if (parts.some((p) => p === '')) return false;
  if (parts.length === 2) return parts[1] === '*';
  return parts.length === 3 && !parts.includes('*');
}

export function selectorMatches(selector: string, key: string): boolean {
  if (selector === '*') return true;
  if (selector.endsWith('/*')) return key.startsWith(selector.slice(0, -1));
  return selector === key;
}
