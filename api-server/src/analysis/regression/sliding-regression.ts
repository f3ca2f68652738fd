/**
 * Sliding least-squares lines as objects (the arithmetic is line-slots.ts):
 * - `SlidingRegression`: a line with storage of its own, which starts at 16 points and doubles
 *   while the window fills;
 * - `LineView`: a line living in another owner's memory (a series' burst and stable lines, which
 *   the owner pushes; the view reads them, saves and restores their moments).
 * `RegressionLine` is what both offer to readers such as metricR.
 *
 * Non-finite x or y pushed to a SlidingRegression is ignored (state unchanged).
 */
import { grownCapacity } from '../windows/grown-capacity.js';
import {
  LINE_POINTS,
  NO_TIMES,
  lineCount,
  lineFirstX,
  lineHolds,
  lineIntercept,
  lineLastX,
  lineLastY,
  lineMeanY,
  linePoints,
  linePredict,
  linePush,
  lineRegion,
  lineSetMoments,
  lineSlope,
  lineSlopeStdError,
  type LineMoments,
} from './line-slots.js';

export interface RegressionState {
  capacity: number;
  xs: number[];
  ys: number[];
  /** running moments, so a restored window continues bit for bit: [mx, my, vx, cxy, updates] */
  moments?: LineMoments;
}

/** what a reader of a sliding line sees */
export interface RegressionLine {
  readonly capacity: number;
  readonly count: number;
  readonly full: boolean;
  slope(): number;
  /** the slope's standard error from the line's residuals (+Infinity under 3 points) */
  slopeStdError(): number;
  intercept(): number;
  predict(x: number): number;
  firstX(): number;
  lastX(): number;
  lastY(): number;
  meanY(): number;
  toJSON(): RegressionState;
  /**
   * Takes the running moments of a saved window that holds exactly these points (the window was
   * rebuilt by replaying them), so it continues bit for bit; false, and nothing changed, when the
   * points differ or the state is not one.
   */
  adoptMoments(state: unknown): boolean;
}

/** a line's memory and where the line starts in it (the memory may be replaced as it grows) */
export interface LineHost {
  readonly memory: Float64Array;
  /** the memory's Uint16 view (replaced with it): where a split line's xs are (line-slots.ts lineSplitPoints) */
  readonly positions: Uint16Array;
}

abstract class LineReader implements RegressionLine {
  abstract readonly capacity: number;
  protected abstract get d(): Float64Array;
  protected abstract get at(): number;
  /** the memory's Uint16 view, where split points keep their xs (line-slots.ts) */
  protected abstract get t(): Uint16Array;

  get count(): number {
    return lineCount(this.d, this.at);
  }
  get full(): boolean {
    return this.count === this.capacity;
  }
  slope(): number {
    return lineSlope(this.d, this.at);
  }
  slopeStdError(): number {
    return lineSlopeStdError(this.d, this.at, this.capacity, this.t);
  }
  intercept(): number {
    return lineIntercept(this.d, this.at);
  }
  predict(x: number): number {
    return linePredict(this.d, this.at, x);
  }
  firstX(): number {
    return lineFirstX(this.d, this.at, this.t);
  }
  lastX(): number {
    return lineLastX(this.d, this.at, this.capacity, this.t);
  }
  lastY(): number {
    return lineLastY(this.d, this.at, this.capacity, this.t);
  }
  meanY(): number {
    return lineMeanY(this.d, this.at);
  }
  toJSON(): RegressionState {
    const { xs, ys, moments } = linePoints(this.d, this.at, this.capacity, this.t);
    return { capacity: this.capacity, xs, ys, moments };
  }
  adoptMoments(state: unknown): boolean {
    if (typeof state !== 'object' || state === null) return false;
    const st = state as Partial<RegressionState>;
    const m = st.moments;
    if (st.capacity !== this.capacity || !Array.isArray(st.xs) || !Array.isArray(st.ys)) return false;
    if (!Array.isArray(m) || m.length !== 5 || !m.every((v) => Number.isFinite(v))) return false;
    if (!lineHolds(this.d, this.at, this.capacity, st.xs, st.ys, this.t)) return false;
    lineSetMoments(this.d, this.at, m);
    return true;
  }
}

export class SlidingRegression extends LineReader {
  private memory: Float64Array;
  private room: number;

  constructor(readonly capacity: number) {
    super();
    if (!Number.isInteger(capacity) || capacity < 2) throw new Error('capacity must be an integer >= 2');
    this.room = grownCapacity(0, capacity);
    this.memory = new Float64Array(lineRegion(this.room));
  }

  protected get d(): Float64Array {
    return this.memory;
  }
  protected get at(): number {
    return 0;
  }
  protected get t(): Uint16Array {
    return NO_TIMES;
  }

  push(x: number, y: number): void {
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    const n = lineCount(this.memory, 0);
    if (n === this.room && n < this.capacity) this.grow();
    linePush(this.memory, 0, this.capacity, x, y, NO_TIMES);
  }

  static fromJSON(state: RegressionState): SlidingRegression {
    const r = new SlidingRegression(state.capacity);
    const n = Math.min(state.xs.length, state.ys.length, state.capacity);
    for (let k = 0; k < n; k += 1) r.push(state.xs[k] as number, state.ys[k] as number);
    const m = state.moments;
    if (m !== undefined && m.length === 5 && m.every(Number.isFinite) && r.count === n) lineSetMoments(r.memory, 0, m);
    return r;
  }

  /** doubles the storage while the window fills (head is 0 then: the points are a prefix) */
  private grow(): void {
    this.room = grownCapacity(this.room, this.capacity);
    const next = new Float64Array(LINE_POINTS + 2 * this.room);
    next.set(this.memory);
    this.memory = next;
  }
}

/** a line at a fixed offset of a host's memory, pushed by the host */
export class LineView extends LineReader {
  constructor(
    private readonly host: LineHost,
    private readonly offset: number,
    readonly capacity: number,
  ) {
    super();
  }
  protected get d(): Float64Array {
    return this.host.memory;
  }
  protected get at(): number {
    return this.offset;
  }
  protected get t(): Uint16Array {
    return this.host.positions;
  }
}

/**
 * metricR of analytics.md §2.2: |α_b| / max(|α_s|, 1e-6), capped at 10; null until the burst
 * window is full. Noise gate: when |α_b| times the burst window's time span is below `noiseGate`,
 * the burst slope counts as 0.
 */
export function metricRatio(burst: RegressionLine, stable: RegressionLine, noiseGate: number): number | null {
  if (!burst.full) return null;
  return slopeRatio(burst.slope(), burst.lastX() - burst.firstX(), stable.slope(), noiseGate);
}

/** metricR of a full burst window from its slope and time span and the stable slope */
export function slopeRatio(burstSlope: number, burstSpan: number, stableSlope: number, noiseGate: number): number {
  const alphaB = Math.abs(burstSlope);
  if (alphaB * burstSpan < noiseGate) return 0;
  const r = alphaB / Math.max(Math.abs(stableSlope), 1e-6);
  return Number.isFinite(r) ? Math.min(10, r) : 10;
}
