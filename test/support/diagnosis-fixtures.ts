/**
 * Builders of diagnosis inputs (api-server/src/analysis/explain/diagnosis.ts) for the explain
 * unit tests: input trends and a quiet workload's DiagnosisInput, overridable per test.
 */
import type { DiagnosisInput, InputTrend } from '../../api-server/src/analysis/explain/diagnosis.js';

/** a straight rise (or fall) from `from` to `to` over `spanSeconds`; the burst slope is the rise's unless given */
export function trend(input: string, from: number, to: number, spanSeconds: number, burstSlope?: number): InputTrend {
  const slope = (to - from) / spanSeconds;
  return { input, from, to, spanSeconds, slopePerSecond: slope, burstSlopePerSecond: burstSlope ?? slope, robustSlopePerSecond: Number.NaN };
}

/** an input that held `v` for the hour */
export const flat = (input: string, v: number): InputTrend => ({ input, from: v, to: v, spanSeconds: 3600, slopePerSecond: 0, burstSlopePerSecond: 0, robustSlopePerSecond: 0 });

/** a workload where nothing moved: memory 0.4, cpu 0.3, latency 0.1, error rate 1 %, 100 requests, no restarts, edges or deploy */
export function diagnosisInput(overrides: Partial<DiagnosisInput> = {}): DiagnosisInput {
  return {
    trends: [flat('memory', 0.4), flat('cpu', 0.3), flat('latency', 0.1), flat('error_rate', 0.01)],
    requestRate: flat('request_rate', 100),
    restarts: null,
    uptimeResets: 0,
    downstream: [],
    deploy: null,
    primaryMetric: null,
    ...overrides,
  };
}
