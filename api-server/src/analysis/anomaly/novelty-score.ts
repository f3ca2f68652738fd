/**
 * The novelty score of one series: how far the newest point is from everything the series has
 * shown before, in [0, 1], causal (no look-ahead) and O(1) per point. It is the `novelty`
 * detection method of the service and the anomaly score `npm run eval:nab` scores (docs/nab.md).
 *
 * Six experts each measure one kind of departure, d >= 0:
 * - range:      how far y lies outside [min, max] of the previous ~2000 points, in units of that
 *               range (20 blocks of 100 points; the open block counts too);
 * - dispersion: mean |y - median| over the last 12 points (median of the series' 300-value window);
 * - day:        |y - profile| / (slot deviation + series deviation) against an adaptive profile of
 *               48 half-hour slots of the UTC day;
 * - week:       the same against 336 half-hour slots of the UTC week;
 * - context:    after CAD OSE: y quantised into 4 levels of the [min, max] seen so far; the
 *               fraction of the contexts ending here (its last 2..7 levels) not in a fixed
 *               512-slot table of seen contexts, averaged over 10 points;
 * - run:        a value repeated exactly for 20 % longer than the longest earlier run (of 10
 *               points or more): the excess in units of that run, at that one point.
 * Range and run score d / (d + 0.1). The other four are calibrated against their own past:
 * e = d / h, where h is the decaying maximum of that expert's earlier d (h <- max(d, 0.9998 h) per
 * point, a half-life of ~3 500 points), scored e / (1 + e): 0.5 means "as large as the largest
 * departure this series has recently shown". The score is the largest of the six.
 * Repeats are suppressed: within 100 points of a point that scored >= 0.5, only a higher score is
 * reported (0 otherwise), so one incident reports its onset instead of every point of it.
 * Nothing is scored during the first 300 points (warm-up).
 *
 * Profile slots learn at 10 % per 5 minutes of sample time (1 - 0.9^(dt / 300 s) per point), so a
 * profile means the same at the service's 15-second buckets as at NAB's 5-minute rows; a slot is
 * used from its third point on. Windows and the decay count points (analytics.md §5.6).
 *
 * Memory: one buffer per series (7 116 bytes) seen as 28 Float64 scalars, 1 204 Float32 values
 * (profile slots with mean, deviation and count side by side, range blocks, dispersion ring) and
 * 519 Int32 (context table and the last 7 levels); all persist with `toJSON` (version 2) and come
 * back with `fromJSON`.
 */

export const NOVELTY = {
  warmupPoints: 300,
  rangeBlocks: 20,
  rangeBlockPoints: 100,
  rangeScale: 0.1,
  dispersionPoints: 12,
  historyDecay: 0.9998,
  daySlots: 48,
  weekSlots: 336,
  /** slot learning rate per `slotRateSeconds` of sample time */
  slotRate: 0.1,
  slotRateSeconds: 300,
  /** a slot scores from its (slotMinPoints + 1)-th point on */
  slotMinPoints: 2,
  /** per-point weight of the series-wide deviation added to each slot's own */
  seriesDeviationRate: 0.01,
  suppressPoints: 100,
  suppressFrom: 0.5,
  /** context expert: levels of the quantised value, context lengths 2..orders+1, table slots */
  contextLevels: 4,
  contextOrders: 6,
  contextSlots: 512,
  /** points of the context expert's short mean of unseen fractions (HTM's averaging window) */
  contextMeanPoints: 10,
  /** run expert: scores once, when a run of one exact value becomes this much longer than the longest before */
  runExcess: 0.2,
  /** the longest earlier run counts from this many points on */
  runMinPoints: 10,
} as const;

const DAY_S = 86_400;
const WEEK_S = 7 * DAY_S;
// 1970-01-01 was a Thursday: shift so that week slot 0 starts on Monday 00:00 UTC
const WEEK_SHIFT_S = 3 * DAY_S;

