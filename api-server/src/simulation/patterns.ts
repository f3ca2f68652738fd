/**
 * Synthetic failure patterns of analytics.md §10, as pure functions of the generator tick
 * k = floor(elapsed / 5 s) and a noise source returning uniform values in [0, 1).
 * Values are fractions (cpu, memory, error and timeout rates), request_rate in req/s,
 * latency through `load_avg_1` (the reference's latency input), uptime in seconds.
 */
export const SIMULATION_PATTERNS = ['memory-leak', 'cascade-failure', 'traffic-surge', 'slow-burn'] as const;
export type SimulationPattern = (typeof SIMULATION_PATTERNS)[number];

export interface PatternSample {
  memory_percent: number;
  cpu_percent: number;
  load_avg_1: number;
  error_rate: number;
  timeout_rate: number;
  request_rate: number;
  uptime_seconds: number;
}

export type Noise = () => number;

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));
/** j(a): uniform noise in [-a, a] */
const jitter = (noise: Noise, a: number): number => (noise() * 2 - 1) * a;

export function patternSample(pattern: SimulationPattern, k: number, noise: Noise): PatternSample {
  const uptime_seconds = 5 * k;
  switch (pattern) {
    case 'memory-leak': {
      const memory = clamp01(0.1 + 0.02 * k);
      const error = memory > 0.6 ? Math.min(0.2, 0.5 * (memory - 0.6)) : 0;
      return {
        memory_percent: memory,
        cpu_percent: clamp01(0.25 + jitter(noise, 0.05)),
        load_avg_1: clamp01(0.05 + 0.005 * k),
        error_rate: error,
        timeout_rate: 0.3 * error,
        request_rate: 80 + jitter(noise, 10),
        uptime_seconds,
      };
    }
    case 'cascade-failure': {
      const error = k < 5 ? 0 : Math.min(0.15 * (k - 5), 0.95);
      return {
        memory_percent: clamp01(0.4 + jitter(noise, 0.05)),
        cpu_percent: clamp01(0.3 + 0.4 * error),
        load_avg_1: clamp01(0.1 + 0.6 * error),
        error_rate: error,
        timeout_rate: 0.5 * error,
        request_rate: Math.min(100, Math.max(5, 100 - 80 * error)),
        uptime_seconds,
      };
    }
    case 'traffic-surge': {
      const u = Math.min(k / 10, 2);
      return {
        memory_percent: clamp01(0.3 + 0.2 * u),
        cpu_percent: clamp01(0.2 + 0.3 * u),
        load_avg_1: clamp01(0.25 * u),
        error_rate: clamp01(0.1 * (u - 1.5)),
        timeout_rate: 0.01,
        request_rate: 50 * (1 + u),
        uptime_seconds,
      };
    }
    case 'slow-burn': {
      const d = 0.003 * k;
      const error = clamp01(0.2 * d);
      return {
        memory_percent: clamp01(0.2 + 0.5 * d),
        cpu_percent: clamp01(0.15 + d),
        load_avg_1: clamp01(0.3 * d),
        error_rate: error,
        timeout_rate: 0.2 * error,
        request_rate: 70 + jitter(noise, 5),
        uptime_seconds,
      };
    }
  }
}
