/**
 * Stage 7 of the tick, forecast and business (analytics.md §7.1, §7.2): the final health value
 * into the workload's 60-value history, the health forecast over it (its critical ETA from an
 * input trending to its failure edge), the near-miss tracker (from the first FusedR ≥ 2) and the
 * business signals. Pure: no clock, no I/O.
 */
import type { BusinessSignals, HealthForecast } from '../contract.js';
import { forecastHealthOf } from '../health-forecast/health-forecast.js';
import { NEAR_MISS_ENTER, NearMissTracker } from '../business/near-miss.js';
import { businessSignalsOf } from '../business/business-signals.js';
import type { StepEnv } from './step-env.js';

const HEALTH_HISTORY = 60;

/** the last ≤ 60 final health values; once full a ring whose oldest value is at `head` */
export class HealthHistory {
  private ring: number[] = [];
  private head = 0;

  /** a history holding `values` (oldest first; the last 60 kept) */
  static of(values: readonly number[]): HealthHistory {
    const h = new HealthHistory();
    h.ring = values.slice(-HEALTH_HISTORY);
    return h;
  }

  /** appends a final health value */
  push(h: number): void {
    const ring = this.ring;
    if (ring.length < HEALTH_HISTORY) {
      ring.push(h);
      // full: copied once to drop the array's growth slack
      if (ring.length === HEALTH_HISTORY) this.ring = ring.slice();
      return;
    }
    ring[this.head] = h;
    this.head = (this.head + 1) % HEALTH_HISTORY;
  }

  /** §7.1: the forecast over the history */
  forecast(calibrated: boolean, bucketMs: number): HealthForecast {
    return forecastHealthOf(this.ring, this.head, this.ring.length, calibrated, bucketMs);
  }

  /** the history, oldest first */
  values(): number[] {
    const ring = this.ring;
    const out: number[] = [];
    for (let k = 0; k < ring.length; k++) out.push(ring[(this.head + k) % ring.length]!);
    return out;
  }

  /** the sum of every eighth value (prefetching a workload ahead: the reads are the point) */
  touch(): number {
    let sum = 0;
    const ring = this.ring;
    for (let i = 0; i < ring.length; i += 8) sum += ring[i]!;
    return sum;
  }
}

/**
 * §7.1: the forecast after the step's health value; an input trending to its failure edge
 * (`inputEtaSeconds`, null without one) gives the critical ETA
 */
export function healthForecastStep(history: HealthHistory, health: number, calibrated: boolean, bucketMs: number, inputEtaSeconds: number | null): HealthForecast {
  history.push(health);
  const forecast = history.forecast(calibrated, bucketMs);
  if (inputEtaSeconds !== null) forecast.criticalEtaMinutes = Math.floor(inputEtaSeconds / 60);
  return forecast;
}

/** the near-miss tracker after the step: created at the first FusedR ≥ 2 (below, a new one stays as it is) */
export function nearMissStep(tracker: NearMissTracker | null, fusedR: number, tStep: number): NearMissTracker | null {
  let t = tracker;
  if (t === null && fusedR >= NEAR_MISS_ENTER) t = new NearMissTracker();
  if (t !== null) t.step(fusedR, tStep);
  return t;
}

/** §7.2: the business signals of workload `name` at `tStep` */
export function businessStep(name: string, errorRate: number, nearMiss: NearMissTracker | null, tStep: number, env: StepEnv): BusinessSignals {
  return businessSignalsOf(errorRate, env.slo ?? null, env.graph.callerCount(name, tStep), nearMiss === null ? 0 : nearMiss.recoveryDebt(tStep));
}