// layout of the Float32 state: a profile slot's mean, deviation and count side by side (one
// cache line per point and profile), then the range blocks and the dispersion ring
const SLOT_MEAN = 0;
const SLOT_DEV = 1;
const SLOT_CNT = 2;
const SLOT_SIZE = 3;
const DAY = 0;
const WEEK = DAY + SLOT_SIZE * NOVELTY.daySlots;
const B_MAX = WEEK + SLOT_SIZE * NOVELTY.weekSlots;
const B_MIN = B_MAX + NOVELTY.rangeBlocks;
const V_RING = B_MIN + NOVELTY.rangeBlocks;
const F32_SIZE = V_RING + NOVELTY.dispersionPoints;

// layout of the Float64 scalars
const S_POINTS = 0; // points seen
const S_LAST_X = 1; // previous point's time (s)
const S_OPEN_MAX = 2; // extremes of the open range block
const S_OPEN_MIN = 3;
const S_BLOCKS = 4; // completed range blocks held (<= rangeBlocks)
const S_V_SUM = 5; // sum of the dispersion ring
const S_V_COUNT = 6;
const S_H_DISP = 7; // decaying maxima of the calibrated experts (NaN: none yet)
const S_H_DAY = 8;
const S_H_WEEK = 9;
const S_DAY_DEV = 10; // series-wide deviations of the day and week profiles
const S_WEEK_DEV = 11;
const S_LAST_HOLD = 12; // index of the last point that scored >= suppressFrom
const S_HOLD_SCORE = 13;
const S_BLOCK_HEAD = 14; // ring position of the oldest completed block
const S_EXPERTS = 15; // the last point's six expert scores (range, dispersion, day, week, context, run)
const S_Q_MIN = 21; // the extremes seen so far, which the context expert quantises against
const S_Q_MAX = 22;
const S_CTX_MEAN = 23; // short mean of the context expert's unseen fraction
const S_H_CTX = 24; // its decaying maximum (NaN: none yet)
const S_RUN = 25; // points the value has repeated exactly (0: it just changed)
const S_LONGEST_RUN = 26; // the longest completed run (NaN: none yet)
const S_PREV_Y = 27;
const F64_SIZE = 28;
const EXPERTS = 6;

// layout of the Int32 context state: the hash table of seen contexts (0: empty), then the ring of
// the last contextOrders + 1 quantised values
const C_KEY = 0;
const C_RING = C_KEY + NOVELTY.contextSlots;
const C_RING_SIZE = NOVELTY.contextOrders + 1;
const I32_SIZE = C_RING + C_RING_SIZE;
const STATE_VERSION = 2;

const ratioScore = (d: number, h: number): number => {
  if (!(d > 0) || !Number.isFinite(h)) return 0;
  const e = d / (h + 1e-9);
  return e / (1 + e);
};

export class NoveltyScore {
  private readonly f: Float32Array;
  private readonly s: Float64Array;
  private readonly c: Int32Array;

  /** a fresh score, or the views of `restored` (from fromJSON) */
  constructor(restored?: { f: Float32Array; s: Float64Array; c: Int32Array }) {
    const state = restored ?? NoveltyScore.allocate();
    this.f = state.f;
    this.s = state.s;
    this.c = state.c;
    if (restored === undefined) {
      NoveltyScore.freshProfiles(this.f);
      NoveltyScore.freshScalars(this.s);
    }
  }

  /** the three state arrays as views of one buffer (scalars first, for their 8-byte alignment) */
  private static allocate(): { f: Float32Array; s: Float64Array; c: Int32Array } {
    const buffer = new ArrayBuffer(F64_SIZE * 8 + F32_SIZE * 4 + I32_SIZE * 4);
    return {
      s: new Float64Array(buffer, 0, F64_SIZE),
      f: new Float32Array(buffer, F64_SIZE * 8, F32_SIZE),
      c: new Int32Array(buffer, F64_SIZE * 8 + F32_SIZE * 4, I32_SIZE),
    };
  }

