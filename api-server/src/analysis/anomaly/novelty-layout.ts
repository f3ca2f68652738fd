/**
 * The novelty score's parameters and the layout of its state in a chunk of the shared slab
 * (novelty-score.ts explains the experts; novelty-slab.ts the slab): the Float64 scalars, the
 * Float32 range blocks and dispersion ring, the Uint16 context table (16-bit tags of the contexts'
 * keys, novelty-contexts.ts), ring of levels and day and week profiles, the Uint8 profile counts,
 * and the slab with its page views. Shared by the score, its experts and its saved state.
 */
import { ChunkSlab } from './novelty-slab.js';

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

export const DAY_S = 86_400;
export const WEEK_S = 7 * DAY_S;
// 1970-01-01 was a Thursday: shift so that week slot 0 starts on Monday 00:00 UTC
export const WEEK_SHIFT_S = 3 * DAY_S;

// layout of the Float32 state: the range blocks and the dispersion ring (the profiles are in the
// Uint16 state, below)
export const B_MAX = 0;
export const B_MIN = B_MAX + NOVELTY.rangeBlocks;
export const V_RING = B_MIN + NOVELTY.rangeBlocks;
export const F32_SIZE = V_RING + NOVELTY.dispersionPoints;
/** a profile slot's points, counted up to this (a byte; a slot scores from slotMinPoints + 1 on) */
export const SLOT_COUNT_MAX = 255;
// layout of the Uint8 state: the profile slots' counts, the day's then the week's
export const COUNT_DAY = 0;
export const COUNT_WEEK = COUNT_DAY + NOVELTY.daySlots;
export const U8_SIZE = COUNT_WEEK + NOVELTY.weekSlots;
/**
 * The saved form's Float32 values (novelty-state.ts): each profile slot as (mean, deviation,
 * count), then the range blocks and the dispersion ring as in the chunk
 */
export const SAVED_SLOT_SIZE = 3;
export const SAVED_PROFILE_VALUES = SAVED_SLOT_SIZE * (NOVELTY.daySlots + NOVELTY.weekSlots);
export const SAVED_F32_SIZE = SAVED_PROFILE_VALUES + F32_SIZE;

// layout of the Float64 scalars
export const S_POINTS = 0; // points seen
export const S_LAST_X = 1; // previous point's time (s)
export const S_OPEN_MAX = 2; // extremes of the open range block
export const S_OPEN_MIN = 3;
export const S_BLOCKS = 4; // completed range blocks held (<= rangeBlocks)
export const S_V_SUM = 5; // sum of the dispersion ring
export const S_V_COUNT = 6;
export const S_H_DISP = 7; // decaying maxima of the calibrated experts (NaN: none yet)
export const S_H_DAY = 8;
export const S_H_WEEK = 9;
export const S_DAY_DEV = 10; // series-wide deviations of the day and week profiles
export const S_WEEK_DEV = 11;
export const S_LAST_HOLD = 12; // index of the last point that scored >= suppressFrom
export const S_HOLD_SCORE = 13;
export const S_BLOCK_HEAD = 14; // ring position of the oldest completed block
export const S_EXPERTS = 15; // the last point's six expert scores (range, dispersion, day, week, context, run)
export const S_Q_MIN = 21; // the extremes seen so far, which the context expert quantises against
export const S_Q_MAX = 22;
export const S_CTX_MEAN = 23; // short mean of the context expert's unseen fraction
export const S_H_CTX = 24; // its decaying maximum (NaN: none yet)
export const S_RUN = 25; // points the value has repeated exactly (0: it just changed)
export const S_LONGEST_RUN = 26; // the longest completed run (NaN: none yet)
export const S_PREV_Y = 27;
/** the scalars above are the saved ones */
export const F64_SAVED = 28;
// the extremes of the closed range blocks, derived from them (kept when a block closes and on a
// restore), so that a point reads two scalars instead of the 20 blocks
export const S_CLOSED_MAX = 28;
export const S_CLOSED_MIN = 29;
// the context expert's steady level (derived, not saved; -1: none): set when a point found all
// its contexts with its last seven levels all this one, so that a next point of the same level
// has the same six contexts, all still in the table (unseenContexts)
export const S_CTX_STEADY = 30;
export const F64_SIZE = 31;
export const EXPERTS = 6;

// layout of the Uint16 context state: the table of seen contexts (each slot the 16-bit tag of the
// last context's key, 0: empty; novelty-contexts.ts), then the ring of the last contextOrders + 1
// quantised values
export const C_KEY = 0;
export const C_RING = C_KEY + NOVELTY.contextSlots;
export const C_RING_SIZE = NOVELTY.contextOrders + 1;
export const CTX_SIZE = C_RING + C_RING_SIZE;
// then the day and week profiles, a slot as three 16-bit elements side by side (one cache line per
// point and profile, two for the about one slot in 16 whose 6 bytes straddle a line; its count is a
// byte of the Uint8 state): its mean, a float as two halves, and its deviation in 16 bits
// (packed/sixteen-bit.ts; docs/adr/0017-profile-deviations-in-16-bits.md)
export const P_MEAN = 0;
export const P_DEV = 2;
export const P_SLOT = 3;
export const P_DAY = CTX_SIZE;
export const P_WEEK = P_DAY + P_SLOT * NOVELTY.daySlots;
export const U16_SIZE = P_WEEK + P_SLOT * NOVELTY.weekSlots;
/** the saved form (novelty-state.ts): its contexts are the keys as Int32, CTX_SIZE of them */
export const STATE_VERSION = 2;


// a chunk: the scalars first (for their 8-byte alignment), then the Float32, the Uint16 and the
// Uint8 state, padded to a multiple of 8 bytes
export const F32_AT_BYTE = F64_SIZE * 8;
export const U16_AT_BYTE = F32_AT_BYTE + F32_SIZE * 4;
export const U8_AT = U16_AT_BYTE + U16_SIZE * 2;
export const CHUNK_BYTES = Math.ceil((U8_AT + U8_SIZE) / 8) * 8;
/** the Float32 and Uint16 parts' element offsets in a chunk (the Uint8 part's is U8_AT) */
export const F32_AT = F32_AT_BYTE / 4;
export const U16_AT = U16_AT_BYTE / 2;

export const slab = new ChunkSlab(CHUNK_BYTES);
export const F64_STRIDE = slab.f64Stride;
export const F32_STRIDE = slab.f32Stride;
export const U16_STRIDE = slab.u16Stride;
export const U8_STRIDE = slab.chunkBytes;
export const pagesF64 = slab.f64;
export const pagesF32 = slab.f32;
export const pagesU16 = slab.u16;
export const pagesU8 = slab.u8;
