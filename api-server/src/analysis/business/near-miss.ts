/**
 * Near-miss state machine and recovery_debt of analytics.md §7.2, one instance per workload,
 * evaluated every analysis step (calibration included) with FusedR:
 * - FusedR ≥ 3.0 → a real rupture: leave near-miss (not counted);
 * - else FusedR ≥ 2.0 and not in near-miss → enter near-miss;
 * - else FusedR < 1.0 while in near-miss → record a near-miss at t_step and leave.
 * recovery_debt = near-misses recorded in the 7 days up to the asked time.
 *
 * Non-finite FusedR: NaN is ignored (no transition); +Infinity counts as ≥ 3.0; −Infinity as < 1.0.
 * State bound: near-miss times of the last 7 days; one needs at least two steps, so at most
 * 7 d / 30 s = 20 160 entries (hard cap {@link MAX_NEAR_MISSES}, oldest dropped).
 */
import { z } from 'zod';

export const NEAR_MISS_ENTER = 2.0;
export const NEAR_MISS_RUPTURE = 3.0;
export const NEAR_MISS_RECOVERED = 1.0;
export const RECOVERY_DEBT_WINDOW_MS = 7 * 24 * 3600_000;
export const MAX_NEAR_MISSES = 20_160;

const nearMissStateSchema = z.object({
  inNearMiss: z.boolean(),
  recordedAtMs: z.array(z.number()).max(MAX_NEAR_MISSES),
});
/** JSON form of a {@link NearMissTracker}. */
export type NearMissState = z.infer<typeof nearMissStateSchema>;

export class NearMissTracker {
  private inNearMiss = false;
  private readonly recorded: number[] = [];

  /** Runs the state machine for one step; returns true when this step recorded a near-miss. */
  step(fusedR: number, tStepMs: number): boolean {
    if (Number.isNaN(fusedR)) return false;
    let recordedNow = false;
    if (fusedR >= NEAR_MISS_RUPTURE) {
      this.inNearMiss = false;
    } else if (fusedR >= NEAR_MISS_ENTER) {
      this.inNearMiss = true;
    } else if (fusedR < NEAR_MISS_RECOVERED && this.inNearMiss) {
      this.inNearMiss = false;
      if (Number.isFinite(tStepMs)) {
        this.recorded.push(tStepMs);
        recordedNow = true;
      }
    }
    if (Number.isFinite(tStepMs)) this.forgetBefore(tStepMs - RECOVERY_DEBT_WINDOW_MS);
    while (this.recorded.length > MAX_NEAR_MISSES) this.recorded.shift();
    return recordedNow;
  }

  /** Whether the workload is in the near-miss state. */
  isInNearMiss(): boolean {
    return this.inNearMiss;
  }

  /** recovery_debt: near-misses recorded in (nowMs − 7 d, nowMs]. 0 for non-finite nowMs. */
  recoveryDebt(nowMs: number): number {
    if (!Number.isFinite(nowMs)) return 0;
    let n = 0;
    for (const t of this.recorded) if (t > nowMs - RECOVERY_DEBT_WINDOW_MS && t <= nowMs) n++;
    return n;
  }

  exportState(): NearMissState {
    return { inNearMiss: this.inNearMiss, recordedAtMs: [...this.recorded] };
  }

  /** Rebuilds a tracker from {@link exportState} output; throws a ZodError naming the field when malformed. */
  static fromState(state: unknown): NearMissTracker {
    const s = nearMissStateSchema.parse(state);
    const t = new NearMissTracker();
    t.inNearMiss = s.inNearMiss;
    t.recorded.push(...s.recordedAtMs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b));
    return t;
  }

  private forgetBefore(cutoffMs: number): void {
    let drop = 0;
    while (drop < this.recorded.length && this.recorded[drop] <= cutoffMs) drop++;
    if (drop > 0) this.recorded.splice(0, drop);
  }
}