  private static freshProfiles(f: Float32Array): void {
    for (let k = 0; k < NOVELTY.daySlots; k += 1) f[DAY + SLOT_SIZE * k + SLOT_MEAN] = NaN;
    for (let k = 0; k < NOVELTY.weekSlots; k += 1) f[WEEK + SLOT_SIZE * k + SLOT_MEAN] = NaN;
  }

  private static freshScalars(s: Float64Array): void {
    s[S_LAST_X] = NaN;
    s[S_OPEN_MAX] = -Infinity;
    s[S_OPEN_MIN] = Infinity;
    s[S_H_DISP] = NaN;
    s[S_H_DAY] = NaN;
    s[S_H_WEEK] = NaN;
    s[S_LAST_HOLD] = -1e12;
    s[S_Q_MIN] = Infinity;
    s[S_Q_MAX] = -Infinity;
    s[S_H_CTX] = NaN;
    s[S_LONGEST_RUN] = NaN;
    s[S_PREV_Y] = NaN;
  }

  /**
   * Scores `y` at `atSeconds` (sample time, epoch seconds for the day/week slots). `median`: the
   * median of the series' recent window, NaN while that window is not full (no dispersion yet).
   * Non-finite y or time: 0 and nothing learned.
   */
  observe(y: number, atSeconds: number, median: number): number {
    if (!Number.isFinite(y) || !Number.isFinite(atSeconds)) return 0;
    const s = this.s;
    const i = s[S_POINTS] as number;

    const dRange = this.rangeDeparture(y);
    const dDisp = this.dispersion(y, median);
    const lastX = s[S_LAST_X] as number;
    const dtSteps = Number.isFinite(lastX) && atSeconds > lastX ? (atSeconds - lastX) / NOVELTY.slotRateSeconds : 1;
    const rate = Math.min(1, 1 - Math.pow(1 - NOVELTY.slotRate, dtSteps));
    const daySlot = Math.floor((((atSeconds % DAY_S) + DAY_S) % DAY_S) / (DAY_S / NOVELTY.daySlots));
    const weekSlot = Math.floor(((((atSeconds + WEEK_SHIFT_S) % WEEK_S) + WEEK_S) % WEEK_S) / (WEEK_S / NOVELTY.weekSlots));
    const dDay = this.profileDeparture(y, DAY + SLOT_SIZE * daySlot, S_DAY_DEV, rate);
    const dWeek = this.profileDeparture(y, WEEK + SLOT_SIZE * weekSlot, S_WEEK_DEV, rate);
    const ctxMean = (s[S_CTX_MEAN] as number) + (this.unseenContexts(y, i) - (s[S_CTX_MEAN] as number)) / NOVELTY.contextMeanPoints;
    s[S_CTX_MEAN] = ctxMean;
    const dRun = this.runExcess(y);

    let best = 0;
    if (i >= NOVELTY.warmupPoints) {
      s[S_EXPERTS] = dRange > 0 ? dRange / (dRange + NOVELTY.rangeScale) : 0;
      s[S_EXPERTS + 1] = ratioScore(dDisp, s[S_H_DISP] as number);
      s[S_EXPERTS + 2] = ratioScore(dDay, s[S_H_DAY] as number);
      s[S_EXPERTS + 3] = ratioScore(dWeek, s[S_H_WEEK] as number);
      s[S_EXPERTS + 4] = ratioScore(ctxMean, s[S_H_CTX] as number);
      s[S_EXPERTS + 5] = dRun > 0 ? dRun / (dRun + NOVELTY.rangeScale) : 0;
      for (let k = 0; k < EXPERTS; k += 1) best = Math.max(best, s[S_EXPERTS + k] as number);
    }
    s[S_H_DISP] = decayMax(s[S_H_DISP] as number, dDisp);
    s[S_H_DAY] = decayMax(s[S_H_DAY] as number, dDay);
    s[S_H_WEEK] = decayMax(s[S_H_WEEK] as number, dWeek);
    s[S_H_CTX] = decayMax(s[S_H_CTX] as number, ctxMean);

    // suppression of repeats
    const sinceHold = i - (s[S_LAST_HOLD] as number);
    if (sinceHold > NOVELTY.suppressPoints) s[S_HOLD_SCORE] = 0;
    const out = best > (s[S_HOLD_SCORE] as number) || sinceHold > NOVELTY.suppressPoints ? best : 0;
    if (out > 0 && best >= NOVELTY.suppressFrom) {
      s[S_LAST_HOLD] = i;
      s[S_HOLD_SCORE] = best;
    }

    this.pushRange(y);
    s[S_LAST_X] = atSeconds;
    s[S_POINTS] = i + 1;
    return out;
  }

