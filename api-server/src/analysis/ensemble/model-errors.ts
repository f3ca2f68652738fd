/**
 * The five models' signed one-step residuals over the last hour (240 points each) with running
 * sums, so each model's MAE, MSE and the sigma of its last 200 residuals are O(1) to read; the
 * sums are recomputed exactly every 1000 pushes to bound drift.
 *
 * All five rings and their sums share one Float64Array (one allocation per series instead of
 * ten); the rings start at 16 slots and double while they fill.
 */
import { grownCapacity } from '../windows/grown-capacity.js';

export const ERROR_RING = 240;
const SIGMA_WINDOW = 200;
const RECOMPUTE_EVERY = 1000;

// per-model statistics at [m * STATS + field]
const HEAD = 0;
const COUNT = 1;
const PUSHES = 2;
const SUM_ABS = 3;
const SUM_SQ = 4;
const SUM_200 = 5;
const SUM_SQ_200 = 6;
const STATS = 7;

export class ModelErrors {
  /** [statistics of every model | ring of model 0 | ring of model 1 | ...] */
  private data: Float64Array;
  private room: number;

  constructor(readonly models: number) {
    this.room = grownCapacity(0, ERROR_RING);
    this.data = new Float64Array(models * (STATS + this.room));
  }

  count(m: number): number {
    return this.data[m * STATS + COUNT] as number;
  }

  push(m: number, e: number): void {
    const d = this.data;
    const st = m * STATS;
    let count = d[st + COUNT] as number;
    if (count === this.room && this.room < ERROR_RING) {
      this.grow();
      this.push(m, e);
      return;
    }
    const ring = this.models * STATS + m * this.room;
    let head = d[st + HEAD] as number;
    if (count === ERROR_RING) {
      const old = d[ring + head] as number;
      d[st + SUM_ABS] = (d[st + SUM_ABS] as number) - Math.abs(old);
      d[st + SUM_SQ] = (d[st + SUM_SQ] as number) - old * old;
      head = head + 1 === ERROR_RING ? 0 : head + 1;
      d[st + HEAD] = head;
      count -= 1;
    }
    if (count >= SIGMA_WINDOW) {
      const leaving = this.at(m, count - SIGMA_WINDOW);
      d[st + SUM_200] = (d[st + SUM_200] as number) - leaving;
      d[st + SUM_SQ_200] = (d[st + SUM_SQ_200] as number) - leaving * leaving;
    }
    let slot = head + count;
    if (slot >= ERROR_RING) slot -= ERROR_RING;
    d[ring + slot] = e;
    d[st + COUNT] = count + 1;
    d[st + SUM_ABS] = (d[st + SUM_ABS] as number) + Math.abs(e);
    d[st + SUM_SQ] = (d[st + SUM_SQ] as number) + e * e;
    d[st + SUM_200] = (d[st + SUM_200] as number) + e;
    d[st + SUM_SQ_200] = (d[st + SUM_SQ_200] as number) + e * e;
    const pushes = (d[st + PUSHES] as number) + 1;
    d[st + PUSHES] = pushes;
    if (pushes % RECOMPUTE_EVERY === 0) this.recompute(m);
  }

  /** model m's k-th oldest residual */
  at(m: number, k: number): number {
    let i = (this.data[m * STATS + HEAD] as number) + k;
    if (i >= ERROR_RING) i -= ERROR_RING;
    return this.data[this.models * STATS + m * this.room + i] as number;
  }

  mae(m: number): number {
    return Math.max(0, this.data[m * STATS + SUM_ABS] as number) / this.count(m);
  }

  mse(m: number): number {
    return Math.max(0, this.data[m * STATS + SUM_SQ] as number) / this.count(m);
  }

  /** population standard deviation of model m's last 200 residuals */
  sigma(m: number): number {
    const n = Math.min(SIGMA_WINDOW, this.count(m));
    if (n < 2) return 0;
    const mean = (this.data[m * STATS + SUM_200] as number) / n;
    return Math.sqrt(Math.max(0, (this.data[m * STATS + SUM_SQ_200] as number) / n - mean * mean));
  }

  private recompute(m: number): void {
    const d = this.data;
    const st = m * STATS;
    const count = this.count(m);
    let sumAbs = 0;
    let sumSq = 0;
    let sum200 = 0;
    let sumSq200 = 0;
    for (let k = 0; k < count; k += 1) {
      const e = this.at(m, k);
      sumAbs += Math.abs(e);
      sumSq += e * e;
      if (k >= count - SIGMA_WINDOW) {
        sum200 += e;
        sumSq200 += e * e;
      }
    }
    d[st + SUM_ABS] = sumAbs;
    d[st + SUM_SQ] = sumSq;
    d[st + SUM_200] = sum200;
    d[st + SUM_SQ_200] = sumSq200;
  }

  /** doubles every ring while they fill (heads are 0 then: nothing has been evicted) */
  private grow(): void {
    const room = grownCapacity(this.room, ERROR_RING);
    const rings = this.models * STATS;
    const next = new Float64Array(this.models * (STATS + room));
    next.set(this.data.subarray(0, rings));
    for (let m = 0; m < this.models; m += 1) next.set(this.data.subarray(rings + m * this.room, rings + (m + 1) * this.room), rings + m * room);
    this.data = next;
    this.room = room;
  }
}
