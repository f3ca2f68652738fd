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
   * block's middle as the time), `to` the newest block mean that stands for its 15 min (the
   * current block once it has 5 min of steps, else the one before). Null without two such blocks
   * or when the lowest is the newest.
   */
  trend(input: string, nowMs: number): InputTrend | null {
    const full = this.blocks.filter((b) => b.n >= MIN_BLOCK_SAMPLES && b.startMs >= nowMs - LONG_MS - BLOCK_MS);
    if (full.length < 2) return null;
    const latest = full[full.length - 1]!;
    let low = full[0]!;
    for (const b of full) if (b.sum / b.n < low.sum / low.n) low = b;
    if (low === latest) return null;
    const from = low.sum / low.n;
    const to = latest.sum / latest.n;
    const span = (Math.min(nowMs, latest.startMs + BLOCK_MS / 2) - (low.startMs + BLOCK_MS / 2)) / 1000;
    const slope = span > 0 ? (to - from) / span : 0;
    return { input, from, to, spanSeconds: span, slopePerSecond: slope, burstSlopePerSecond: 0, robustSlopePerSecond: Number.NaN };
  }
}
