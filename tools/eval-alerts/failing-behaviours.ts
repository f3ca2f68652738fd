/**
 * Failing behaviours: healthy for hours (8-30 h, drawn), then a degradation that ends at a stated
 * failure point where a person would call it an outage; telemetry stops 15 minutes later. The
 * slow ones (leak, error creep, latency burn, CPU saturation) count for the median lead time.
 */
import type { Prng } from './prng.js';
import { BUCKETS_PER_HOUR, HealthyBase, clamp01, ramp, type WorkloadSpec } from './workload-model.js';

export const FAILING_BEHAVIOURS = ['memory_leak', 'error_creep', 'latency_burn', 'cpu_saturation', 'crash', 'dependency_failure'] as const;
export type FailingBehaviour = (typeof FAILING_BEHAVIOURS)[number];

/** buckets of telemetry after the failure point */
const AFTER_FAILURE = 60;

export function failingWorkload(behaviour: FailingBehaviour, name: string, rng: Prng, totalBuckets: number): WorkloadSpec {
  const base = new HealthyBase(rng);
  const minutes = (lo: number, hi: number): number => rng.int(lo * 4, hi * 4);
  const slow = behaviour !== 'crash' && behaviour !== 'dependency_failure';
  const length = behaviour === 'crash' ? 12 : behaviour === 'dependency_failure' ? minutes(10, 30) : behaviour === 'cpu_saturation' ? minutes(30, 120) : minutes(60, 240);
  const latest = Math.max(BUCKETS_PER_HOUR, totalBuckets - length - AFTER_FAILURE);
  const onset = Math.min(latest, rng.int(8 * BUCKETS_PER_HOUR, 30 * BUCKETS_PER_HOUR));
  const failure = onset + length;
  const severity = rng.next();
  const shape = (b: number): number => ramp(b, onset, failure);
  const sample = (b: number) => {
    const l = base.levels(b);
    const f = shape(b);
    switch (behaviour) {
      case 'memory_leak': {
        // convex growth to the limit, then the OOM kill (errors while it restarts)
        l.memory = l.memory + (0.99 - l.memory) * f ** 1.3;
        if (f >= 1) {
          l.errorRate = 0.3;
          l.errorLogRate = 5;
        }
        break;
      }
      case 'error_creep': {
        const top = 0.08 + 0.15 * severity;
        l.errorRate += top * f;
        l.errorLogRate += 6 * top * f * l.infoRate;
        break;
      }
      case 'latency_burn':
        l.latencyMs *= 1 + (3 + 4 * severity) * f ** 1.5;
        l.warnRate += 0.5 * f;
        break;
      case 'cpu_saturation':
        l.requestRate *= 1 + 2 * f;
        l.cpu = l.cpu + (0.98 - l.cpu) * f;
        l.latencyMs *= 1 + 3 * Math.max(0, f - 0.6) / 0.4;
        break;
      case 'crash':
        // the process dies and starts again: uptime restarts from the crash
        if (b === onset) base.uptimeFrom = onset;
        if (b >= onset) {
          l.errorRate = 0.3 + 0.5 * severity;
          l.errorLogRate = 10 + 20 * severity;
          l.latencyMs *= 2;
          l.cpu = clamp01(l.cpu * 0.5);
        }
        break;
      case 'dependency_failure':
        // the dependency's spans error and time out; the caller's errors follow
        l.errorRate += (0.4 + 0.5 * severity) * f;
        l.latencyMs *= 1 + 4 * f;
        l.errorLogRate += 8 * f;
        break;
    }
    const drawn = base.draw(b, l);
    if (behaviour === 'dependency_failure') {
      // the calls to the dependency (a child span per root span) fail: the trace graph names it
      const p = (0.4 + 0.5 * severity) * f;
      let errors = 0;
      for (let k = 0; k < drawn.spans; k++) if (rng.next() < p) errors += 1;
      drawn.downstream = { service: `${name}-store`, spans: drawn.spans, errors, ms: drawn.spanMs * 0.6 };
    }
    return drawn;
  };
  // In this evaluation a failure point IS where the degradation crosses the team's objective: for
  // the error creep and the latency burn the workload's objective is the noise-free level of the
  // degrading input at the failure point (the severity drawn above), declared before any data.
  const atFailure = base.levels(failure);
  const stated =
    behaviour === 'error_creep'
      ? { error_rate: atFailure.errorRate + 0.08 + 0.15 * severity }
      : behaviour === 'latency_burn'
        ? { latency_ms: atFailure.latencyMs * (4 + 4 * severity) }
        : undefined;
  return {
    ...(stated === undefined ? {} : { stated }),
    name,
    behaviour,
    kind: 'failing',
    startBucket: 0,
    endBucket: failure + AFTER_FAILURE,
    failure: { onsetBucket: onset, failureBucket: behaviour === 'crash' ? onset + 12 : failure, slow },
    windows: [],
    contextBuckets: [],
    sample,
  };
}