  /** the last point's expert scores before suppression (0 while warming up), for evaluation */
  expertScores(): { range: number; dispersion: number; day: number; week: number; context: number; run: number } {
    const s = this.s;
    return {
      range: s[S_EXPERTS] as number,
      dispersion: s[S_EXPERTS + 1] as number,
      day: s[S_EXPERTS + 2] as number,
      week: s[S_EXPERTS + 3] as number,
      context: s[S_EXPERTS + 4] as number,
      run: s[S_EXPERTS + 5] as number,
    };
  }

  /**
   * Context expert (after CAD OSE): y is quantised into contextLevels levels of [min, max] seen so
   * far; the contexts ending at this point are its last 2, 3, ..., contextOrders + 1 quantised
   * values. Returns the fraction of them not in the table of seen contexts, then remembers them.
   * The table is direct-mapped (a slot holds the hash of the last context that fell in it), so
   * memory is fixed and contexts not met for a while are forgotten when others take their slot.
   */
  private unseenContexts(y: number, i: number): number {
    const s = this.s;
    const c = this.c;
    if (y < (s[S_Q_MIN] as number)) s[S_Q_MIN] = y;
    if (y > (s[S_Q_MAX] as number)) s[S_Q_MAX] = y;
    const lo = s[S_Q_MIN] as number;
    const span = (s[S_Q_MAX] as number) - lo;
    const levels = NOVELTY.contextLevels;
    const level = Math.floor(((y - lo) / span) * levels);
    // one level while the span is 0, and a defined one should the span overflow
    const q = level >= 0 ? Math.min(levels - 1, level) : 0;
    c[C_RING + (i % C_RING_SIZE)] = q;
    if (i < NOVELTY.contextOrders) return 0;
    let h = Math.imul(q + 1, 0x9e3779b1);
    let unseen = 0;
    for (let k = 1; k <= NOVELTY.contextOrders; k += 1) {
      // the context of length k + 1: the previous one extended by the value k points back
      h = Math.imul(h ^ ((c[C_RING + ((i - k) % C_RING_SIZE)] as number) + 1 + (k << 8)), 0x85ebca6b);
      h ^= h >>> 13;
      h = Math.imul(h, 0xc2b2ae35);
      h ^= h >>> 16;
      const key = h === 0 ? 1 : h;
      const slot = C_KEY + ((key >>> 0) % NOVELTY.contextSlots);
      if (c[slot] !== key) {
        unseen += 1;
        c[slot] = key;
      }
    }
    return unseen / NOVELTY.contextOrders;
  }

  /**
   * Run expert: how much longer than the longest earlier run (>= runMinPoints) the current run of
   * one exact value is, in units of that run, at the one point where it first exceeds it by
   * runExcess (a stuck value reported once); 0 elsewhere.
   */
  private runExcess(y: number): number {
    const s = this.s;
    const prev = s[S_RUN] as number;
    let longest = s[S_LONGEST_RUN] as number;
    let run = 0;
    if (y === s[S_PREV_Y]) run = prev + 1;
    else if (prev > 0 && !(prev <= longest)) longest = prev;
    s[S_RUN] = run;
    s[S_LONGEST_RUN] = longest;
    s[S_PREV_Y] = y;
    if (!(longest >= NOVELTY.runMinPoints)) return 0;
    const excess = (run - longest) / longest;
    const before = (run - 1 - longest) / longest;
    return excess > NOVELTY.runExcess && !(before > NOVELTY.runExcess) ? excess : 0;
  }

