/**
 * Workload identity: the key `namespace/Kind/name` of the contract and its parts.
 * Pure string handling, shared by ingest, analysis, storage and the REST layer.
 */

export const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'host'] as const;

export interface WorkloadRef {
  namespace: string;
  kind: string;
  name: string;
}

export function formatWorkloadKey(ref: WorkloadRef): string {
  return `${ref.namespace}/${ref.kind}/${ref.name}`;
}

/** Splits a three-segment key; undefined when the string is not a key (empty segments, wrong count). */
export function parseWorkloadKey(key: string): WorkloadRef | undefined {
  const parts = key.split('/');
  if (parts.length !== 3) return undefined;
  const [namespace, kind, name] = parts as [string, string, string];
  if (namespace === '' || kind === '' || name === '') return undefined;
  return { namespace, kind, name };
}

/**
 * The legacy host id L(key) of api.md §1.9: the bare name for `default/host/{name}`,
 * the whole key otherwise.
 */
export function legacyHostOf(key: string): string {
  const prefix = 'default/host/';
  return key.startsWith(prefix) && key.indexOf('/', prefix.length) === -1 ? key.slice(prefix.length) : key;
}

/**
 * H(s) of api.md §1.9: a host string to a workload key. Three segments are a key, two are
 * `ns/Deployment/name`, none is `default/host/s`; anything else is not a workload (undefined).
 */
export function workloadKeyFromHost(host: string): string | undefined {
  if (host === '') return undefined;
  const parts = host.split('/');
  if (parts.some((p) => p === '')) return undefined;
  if (parts.length === 1) return `default/host/${host}`;
  if (parts.length === 2) return `${parts[0]}/Deployment/${parts[1]}`;
  if (parts.length === 3) return host;
  return undefined;
}
