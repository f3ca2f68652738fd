/**
 * The slow history of one input (the error rate): its 15-min block means over the last 6 hours,
 * so a rise that crept over hours is judged against the input's level before it began, not only
 * against the 60-min window the other trends see (an error rate creeping +4 points an hour rises
 * under one swing in any hour). Pure: the analysis passes each step's value and time.
 *
 * State bound: ≤ 26 blocks of four numbers in one array of doubles. Not saved: a restart relearns it within the hours it
 * spans (as the downstream history).
 */
import type { InputTrend } from './diagnosis.js';
import { theilSenSlope } from './failure-eta.js';

export const BLOCK_MS = 15 * 60_000;
export const LONG_MS = 6 * 3600_000;
/** samples a block needs to stand for its 15 min (a third of its 15-s steps) */
const MIN_BLOCK_SAMPLES = 20;

/**
 * A block's four numbers, in order, in the history's one array of doubles: its start, the sum of
 * its values, the sum of its sample times (ms: a block's level stands at its samples' mean time),
 * its sample count. One array of unboxed doubles, not an object of four boxed numbers a block:
 * 26 blocks (6 hours) take ~1 KB instead of ~2.9 KB of V8 heap a workload (docs/memory.md).
 */
const START = 0;
const SUM = 1;
const SUM_T = 2;
const N = 3;
const FIELDS = 4;

/** steps of the newest block that say where the input stands now (a minute: one sample of a noisy share does not) */
const RECENT_SAMPLES = 4;

/** the climb starts at the last block within this share of the rise above the lowest level (the knee) */
const KNEE = 0.2;

export class LevelHistory {
  /** the blocks, oldest first, FIELDS numbers each (START, SUM, SUM_T, N) */
  private readonly blocks: number[] = [];

  /** adds one step's value (non-finite values and times going back are ignored) */
  observe(value: number, nowMs: number): void {
    if (!Number.isFinite(value) || !Number.isFinite(nowMs)) return;
    const startMs = Math.floor(nowMs / BLOCK_MS) * BLOCK_MS;
    const b = this.blocks;
    const last = b.length - FIELDS;
    if (last >= 0 && startMs < (b[last + START] as number)) return;
    if (last >= 0 && b[last + START] === startMs) {
      b[last + SUM] = (b[last + SUM] as number) + value;
      b[last + SUM_T] = (b[last + SUM_T] as number) + nowMs;
      b[last + N] = (b[last + N] as number) + 1;
    } else {
      b.push(startMs, value, nowMs, 1);
    }
    let old = 0;
    while (old < b.length && (b[old + START] as number) < startMs - LONG_MS) old += FIELDS;
    if (old > 0) b.splice(0, old);
  }

  /**
   * The input's slow trend as an InputTrend: `from` the lowest block mean of the span; its climb
   * runs from the knee (the last block still within 20 % of the rise above that lowest level, so
   * the flat hours before a creep do not flatten its line) to the newest block that stands for its
   * 15 min (the current block once it has 5 min of steps, else the one before). Each block is its
   * mean at its samples' mean time. The climb's Theil-Sen line gives `robustSlopePerSecond` (with
   * two blocks, the line through them) and `to`, its value at `nowMs`: a level and a slope of
   * 15-min means, not of one noisy sample. `spanSeconds` runs from the lowest block. Null without
   * two such blocks, when the lowest is the newest, or when the input is back under half its rise
   * (the mean of the newest block once it has a minute of steps, else of the newest full block).
   */
  trend(input: string, nowMs: number): InputTrend | null {
    const b = this.blocks;
    // the blocks that stand for their 15 min, by where they start in `b`
    const full: number[] = [];
    for (let i = 0; i < b.length; i += FIELDS) if ((b[i + N] as number) >= MIN_BLOCK_SAMPLES && (b[i + START] as number) >= nowMs - LONG_MS - BLOCK_MS) full.push(i);
    if (full.length < 2) return null;
    const mean = (i: number): number => (b[i + SUM] as number) / (b[i + N] as number);
    const meanTime = (i: number): number => (b[i + SUM_T] as number) / (b[i + N] as number);
    let at = 0;
    for (let i = 1; i < full.length; i++) if (mean(full[i]!) < mean(full[at]!)) at = i;
    const last = full.length - 1;
    if (at === last) return null;
    const low = mean(full[at]!);
    const near = low + KNEE * (mean(full[last]!) - low);
    let knee = at;
    for (let i = at + 1; i < last; i++) if (mean(full[i]!) <= near) knee = i;
    const climb = full.slice(knee);
    const xs = climb.map((i) => meanTime(i) / 1000);
    const ys = climb.map(mean);
    const slope = climb.length >= 3 ? theilSenSlope(xs, ys) : (ys[1]! - ys[0]!) / (xs[1]! - xs[0]!);
    const offsets = ys.map((y, i) => y - slope * xs[i]!).sort((a, c) => a - c);
    const m = offsets.length >> 1;
    const intercept = offsets.length % 2 === 1 ? offsets[m]! : (offsets[m - 1]! + offsets[m]!) / 2;
    const to = intercept + slope * (nowMs / 1000);
    // a rise that passed (the newest minute of steps back under half the rise) is not a creep
    const newest = b.length - FIELDS;
    const recent = (b[newest + N] as number) >= RECENT_SAMPLES ? mean(newest) : mean(full[last]!);
    if (recent < low + (to - low) / 2) return null;
    const span = nowMs / 1000 - meanTime(full[at]!) / 1000;
    return { input, from: low, to, spanSeconds: span, slopePerSecond: span > 0 ? (to - low) / span : 0, burstSlopePerSecond: 0, robustSlopePerSecond: slope };
  }
}
