/**
 * The five models' signed one-step residuals over the last hour (240 points) with running sums,
 * so each model's MAE, MSE and the sigma of its residuals over the last 200 points are O(1) to
 * read; the sums are recomputed exactly every 1000 points to bound drift.
 *
 * One ring of points, each slot holding every model's residual side by side (NaN: the model made
 * no forecast at that point), so a point writes one cache line, not five. A model forecasts at
 * every point once it is usable (usability only grows), so "its residuals over the last 240
 * points" are "its last 240 residuals". All of it lives in one Float64Array that starts at 16
 * points and doubles while the ring fills.
 */
import { grownCapacity } from '../windows/grown-capacity.js';

export const ERROR_RING = 240;
const SIGMA_WINDOW = 200;
const RECOMPUTE_EVERY = 1000;

// per-model statistics at [m * STATS + field]
const COUNT = 0;
const SUM_ABS = 1;
const SUM_SQ = 2;
const COUNT_200 = 3;
const SUM_200 = 4;
const SUM_SQ_200 = 5;
const STATS = 6;

export class ModelErrors {
  /** [statistics of every model | ring of points, `models` residuals per slot] */
  private data: Float64Array;
  private room: number;
  /** points pushed so far */
  private points = 0;
  private readonly ring: number;

  constructor(readonly models: number) {
    this.room = grownCapacity(0, ERROR_RING);
    this.ring = models * STATS;
    this.data = new Float64Array(this.ring + models * this.room);
  }

  count(m: number): number {
    return this.data[m * STATS + COUNT] as number;
  }

  /** one point: `residuals[m]` is model m's residual, NaN when it made no forecast */
  push(residuals: Float64Array): void {
    if (this.points === this.room && this.room < ERROR_RING) this.grow();
    const d = this.data;
    const models = this.models;
    const slot = this.ring + (this.points % ERROR_RING) * models;
    const slot200 = this.points >= SIGMA_WINDOW ? this.ring + ((this.points - SIGMA_WINDOW) % ERROR_RING) * models : -1;
    const full = this.points >= ERROR_RING;
    for (let m = 0; m < models; m += 1) {
      const st = m * STATS;
      if (full) {
        const old = d[slot + m] as number;
        if (!Number.isNaN(old)) {
          d[st + COUNT] = (d[st + COUNT] as number) - 1;
          d[st + SUM_ABS] = (d[st + SUM_ABS] as number) - Math.abs(old);
          d[st + SUM_SQ] = (d[st + SUM_SQ] as number) - old * old;
        }
      }
      if (slot200 >= 0) {
        const leaving = d[slot200 + m] as number;
        if (!Number.isNaN(leaving)) {
          d[st + COUNT_200] = (d[st + COUNT_200] as number) - 1;
          d[st + SUM_200] = (d[st + SUM_200] as number) - leaving;
          d[st + SUM_SQ_200] = (d[st + SUM_SQ_200] as number) - leaving * leaving;
        }
      }
      const e = residuals[m] as number;
      d[slot + m] = e;
      if (Number.isNaN(e)) continue;
      d[st + COUNT] = (d[st + COUNT] as number) + 1;
      d[st + SUM_ABS] = (d[st + SUM_ABS] as number) + Math.abs(e);
      d[st + SUM_SQ] = (d[st + SUM_SQ] as number) + e * e;
      d[st + COUNT_200] = (d[st + COUNT_200] as number) + 1;
      d[st + SUM_200] = (d[st + SUM_200] as number) + e;
      d[st + SUM_SQ_200] = (d[st + SUM_SQ_200] as number) + e * e;
    }
    this.points += 1;
    if (this.points % RECOMPUTE_EVERY === 0) this.recompute();
  }

  /** model m's k-th oldest residual, k < count(m) */
  at(m: number, k: number): number {
    const held = Math.min(this.points, ERROR_RING);
    const p = this.points - held + (held - this.count(m)) + k;
    return this.data[this.ring + (p % ERROR_RING) * this.models + m] as number;
  }

  mae(m: number): number {
    return Math.max(0, this.data[m * STATS + SUM_ABS] as number) / this.count(m);
  }

  mse(m: number): number {
    return Math.max(0, this.data[m * STATS + SUM_SQ] as number) / this.count(m);
  }

  /** population standard deviation of model m's residuals over the last 200 points */
  sigma(m: number): number {
    const n = this.data[m * STATS + COUNT_200] as number;
    if (n < 2) return 0;
    const mean = (this.data[m * STATS + SUM_200] as number) / n;
    return Math.sqrt(Math.max(0, (this.data[m * STATS + SUM_SQ_200] as number) / n - mean * mean));
  }

  private recompute(): void {
    const d = this.data;
    const held = Math.min(this.points, ERROR_RING);
    for (let m = 0; m < this.models; m += 1) {
      let count = 0;
      let sumAbs = 0;
      let sumSq = 0;
      let count200 = 0;
      let sum200 = 0;
      let sumSq200 = 0;
      for (let k = 0; k < held; k += 1) {
        const p = this.points - held + k;
        const e = d[this.ring + (p % ERROR_RING) * this.models + m] as number;
        if (Number.isNaN(e)) continue;
        count += 1;
        sumAbs += Math.abs(e);
        sumSq += e * e;
        if (p >= this.points - SIGMA_WINDOW) {
          count200 += 1;
          sum200 += e;
          sumSq200 += e * e;
        }
      }
      const st = m * STATS;
      d[st + COUNT] = count;
      d[st + SUM_ABS] = sumAbs;
      d[st + SUM_SQ] = sumSq;
      d[st + COUNT_200] = count200;
      d[st + SUM_200] = sum200;
      d[st + SUM_SQ_200] = sumSq200;
    }
  }

  /** doubles the ring while it fills (point p sits at slot p then: nothing has wrapped) */
  private grow(): void {
    this.room = grownCapacity(this.room, ERROR_RING);
    const next = new Float64Array(this.ring + this.models * this.room);
    next.set(this.data);
    this.data = next;
  }
}
