/**
 * Lookup routes' workload resolution (api.md §1.9): `{ns}/{kind}/{name}` exact, `{ns}/{name}` by
 * kind preference, legacy `{host}` by host key, then key forms, then unique (or most recently
 * updated) name.
 */
import type { WorkloadSnapshot } from '../analysis/contract.js';
import { parseWorkloadKey } from '../model/workload-key.js';

const KIND_ORDER = ['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'host'];

/** what the lookup needs: the analysis core, or the cluster-wide reads */
export interface KnownWorkloads {
  snapshot(key: string): WorkloadSnapshot | undefined;
  workloadKeys(): string[];
}

export function resolveWorkload(core: KnownWorkloads, segments: string[]): string | undefined {
  const known = (key: string): boolean => core.snapshot(key) !== undefined;
  if (segments.length === 3) {
    const key = segments.join('/');
    return known(key) ? key : undefined;
  }
  if (segments.length === 2) {
    const [ns, name] = segments as [string, string];
    for (const kind of KIND_ORDER) if (known(`${ns}/${kind}/${name}`)) return `${ns}/${kind}/${name}`;
    const others = core
      .workloadKeys()
      .filter((k) => {
        const ref = parseWorkloadKey(k);
        return ref !== undefined && ref.namespace === ns && ref.name === name;
      })
      .sort();
    return others[0];
  }
  if (segments.length !== 1) return undefined;
  const host = segments[0]!;
  if (known(`default/host/${host}`)) return `default/host/${host}`;
  if (host.includes('/')) return resolveWorkload(core, host.split('/'));
  let best: string | undefined;
  let bestTime = -Infinity;
  for (const key of core.workloadKeys()) {
    if (parseWorkloadKey(key)?.name !== host) continue;
    const t = core.snapshot(key)?.timeMs ?? 0;
    if (t > bestTime) {
      best = key;
      bestTime = t;
    }
  }
  return best;
}