  /** outside the previous points' [min, max], in units of that range; 0 inside or without history */
  private rangeDeparture(y: number): number {
    const f = this.f;
    const s = this.s;
    let hi = s[S_OPEN_MAX] as number;
    let lo = s[S_OPEN_MIN] as number;
    const blocks = s[S_BLOCKS] as number;
    for (let b = 0; b < blocks; b += 1) {
      const mx = f[B_MAX + b] as number;
      const mn = f[B_MIN + b] as number;
      if (mx > hi) hi = mx;
      if (mn < lo) lo = mn;
    }
    if (!(hi >= lo)) return 0;
    const range = Math.max(hi - lo, 1e-9 + Math.abs(hi) * 1e-6);
    if (y > hi) return (y - hi) / range;
    if (y < lo) return (lo - y) / range;
    return 0;
  }

  private pushRange(y: number): void {
    const f = this.f;
    const s = this.s;
    if (y > (s[S_OPEN_MAX] as number)) s[S_OPEN_MAX] = y;
    if (y < (s[S_OPEN_MIN] as number)) s[S_OPEN_MIN] = y;
    // the open block closes after rangeBlockPoints points and replaces the oldest closed one
    if (((s[S_POINTS] as number) + 1) % NOVELTY.rangeBlockPoints !== 0) return;
    const blocks = s[S_BLOCKS] as number;
    let slot: number;
    if (blocks < NOVELTY.rangeBlocks) {
      slot = blocks;
      s[S_BLOCKS] = blocks + 1;
    } else {
      slot = s[S_BLOCK_HEAD] as number;
      s[S_BLOCK_HEAD] = (slot + 1) % NOVELTY.rangeBlocks;
    }
    f[B_MAX + slot] = s[S_OPEN_MAX] as number;
    f[B_MIN + slot] = s[S_OPEN_MIN] as number;
    s[S_OPEN_MAX] = -Infinity;
    s[S_OPEN_MIN] = Infinity;
  }

  /** mean |y - median| over the last dispersionPoints points (0 until the median is known) */
  private dispersion(y: number, median: number): number {
    if (!Number.isFinite(median)) return 0;
    const f = this.f;
    const s = this.s;
    const a = Math.abs(y - median);
    const count = s[S_V_COUNT] as number;
    const slot = V_RING + (count % NOVELTY.dispersionPoints);
    let sum = s[S_V_SUM] as number;
    if (count >= NOVELTY.dispersionPoints) sum -= f[slot] as number;
    f[slot] = a;
    sum += f[slot] as number; // the stored (Float32) value, so the sum cancels exactly on eviction
    s[S_V_COUNT] = count + 1;
    // recompute from the ring now and then to bound rounding drift
    if ((count + 1) % 4096 === 0) {
      sum = 0;
      for (let k = 0; k < NOVELTY.dispersionPoints; k += 1) sum += f[V_RING + k] as number;
    }
    s[S_V_SUM] = sum;
    return sum / Math.min(count + 1, NOVELTY.dispersionPoints);
  }

