/**
 * Exact sliding ordinary least squares over the last W points (analytics.md §2.1), in the
 * co-moment form: O(1) per add and per eviction, with an exact recomputation from the stored
 * points every 1000 updates to bound floating-point drift. Points live in one Float64Array ring
 * (x and y side by side) that starts at 16 points and doubles while the window fills.
 *
 * Non-finite x or y is ignored (state unchanged).
 */
import { grownCapacity } from '../windows/grown-capacity.js';

export interface RegressionState {
  capacity: number;
  xs: number[];
  ys: number[];
  /** running moments, so a restored window continues bit for bit: [mx, my, vx, cxy, updates] */
  moments?: [number, number, number, number, number];
}

const RECOMPUTE_EVERY = 1000;

export class SlidingRegression {
  /** point k of the ring at [2k] (x) and [2k + 1] (y) */
  private xy: Float64Array;
  private room: number;
  private head = 0; // index of the oldest point
  private n = 0;
  private mx = 0;
  private my = 0;
  private vx = 0;
  private cxy = 0;
  private updates = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 2) throw new Error('capacity must be an integer >= 2');
    this.room = grownCapacity(0, capacity);
    this.xy = new Float64Array(2 * this.room);
  }

  get count(): number {
    return this.n;
  }

  get full(): boolean {
    return this.n === this.capacity;
  }

  push(x: number, y: number): void {
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    if (this.n === this.capacity) this.removeOldest();
    else if (this.n === this.room) this.grow();
    const i = this.slot(this.n);
    this.xy[2 * i] = x;
    this.xy[2 * i + 1] = y;
    this.n += 1;
    const dx = x - this.mx;
    this.mx += dx / this.n;
    this.my += (y - this.my) / this.n;
    this.cxy += dx * (y - this.my);
    this.vx += dx * (x - this.mx);
    this.updates += 1;
    if (this.updates % RECOMPUTE_EVERY === 0) this.recompute();
  }

  slope(): number {
    return this.n >= 2 && this.vx > 0 ? this.cxy / this.vx : 0;
  }

  intercept(): number {
    return this.my - this.slope() * this.mx;
  }

  predict(x: number): number {
    return this.slope() * x + this.intercept();
  }

  firstX(): number {
    return this.n === 0 ? 0 : (this.xy[2 * this.head] as number);
  }

  lastX(): number {
    return this.n === 0 ? 0 : (this.xy[2 * this.slot(this.n - 1)] as number);
  }

  lastY(): number {
    return this.n === 0 ? 0 : (this.xy[2 * this.slot(this.n - 1) + 1] as number);
  }

  meanY(): number {
    return this.my;
  }

  toJSON(): RegressionState {
    const xs: number[] = [];
    const ys: number[] = [];
    for (let k = 0; k < this.n; k += 1) {
      const i = this.slot(k);
      xs.push(this.xy[2 * i] as number);
      ys.push(this.xy[2 * i + 1] as number);
    }
    return { capacity: this.capacity, xs, ys, moments: [this.mx, this.my, this.vx, this.cxy, this.updates] };
  }

  static fromJSON(state: RegressionState): SlidingRegression {
    const r = new SlidingRegression(state.capacity);
    const n = Math.min(state.xs.length, state.ys.length, state.capacity);
    for (let k = 0; k < n; k += 1) r.push(state.xs[k] as number, state.ys[k] as number);
    const m = state.moments;
    if (m !== undefined && m.length === 5 && m.every(Number.isFinite) && r.n === n) {
      [r.mx, r.my, r.vx, r.cxy, r.updates] = m;
    }
    return r;
  }

  /**
   * Takes the running moments of a saved window that holds exactly these points (the window was
   * rebuilt by replaying them), so it continues bit for bit; false, and nothing changed, when the
   * points differ or the state is not one.
   */
  adoptMoments(state: unknown): boolean {
    if (typeof state !== 'object' || state === null) return false;
    const st = state as Partial<RegressionState>;
    const m = st.moments;
    if (st.capacity !== this.capacity || !Array.isArray(st.xs) || !Array.isArray(st.ys) || st.xs.length !== this.n || st.ys.length !== this.n) return false;
    if (!Array.isArray(m) || m.length !== 5 || !m.every((v) => Number.isFinite(v))) return false;
    for (let k = 0; k < this.n; k += 1) {
      const i = this.slot(k);
      if (st.xs[k] !== this.xy[2 * i] || st.ys[k] !== this.xy[2 * i + 1]) return false;
    }
    [this.mx, this.my, this.vx, this.cxy, this.updates] = m;
    return true;
  }

  /** ring index of the k-th oldest point */
  private slot(k: number): number {
    const i = this.head + k;
    return i >= this.capacity ? i - this.capacity : i;
  }

  /** doubles the storage while the window fills (head is 0 then: nothing has been evicted) */
  private grow(): void {
    const room = grownCapacity(this.room, this.capacity);
    const next = new Float64Array(2 * room);
    next.set(this.xy.subarray(0, 2 * this.n));
    this.xy = next;
    this.room = room;
  }

  private removeOldest(): void {
    const x = this.xy[2 * this.head] as number;
    const y = this.xy[2 * this.head + 1] as number;
    this.head = this.head + 1 === this.capacity ? 0 : this.head + 1;
    if (this.n === 1) {
      this.n = 0;
      this.mx = this.my = this.vx = this.cxy = 0;
      return;
    }
    const mxNew = this.mx - (x - this.mx) / (this.n - 1);
    const myNew = this.my - (y - this.my) / (this.n - 1);
    this.cxy -= (x - mxNew) * (y - this.my);
    this.vx -= (x - mxNew) * (x - this.mx);
    this.mx = mxNew;
    this.my = myNew;
    this.n -= 1;
    if (this.vx < 0) this.vx = 0;
  }

  /** Exact two-pass recomputation of the means and co-moments from the stored points. */
  private recompute(): void {
    let sx = 0;
    let sy = 0;
    for (let k = 0; k < this.n; k += 1) {
      const i = this.slot(k);
      sx += this.xy[2 * i] as number;
      sy += this.xy[2 * i + 1] as number;
    }
    this.mx = sx / this.n;
    this.my = sy / this.n;
    let vx = 0;
    let cxy = 0;
    for (let k = 0; k < this.n; k += 1) {
      const i = this.slot(k);
      const dx = (this.xy[2 * i] as number) - this.mx;
      vx += dx * dx;
      cxy += dx * ((this.xy[2 * i + 1] as number) - this.my);
    }
    this.vx = vx;
    this.cxy = cxy;
  }
}

/**
 * metricR of analytics.md §2.2: |α_b| / max(|α_s|, 1e-6), capped at 10; null until the burst
 * window is full. Noise gate: when |α_b| times the burst window's time span is below `noiseGate`,
 * the burst slope counts as 0.
 */
export function metricRatio(burst: SlidingRegression, stable: SlidingRegression, noiseGate: number): number | null {
  if (!burst.full) return null;
  const alphaB = Math.abs(burst.slope());
  const span = burst.lastX() - burst.firstX();
  if (alphaB * span < noiseGate) return 0;
  const r = alphaB / Math.max(Math.abs(stable.slope()), 1e-6);
  return Number.isFinite(r) ? Math.min(10, r) : 10;
}
