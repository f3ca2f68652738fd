/**
 * The failure objectives the evaluation declares for its workloads, as a team would, before any
 * of their data is sent (POST /config/objectives, docs/diagnosis.md "Failure objectives").
 *
 * - Error creep and latency burn: the level their failure point is defined by (the spec's
 *   `stated` objective: in this evaluation a failure point IS where the degradation crosses the
 *   team's objective).
 * - Every other input of every workload: drawn well above the workload's own healthy range, as a
 *   team sets an objective from its dashboards: the highest 15-s value of the input over the
 *   workload's healthy history (a twin of the workload, drawn from the same streams, so the sent
 *   telemetry is not disturbed), times a factor drawn per workload (error rate 2-4×, at least 2 %;
 *   latency 2-4×). Nothing here is tuned to a failure.
 * - Memory and cpu are left at the product's edge (their limit): the evaluation's leak and CPU
 *   saturation fail at their limit (99 %, 98 %), which is what a team means by those outages.
 */
import { NAMESPACE } from './otlp-bodies.js';
import type { Prng } from './prng.js';
import type { WorkloadObjectives, WorkloadSpec } from './workload-model.js';

/** one entry of POST /config/objectives */
export interface ObjectiveEntry extends WorkloadObjectives {
  selector: string;
}

/** the highest error rate and latency a twin workload sends before its failure onset (its healthy range) */
export function healthyPeaks(twin: WorkloadSpec): { errorRate: number; latencyMs: number } {
  const end = twin.failure?.onsetBucket ?? twin.endBucket;
  let errorRate = 0;
  let latencyMs = 0;
  for (let b = twin.startBucket; b < end; b++) {
    const m = twin.sample(b).metrics;
    if (m === null) continue;
    errorRate = Math.max(errorRate, m['error_rate'] ?? 0);
    latencyMs = Math.max(latencyMs, m['latency_ms'] ?? 0);
  }
  return { errorRate, latencyMs };
}

/** the objectives of every workload: `twins` are the same workloads built again (same order) */
export function declaredObjectives(specs: readonly WorkloadSpec[], twins: readonly WorkloadSpec[], rng: Prng): ObjectiveEntry[] {
  return specs.map((spec, i) => {
    const peaks = healthyPeaks(twins[i]!);
    const drawn: WorkloadObjectives = {
      error_rate: Math.min(1, Math.max(0.02, peaks.errorRate * rng.between(2, 4))),
      ...(peaks.latencyMs > 0 ? { latency_ms: peaks.latencyMs * rng.between(2, 4) } : {}),
    };
    return { selector: `${NAMESPACE}/Deployment/${spec.name}`, ...drawn, ...spec.stated };
  });
}
