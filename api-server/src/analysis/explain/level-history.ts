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
  n: number;
}

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
      last.n += 1;
    } else {
      this.blocks.push({ startMs, sum: value, n: 1 });
    }
    while (this.blocks.length > 0 && this.blocks[0]!.startMs < startMs - LONG_MS) this.blocks.shift();
  }

  /**
   * The input's slow trend as an InputTrend: `from` the lowest block mean of the span (its
   * block's middle as the time); the blocks from it to the newest one that stands for its 15 min
   * (the current block once it has 5 min of steps, else the one before) give the Theil-Sen line
   * of the climb (`robustSlopePerSecond`; with two blocks, the line through them), and `to` is that
   * line at `nowMs`: a level and a slope of 15-min means, not of one noisy sample. Null without two
   * such blocks or when the lowest is the newest.
   */
  trend(input: string, nowMs: number): InputTrend | null {
    const full = this.blocks.filter((b) => b.n >= MIN_BLOCK_SAMPLES && b.startMs >= nowMs - LONG_MS - BLOCK_MS);
    if (full.length < 2) return null;
    let at = 0;
    for (let i = 1; i < full.length; i++) if (mean(full[i]!) < mean(full[at]!)) at = i;
    if (at === full.length - 1) return null;
    const climb = full.slice(at);
    const xs = climb.map((b) => (b.startMs + BLOCK_MS / 2) / 1000);
    const ys = climb.map(mean);
    const slope = climb.length >= 3 ? theilSenSlope(xs, ys) : (ys[1]! - ys[0]!) / (xs[1]! - xs[0]!);
    const offsets = ys.map((y, i) => y - slope * xs[i]!).sort((a, b) => a - b);
    const m = offsets.length >> 1;
    const intercept = offsets.length % 2 === 1 ? offsets[m]! : (offsets[m - 1]! + offsets[m]!) / 2;
    const from = ys[0]!;
    const to = intercept + slope * (nowMs / 1000);
    const span = nowMs / 1000 - xs[0]!;
    return { input, from, to, spanSeconds: span, slopePerSecond: span > 0 ? (to - from) / span : 0, burstSlopePerSecond: 0, robustSlopePerSecond: slope };
  }
}

const mean = (b: Block): number => b.sum / b.n;