  /** departure from a profile slot, then the slot (and the series deviation) learn y */
  private profileDeparture(y: number, slotAt: number, seriesDevAt: number, rate: number): number {
    const meanAt = slotAt + SLOT_MEAN;
    const devAt = slotAt + SLOT_DEV;
    const countAt = slotAt + SLOT_CNT;
    const f = this.f;
    const s = this.s;
    const mean = f[meanAt] as number;
    const seen = Math.min((f[countAt] as number) + 1, 255);
    f[countAt] = seen;
    if (!Number.isFinite(mean)) {
      f[meanAt] = y;
      return 0;
    }
    const e = Math.abs(y - mean);
    const d = seen > NOVELTY.slotMinPoints ? e / ((f[devAt] as number) + (s[seriesDevAt] as number) + 1e-9) : 0;
    f[devAt] = (1 - rate) * (f[devAt] as number) + rate * e;
    f[meanAt] = (1 - rate) * mean + rate * y;
    s[seriesDevAt] = (1 - NOVELTY.seriesDeviationRate) * (s[seriesDevAt] as number) + NOVELTY.seriesDeviationRate * e;
    return Number.isFinite(d) ? d : 0;
  }

  toJSON(): NoveltyState {
    return {
      v: STATE_VERSION,
      profiles: Buffer.from(this.f.buffer, this.f.byteOffset, this.f.byteLength).toString('base64'),
      contexts: Buffer.from(this.c.buffer, this.c.byteOffset, this.c.byteLength).toString('base64'),
      scalars: Array.from(this.s),
    };
  }

  /** The saved state, or a fresh score (warming up again) when `state` is absent or not ours. */
  static fromJSON(state: unknown): NoveltyScore {
    if (typeof state !== 'object' || state === null) return new NoveltyScore();
    const st = state as Partial<NoveltyState>;
    if (st.v !== STATE_VERSION || typeof st.profiles !== 'string' || typeof st.contexts !== 'string') return new NoveltyScore();
    if (!Array.isArray(st.scalars) || st.scalars.length !== F64_SIZE) return new NoveltyScore();
    const bytes = Buffer.from(st.profiles, 'base64');
    const ctxBytes = Buffer.from(st.contexts, 'base64');
    if (bytes.byteLength !== F32_SIZE * 4 || ctxBytes.byteLength !== I32_SIZE * 4) return new NoveltyScore();
    const { f, s, c } = NoveltyScore.allocate();
    new Uint8Array(f.buffer, f.byteOffset, f.byteLength).set(bytes);
    new Uint8Array(c.buffer, c.byteOffset, c.byteLength).set(ctxBytes);
    // quantised values outside the levels would be contexts the score never makes
    for (let k = C_RING; k < I32_SIZE; k += 1) if (!((c[k] as number) >= 0 && (c[k] as number) < NOVELTY.contextLevels)) return new NoveltyScore();
    for (let k = 0; k < F64_SIZE; k += 1) {
      const v = st.scalars[k];
      // NaN and ±Infinity are meaningful sentinels here; JSON turns them into null
      s[k] = typeof v === 'number' ? v : NaN;
    }
    if (!Number.isFinite(s[S_OPEN_MAX] as number)) s[S_OPEN_MAX] = -Infinity;
    if (!Number.isFinite(s[S_OPEN_MIN] as number)) s[S_OPEN_MIN] = Infinity;
    if (!Number.isFinite(s[S_Q_MIN] as number)) s[S_Q_MIN] = Infinity;
    if (!Number.isFinite(s[S_Q_MAX] as number)) s[S_Q_MAX] = -Infinity;
    if (!Number.isFinite(s[S_POINTS] as number) || !Number.isFinite(s[S_CTX_MEAN] as number) || !Number.isFinite(s[S_RUN] as number)) return new NoveltyScore();
    return new NoveltyScore({ f, s, c });
  }
}

export interface NoveltyState {
  v: typeof STATE_VERSION;
  /** the Float32 profiles, range blocks and dispersion ring, base64 */
  profiles: string;
  /** the Int32 context table and ring of quantised values, base64 */
  contexts: string;
  /** the Float64 scalars (JSON null for NaN and ±Infinity) */
  scalars: (number | null)[];
}

function decayMax(h: number, d: number): number {
  return Number.isFinite(h) ? Math.max(d, h * NOVELTY.historyDecay) : d;
}
