/**
 * Workload identity (interface "Identity resolution", api.md §1.9): from OTLP resource attributes,
 * and from labels or tags (remote-write, Loki, StatsD, bulk). Returns the workload key and the pod
 * (the per-pod dimension), or `undefined` for records that name no workload (node-only telemetry).
 */
import { workloadKeyFromHost } from '../model/workload-key.js';

export interface ResolvedIdentity {
  workload: string;
  pod: string | undefined;
}

export type Lookup = (name: string) => string | undefined;

const CONTROLLERS: [string, string][] = [
  ['k8s.deployment.name', 'Deployment'],
  ['k8s.statefulset.name', 'StatefulSet'],
  ['k8s.daemonset.name', 'DaemonSet'],
  ['k8s.job.name', 'Job'],
];

const nonEmpty = (v: string | undefined): v is string => v !== undefined && v !== '';

export function resolveFromResourceAttributes(attr: Lookup): ResolvedIdentity | undefined {
  const ns = attr('k8s.namespace.name') || 'default';
  const pod = attr('k8s.pod.name') || undefined;
  for (const [name, kind] of CONTROLLERS) {
    const v = attr(name);
    if (nonEmpty(v)) return { workload: `${ns}/${kind}/${v}`, pod };
  }
  const service = attr('service.name');
  if (nonEmpty(service)) return { workload: `${ns}/host/${service}`, pod };
  if (nonEmpty(pod)) return { workload: `${ns}/host/${pod}`, pod };
  const host = attr('host.name');
  if (nonEmpty(host)) return { workload: `${ns}/host/${host}`, pod: undefined };
  if (nonEmpty(attr('k8s.node.name'))) return undefined;
  return { workload: 'default/host/unknown', pod: undefined };
}

/** controller labels: today's names, then what the OpenTelemetry-to-Prometheus conversion writes */
const LABEL_CONTROLLERS: [string, string][] = [
  ['deployment', 'Deployment'],
  ['statefulset', 'StatefulSet'],
  ['daemonset', 'DaemonSet'],
  ['k8s_deployment_name', 'Deployment'],
  ['k8s_statefulset_name', 'StatefulSet'],
  ['k8s_daemonset_name', 'DaemonSet'],
  ['k8s_job_name', 'Job'],
];

/**
 * Steps 1-6 of the label rules, with the label names the OpenTelemetry-to-Prometheus conversion
 * produces beside them (`k8s_namespace_name`, `k8s_<controller>_name`, `k8s_pod_name`,
 * `service_name`, `host_name`; docs/remote-write-mapping.md). Undefined when `host` is present but
 * not a valid host string.
 */
export function resolveFromLabels(label: Lookup): ResolvedIdentity | undefined {
  const pod = label('pod') || label('k8s_pod_name') || undefined;
  const host = label('host');
  if (nonEmpty(host)) {
    const key = workloadKeyFromHost(host);
    return key === undefined ? undefined : { workload: key, pod };
  }
  const ns = label('namespace') || label('k8s_namespace_name') || 'default';
  for (const [name, kind] of LABEL_CONTROLLERS) {
    const v = label(name);
    if (nonEmpty(v)) return { workload: `${ns}/${kind}/${v}`, pod };
  }
  const workload = label('workload');
  if (nonEmpty(workload)) {
    const kind = label('workload_kind') || label('kind') || 'Deployment';
    return { workload: `${ns}/${kind}/${workload}`, pod };
  }
  for (const name of ['service', 'service_name', 'app']) {
    const v = label(name);
    if (nonEmpty(v)) return { workload: `${ns}/host/${v}`, pod };
  }
  if (nonEmpty(pod)) return { workload: `${ns}/host/${pod}`, pod };
  const hostName = label('host_name');
  if (nonEmpty(hostName)) return { workload: `${ns}/host/${hostName}`, pod: undefined };
  return { workload: 'default/host/unknown', pod: undefined };
}
