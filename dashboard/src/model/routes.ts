/** Workload keys and the page's hash routes: #/ (fleet), #/w/{ns}/{kind}/{name}, #/actions, #/controls. */
import type { WorkloadRef } from '../api/types.js';

export type Route = { view: 'fleet' } | { view: 'workload'; ref: WorkloadRef } | { view: 'actions' } | { view: 'controls' };

export function keyOf(ref: WorkloadRef): string {
  return `${ref.namespace}/${ref.kind}/${ref.name}`;
}

export function refOfKey(key: string): WorkloadRef | undefined {
  const parts = key.split('/');
  if (parts.length !== 3 || parts.some((p) => p === '')) return undefined;
  const [namespace, kind, name] = parts as [string, string, string];
  return { namespace, kind, name };
}

/** path segments of a workload, each percent-encoded (a name may hold any character but `/`) */
export function refPath(ref: WorkloadRef): string {
  return [ref.namespace, ref.kind, ref.name].map(encodeURIComponent).join('/');
}

export function hrefOf(route: Route): string {
  switch (route.view) {
    case 'fleet':
      return '#/';
    case 'workload':
      return `#/w/${refPath(route.ref)}`;
    case 'actions':
      return '#/actions';
    case 'controls':
      return '#/controls';
  }
}

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '');
  if (path === '/actions') return { view: 'actions' };
  if (path === '/controls') return { view: 'controls' };
  const m = /^\/w\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(path);
  if (m !== null) {
    try {
      const [namespace, kind, name] = [m[1], m[2], m[3]].map((s) => decodeURIComponent(s ?? ''));
      if (namespace && kind && name) return { view: 'workload', ref: { namespace, kind, name } };
    } catch {
      // malformed percent-encoding: fall through to the fleet
    }
  }
  return { view: 'fleet' };
}
