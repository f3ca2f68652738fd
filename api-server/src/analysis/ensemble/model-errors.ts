/**
 * Residual records of `models` models with storage of their own (the arithmetic is
 * error-slots.ts): the points pushed, the closed blocks' sums and the six blocks in one Float64Array. A series keeps its
 * models' residual blocks inside its own memory instead (series-memory.ts).
 */
import { ERROR_BLOCKS, ERROR_BLOCK, errorBlocksSize, errorPush, errorSigma, errorStats, errorWindowSums } from './error-slots.js';

export { ERROR_BLOCK, ERROR_BLOCKS, SIGMA_BLOCKS } from './error-slots.js';

export class ModelErrors {
  /** the points pushed, then the blocks */
  private readonly d: Float64Array;
  private readonly bl: number;

  /** the MAE/MSE window's counts and sums, read afresh by each call */
  private readonly counts: Float64Array;
  private readonly sumAbs: Float64Array;
  private readonly sumSq: Float64Array;

  constructor(readonly models: number) {
    this.counts = new Float64Array(models);
    this.sumAbs = new Float64Array(models);
    this.sumSq = new Float64Array(models);
    this.bl = errorStats(models);
    this.d = new Float64Array(this.bl + errorBlocksSize(models, ERROR_BLOCKS * ERROR_BLOCK));
  }

  /** the memory (the points pushed at 0, then the closed blocks' sums; the blocks from `blocksAt`) */
  get memory(): Float64Array {
    return this.d;
  }

  get blocksAt(): number {
    return this.bl;
  }

  /** model m's residuals in the MAE/MSE window */
  count(m: number): number {
    this.sums();
    return this.counts[m] as number;
  }

  /** one point: `residuals[m]` is model m's residual, NaN when it made no forecast */
  push(residuals: Float64Array): void {
    errorPush(this.d, 0, this.bl, this.models, residuals);
  }

  mae(m: number): number {
    this.sums();
    return (this.sumAbs[m] as number) / (this.counts[m] as number);
  }

  mse(m: number): number {
    this.sums();
    return (this.sumSq[m] as number) / (this.counts[m] as number);
  }

  /** population standard deviation of model m's residuals over the sigma window (161 to 200 points) */
  sigma(m: number): number {
    return errorSigma(this.d, 0, this.bl, this.models, m);
  }

  private sums(): void {
    errorWindowSums(this.d, 0, this.bl, this.models, this.counts, this.sumAbs, this.sumSq);
  }
}
