/**
 * The memory settings the shipped pod runs the service with, read from the project's own files:
 * the kustomize base (manifests/base/deployment.yaml: NODE_OPTIONS, MALLOC_MMAP_THRESHOLD_,
 * NODE_ENV and the container's memory limit), the image (Dockerfile CMD: the node flags) and the
 * Helm chart (values.yaml's limit, templates/_pod.tpl's NODE_OPTIONS), which must agree with the
 * base; so must glibc's malloc settings (MALLOC_*) wherever the service is started: the base, the
 * chart, the image's ENV and `npm start`. A disagreement is an error naming both values.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { startCommand } from './processes.js';

export interface PodSettings {
  /** the environment the pod sets that changes memory: NODE_OPTIONS, NODE_ENV and glibc's MALLOC_* */
  readonly env: Record<string, string>;
  /** the image's node flags (Dockerfile CMD) */
  readonly nodeFlags: readonly string[];
  /** the container's memory limit in bytes, and as written */
  readonly limitBytes: number;
  readonly limit: string;
}

const MEMORY_ENV = ['NODE_OPTIONS', 'NODE_ENV'] as const;
const isMemoryEnv = (name: string): boolean => (MEMORY_ENV as readonly string[]).includes(name) || name.startsWith('MALLOC_');
const mallocOf = (env: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('MALLOC_')).sort(([a], [b]) => a.localeCompare(b)));
const UNITS: Record<string, number> = { '': 1, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, k: 1e3, M: 1e6, G: 1e9, T: 1e12 };

/** a Kubernetes memory quantity ("7680Mi", "2Gi", "512M", "1000000") in bytes */
export function quantityBytes(q: string): number {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(q.trim());
  if (m === null) throw new Error(`not a memory quantity: ${JSON.stringify(q)}`);
  return Math.round(Number(m[1]) * (UNITS[m[2] ?? ''] as number));
}

interface Container {
  name?: string;
  env?: { name: string; value?: string }[];
  resources?: { limits?: { memory?: string } };
}

export function readPodSettings(project: string): PodSettings {
  const deployment = parse(readFileSync(join(project, 'manifests/base/deployment.yaml'), 'utf8')) as { spec: { template: { spec: { containers: Container[] } } } };
  const container = deployment.spec.template.spec.containers.find((c) => c.env?.some((e) => e.name === 'NODE_OPTIONS'));
  if (container === undefined) throw new Error('manifests/base/deployment.yaml: no container sets NODE_OPTIONS');
  const env: Record<string, string> = {};
  for (const e of container.env ?? []) if (isMemoryEnv(e.name) && e.value !== undefined) env[e.name] = e.value;
  const limit = container.resources?.limits?.memory;
  if (limit === undefined) throw new Error(`manifests/base/deployment.yaml: container ${container.name ?? '?'} has no memory limit`);

  const dockerfile = readFileSync(join(project, 'Dockerfile'), 'utf8');
  const cmd = /^CMD\s+(\[.*\])\s*$/m.exec(dockerfile);
  if (cmd === null) throw new Error('Dockerfile: no CMD in JSON form');
  const nodeFlags = (JSON.parse(cmd[1]!) as string[]).filter((w) => w.startsWith('--'));

  const values = parse(readFileSync(join(project, 'manifests/helm/faultline/values.yaml'), 'utf8')) as { resources?: { apiServer?: { limits?: { memory?: string } } } };
  const chartLimit = values.resources?.apiServer?.limits?.memory;
  const podTemplate = readFileSync(join(project, 'manifests/helm/faultline/templates/_pod.tpl'), 'utf8');
  const chartNodeOptions = /name: NODE_OPTIONS, value: ([^}]+)\}/.exec(podTemplate)?.[1]?.trim();
  if (chartLimit !== limit) throw new Error(`the chart's memory limit ${String(chartLimit)} is not the manifests' ${limit}`);
  if (chartNodeOptions !== env['NODE_OPTIONS']) throw new Error(`the chart's NODE_OPTIONS ${String(chartNodeOptions)} is not the manifests' ${String(env['NODE_OPTIONS'])}`);
  // glibc's malloc settings: the same for the pod (base and chart), the image and npm start
  const unquote = (v: string): string => v.trim().replace(/^"(.*)"$/, '$1');
  const chartMalloc = Object.fromEntries([...podTemplate.matchAll(/name: (MALLOC_[A-Z_]+), value: ([^}]+)\}/g)].map((m) => [m[1]!, unquote(m[2]!)]));
  const imageMalloc = Object.fromEntries([...dockerfile.matchAll(/^ENV\s+(MALLOC_[A-Z_]+)=(\S+)\s*$/gm)].map((m) => [m[1]!, unquote(m[2]!)]));
  const startMalloc = mallocOf(startCommand(join(project, 'package.json')).env);
  const base = JSON.stringify(mallocOf(env));
  for (const [where, other] of [
    ["the chart's", chartMalloc],
    ["the Dockerfile's", imageMalloc],
    ["npm start's", startMalloc],
  ] as const) {
    if (JSON.stringify(mallocOf(other)) !== base) throw new Error(`${where} malloc settings ${JSON.stringify(mallocOf(other))} are not the manifests' ${base}`);
  }
  return { env, nodeFlags, limitBytes: quantityBytes(limit), limit };
}
