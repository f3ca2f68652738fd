/**
 * Residual records of `models` models with storage of their own (the arithmetic is
 * error-slots.ts): the scalars in a Float64Array, the ring in a Float32Array that starts at 16
 * points and doubles while the 240-point ring fills. A series keeps its models' residuals inside
 * its own memory instead (series-memory.ts).
 */
import { grownCapacity } from '../windows/grown-capacity.js';
import { ERROR_RING, errorAt, errorCount, errorMae, errorMse, errorPoints, errorPush, errorSigma, errorStats } from './error-slots.js';

export { ERROR_RING } from './error-slots.js';

export class ModelErrors {
  /** the scalars (points pushed, running sums per model) */
  private readonly stats: Float64Array;
  /** the ring of `room` points, `models` residuals per slot */
  private ring: Float32Array;
  private room: number;

  constructor(readonly models: number) {
    this.room = grownCapacity(0, ERROR_RING);
    this.stats = new Float64Array(errorStats(models));
    this.ring = new Float32Array(models * this.room);
  }

  count(m: number): number {
    return errorCount(this.stats, 0, m);
  }

  /** one point: `residuals[m]` is model m's residual, NaN when it made no forecast */
  push(residuals: Float64Array): void {
    if (errorPoints(this.stats, 0) === this.room && this.room < ERROR_RING) this.grow();
    errorPush(this.stats, 0, this.ring, 0, this.models, residuals);
  }

  /** model m's k-th oldest residual, k < count(m) */
  at(m: number, k: number): number {
    return errorAt(this.stats, 0, this.ring, 0, this.models, m, k);
  }

  mae(m: number): number {
    return errorMae(this.stats, 0, m);
  }

  mse(m: number): number {
    return errorMse(this.stats, 0, m);
  }

  /** population standard deviation of model m's residuals over the last 200 points */
  sigma(m: number): number {
    return errorSigma(this.stats, 0, this.ring, 0, this.models, m);
  }

  /** doubles the ring while it fills (point p sits at slot p then: nothing has wrapped) */
  private grow(): void {
    this.room = grownCapacity(this.room, ERROR_RING);
    const next = new Float32Array(this.models * this.room);
    next.set(this.ring);
    this.ring = next;
  }
}
