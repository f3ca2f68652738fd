import { expect } from 'chai';
import fc from 'fast-check';
import { resolveFromLabels } from '../../../api-server/src/ingest/identity.js';

const resolve = (labels: Record<string, string>) => resolveFromLabels((n) => (Object.prototype.hasOwnProperty.call(labels, n) ? labels[n] : undefined));

describe('remote-write label mapping: today\'s labels and those of the OpenTelemetry-to-Prometheus conversion', () => {
  it('k8s_* controller labels, k8s_namespace_name and k8s_pod_name give the workload and pod', () => {
    expect(resolve({ k8s_namespace_name: 'shop', k8s_deployment_name: 'cart', k8s_pod_name: 'cart-1' })).to.deep.equal({ workload: 'shop/Deployment/cart', pod: 'cart-1' });
    expect(resolve({ k8s_namespace_name: 'db', k8s_statefulset_name: 'pg' })).to.deep.equal({ workload: 'db/StatefulSet/pg', pod: undefined });
    expect(resolve({ k8s_namespace_name: 'obs', k8s_daemonset_name: 'agent' })).to.deep.equal({ workload: 'obs/DaemonSet/agent', pod: undefined });
    expect(resolve({ k8s_namespace_name: 'batch', k8s_job_name: 'nightly' })).to.deep.equal({ workload: 'batch/Job/nightly', pod: undefined });
  });

  it('service_name and host_name fall back to host workloads; the job label is never a workload', () => {
    expect(resolve({ service_name: 'checkout', k8s_namespace_name: 'shop' })).to.deep.equal({ workload: 'shop/host/checkout', pod: undefined });
    expect(resolve({ host_name: 'edge-7', job: 'node' })).to.deep.equal({ workload: 'default/host/edge-7', pod: undefined });
    expect(resolve({ job: 'node', instance: 'x:9100' })).to.deep.equal({ workload: 'default/host/unknown', pod: undefined });
  });

  it('today\'s names win over the converted ones when both are present', () => {
    expect(resolve({ namespace: 'a', k8s_namespace_name: 'b', deployment: 'd1', k8s_deployment_name: 'd2', pod: 'p1', k8s_pod_name: 'p2' })).to.deep.equal({ workload: 'a/Deployment/d1', pod: 'p1' });
  });

  it('a converted label set resolves like the OTLP resource it came from (property)', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/);
    fc.assert(
      fc.property(name, name, fc.constantFrom(['k8s_deployment_name', 'Deployment'], ['k8s_statefulset_name', 'StatefulSet'], ['k8s_daemonset_name', 'DaemonSet'], ['k8s_job_name', 'Job']), (ns, workload, [label, kind]) => {
        expect(resolve({ k8s_namespace_name: ns, [label]: workload })!.workload).to.equal(`${ns}/${kind}/${workload}`);
      }),
      { numRuns: 200 },
    );
  });
});
