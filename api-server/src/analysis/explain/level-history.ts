/**
 * The slow history of one input (the error rate): its 15-min block means over the last 6 hours,
 * so a rise that crept over hours is judged against the input's level before it began, not only
 * against the 60-min window the other trends see (an error rate creeping +4 points an hour rises
 * under one swing in any hour). Pure: the analysis passes each step's value and time.
 *
 * State bound: ≤ 26 blocks of three numbers. Not saved: a restart relearns it within the hours it
 * spans (as the downstream history).
 */
import type { InputTrend } from './diagnosis.js';
import { theilSenSlope } from './failure-eta.js';

export const BLOCK_MS = 15 * 60_000;
export const LONG_MS = 6 * 3600_000;
/** samples a block needs to stand for its 15 min (a third of its 15-s steps) */
const MIN_BLOCK_SAMPLES = 20;

interface Block {
  startMs: number;
  sum: number;
  /** sum of the sample times (ms): a block's level stands at its samples' mean time */
  sumT: number;
  n: number;
}

/** steps of the newest block that say where the input stands now (a minute: one sample of a noisy share does not) */
const RECENT_SAMPLES = 4;

/** the climb starts at the last block within this share of the rise above the lowest level (the knee) */
const KNEE = 0.2;

export class LevelHistory {
  private readonly blocks: Block[] = [];

  /** adds one step's value (non-finite values and times going back are ignored) */
  observe(value: number, nowMs: number): void {
    if (!Number.isFinite(value) || !Number.isFinite(nowMs)) return;
    const startMs = Math.floor(nowMs / BLOCK_MS) * BLOCK_MS;
    const last = this.blocks[this.blocks.length - 1];
    if (last !== undefined && startMs < last.startMs) return;
    if (last !== undefined && last.startMs === startMs) {
      last.sum += value;
      last.sumT += nowMs;
      last.n += 1;
    } else {
      this.blocks.push({ startMs, sum: value, sumT: nowMs, n: 1 });
    }
    while (this.blocks.length > 0 && this.blocks[0]!.startMs < startMs - LONG_MS) this.blocks.shift();
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
    const full = this.blocks.filter((b) => b.n >= MIN_BLOCK_SAMPLES && b.startMs >= nowMs - LONG_MS - BLOCK_MS);
    if (full.length < 2) return null;
    let at = 0;
    for (let i = 1; i < full.length; i++) if (mean(full[i]!) < mean(full[at]!)) at = i;
    const last = full.length - 1;
    if (at === last) return null;
    const low = mean(full[at]!);
    const near = low + KNEE * (mean(full[last]!) - low);
    let knee = at;
    for (let i = at + 1; i < last; i++) if (mean(full[i]!) <= near) knee = i;
    const climb = full.slice(knee);
    const xs = climb.map((b) => b.sumT / b.n / 1000);
    const ys = climb.map(mean);
    const slope = climb.length >= 3 ? theilSenSlope(xs, ys) : (ys[1]! - ys[0]!) / (xs[1]! - xs[0]!);
    const offsets = ys.map((y, i) => y - slope * xs[i]!).sort((a, b) => a - b);
    const m = offsets.length >> 1;
    const intercept = offsets.length % 2 === 1 ? offsets[m]! : (offsets[m - 1]! + offsets[m]!) / 2;
    const to = intercept + slope * (nowMs / 1000);
    // a rise that passed (the newest minute of steps back under half the rise) is not a creep
    const newest = this.blocks[this.blocks.length - 1]!;
    const recent = newest.n >= RECENT_SAMPLES ? mean(newest) : mean(full[last]!);
    if (recent < low + (to - low) / 2) return null;
    const span = nowMs / 1000 - full[at]!.sumT / full[at]!.n / 1000;
    return { input, from: low, to, spanSeconds: span, slopePerSecond: span > 0 ? (to - low) / span : 0, burstSlopePerSecond: 0, robustSlopePerSecond: slope };
  }
}

const mean = (b: Block): number => b.sum / b.n;
