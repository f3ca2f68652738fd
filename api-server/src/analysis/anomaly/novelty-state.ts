/**
 * The novelty score's chunk made fresh, and its saved form (version 2): the Float32 part as base64,
 * the context state as base64 of Int32 values (the table's keys, which the chunk keeps as 16-bit
 * tags: novelty-contexts.ts, and the ring of levels), the saved Float64 scalars as numbers (null
 * for NaN and ±Infinity); a restore checks the saved state and starts afresh (warming up) when it
 * is not ours.
 */
import { NOVELTY, P_MEAN, P_DEV, P_SLOT, P_DAY, F32_SIZE, S_POINTS, S_LAST_X, S_OPEN_MAX, S_OPEN_MIN, S_BLOCKS, S_V_COUNT, S_H_DISP, S_H_DAY, S_H_WEEK, S_LAST_HOLD, S_BLOCK_HEAD, S_Q_MIN, S_Q_MAX, S_CTX_MEAN, S_H_CTX, S_RUN, S_LONGEST_RUN, S_PREV_Y, F64_SAVED, S_CLOSED_MAX, S_CLOSED_MIN, S_CTX_STEADY, C_KEY, C_RING, CTX_SIZE, STATE_VERSION, F32_AT, U16_AT, U8_AT, B_MAX, SLOT_COUNT_MAX, COUNT_DAY, SAVED_SLOT_SIZE, SAVED_PROFILE_VALUES, SAVED_F32_SIZE, slab, F64_STRIDE, F32_STRIDE, U16_STRIDE, U8_STRIDE, pagesF64, pagesF32, pagesU16, pagesU8 } from './novelty-layout.js';
import { SLAB_PAGE_BITS, SLAB_PAGE_MASK } from './novelty-slab.js';
import { closedExtremes } from './novelty-experts.js';
import { keyOfTag, tagOfKey } from './novelty-contexts.js';
import { deviationFrom16, deviationTo16, floatFromHalves, setFloatHalves } from '../packed/sixteen-bit.js';

export interface NoveltyState {
  v: typeof STATE_VERSION;
  /** the Float32 profiles, range blocks and dispersion ring, base64 */
  profiles: string;
  /** the context table's keys and the ring of quantised values, as Int32 values in base64 */
  contexts: string;
  /** the Float64 scalars (JSON null for NaN and ±Infinity) */
  scalars: (number | null)[];
}

/** a fresh state in chunk `id`, which the slab has just zeroed */
export function initChunk(id: number): void {
  const p = pagesU16[id >>> SLAB_PAGE_BITS] as Uint16Array;
  const s = pagesF64[id >>> SLAB_PAGE_BITS] as Float64Array;
  const pb = (id & SLAB_PAGE_MASK) * U16_STRIDE + U16_AT + P_DAY;
  const sb = (id & SLAB_PAGE_MASK) * F64_STRIDE;
  // every slot's mean NaN (none yet), the day's and the week's (the week's slots follow the day's)
  for (let k = 0; k < NOVELTY.daySlots + NOVELTY.weekSlots; k += 1) setFloatHalves(p, pb + P_SLOT * k + P_MEAN, NaN);
  s[sb + S_LAST_X] = NaN;
  s[sb + S_OPEN_MAX] = -Infinity;
  s[sb + S_OPEN_MIN] = Infinity;
  s[sb + S_CLOSED_MAX] = -Infinity;
  s[sb + S_CLOSED_MIN] = Infinity;
  s[sb + S_H_DISP] = NaN;
  s[sb + S_H_DAY] = NaN;
  s[sb + S_H_WEEK] = NaN;
  s[sb + S_LAST_HOLD] = -1e12;
  s[sb + S_Q_MIN] = Infinity;
  s[sb + S_Q_MAX] = -Infinity;
  s[sb + S_H_CTX] = NaN;
  s[sb + S_LONGEST_RUN] = NaN;
  s[sb + S_PREV_Y] = NaN;
  s[sb + S_CTX_STEADY] = -1;
}

/** chunk `id` all zero, then fresh */
export function resetChunk(id: number): void {
  const s = pagesF64[id >>> SLAB_PAGE_BITS] as Float64Array;
  const sb = (id & SLAB_PAGE_MASK) * F64_STRIDE;
  s.fill(0, sb, sb + F64_STRIDE);
  initChunk(id);
}

/**
 * The Float32 state of chunk `id` as saved: each profile slot as (mean, deviation, count), its
 * mean and deviation from the Uint16 state (the deviation's 16 bits as a float: exact), its count
 * from the Uint8 state, then the range blocks and the dispersion ring
 */
function savedProfiles(id: number): Float32Array {
  const f = pagesF32[id >>> SLAB_PAGE_BITS] as Float32Array;
  const p = pagesU16[id >>> SLAB_PAGE_BITS] as Uint16Array;
  const counts = pagesU8[id >>> SLAB_PAGE_BITS] as Uint8Array;
  const fb = (id & SLAB_PAGE_MASK) * F32_STRIDE + F32_AT;
  const pb = (id & SLAB_PAGE_MASK) * U16_STRIDE + U16_AT + P_DAY;
  const kb = (id & SLAB_PAGE_MASK) * U8_STRIDE + U8_AT;
  const saved = new Float32Array(SAVED_F32_SIZE);
  const slots = NOVELTY.daySlots + NOVELTY.weekSlots;
  // the week's slots follow the day's in both layouts
  for (let k = 0; k < slots; k += 1) {
    saved[SAVED_SLOT_SIZE * k] = floatFromHalves(p, pb + P_SLOT * k + P_MEAN);
    saved[SAVED_SLOT_SIZE * k + 1] = deviationFrom16(p[pb + P_SLOT * k + P_DEV] as number);
    saved[SAVED_SLOT_SIZE * k + 2] = counts[kb + COUNT_DAY + k] as number;
  }
  saved.set(f.subarray(fb + B_MAX, fb + F32_SIZE), SAVED_PROFILE_VALUES);
  return saved;
}

/**
 * Writes the saved Float32 state `bytes` into chunk `id` (savedProfiles' form), each deviation
 * rounded to its 16 bits (a state saved before they were 16 bits loses their lower bits, at most
 * 0.2 % of each): false when a count is not one, or a deviation is negative or NaN
 */
function restoreProfiles(id: number, bytes: Buffer): boolean {
  const saved = new Float32Array(SAVED_F32_SIZE);
  new Uint8Array(saved.buffer).set(bytes);
  const f = pagesF32[id >>> SLAB_PAGE_BITS] as Float32Array;
  const p = pagesU16[id >>> SLAB_PAGE_BITS] as Uint16Array;
  const counts = pagesU8[id >>> SLAB_PAGE_BITS] as Uint8Array;
  const fb = (id & SLAB_PAGE_MASK) * F32_STRIDE + F32_AT;
  const pb = (id & SLAB_PAGE_MASK) * U16_STRIDE + U16_AT + P_DAY;
  const kb = (id & SLAB_PAGE_MASK) * U8_STRIDE + U8_AT;
  const slots = NOVELTY.daySlots + NOVELTY.weekSlots;
  for (let k = 0; k < slots; k += 1) {
    const count = saved[SAVED_SLOT_SIZE * k + 2] as number;
    if (!(Number.isInteger(count) && count >= 0 && count <= SLOT_COUNT_MAX)) return false;
    const dev = saved[SAVED_SLOT_SIZE * k + 1] as number;
    if (!(dev >= 0)) return false;
    setFloatHalves(p, pb + P_SLOT * k + P_MEAN, saved[SAVED_SLOT_SIZE * k] as number);
    p[pb + P_SLOT * k + P_DEV] = deviationTo16(dev);
    counts[kb + COUNT_DAY + k] = count;
  }
  f.set(saved.subarray(SAVED_PROFILE_VALUES), fb + B_MAX);
  return true;
}

/** the context state of chunk `id` as saved: the table's keys (from its tags), then the ring of levels */
function savedContexts(id: number): Int32Array {
  const c = pagesU16[id >>> SLAB_PAGE_BITS] as Uint16Array;
  const cb = (id & SLAB_PAGE_MASK) * U16_STRIDE + U16_AT;
  const saved = new Int32Array(CTX_SIZE);
  // every tag the chunk holds is a context's (unseenContexts and restoreChunk write no other)
  for (let k = C_KEY; k < C_RING; k += 1) saved[k] = keyOfTag(k - C_KEY, c[cb + k] as number) ?? 0;
  for (let k = C_RING; k < CTX_SIZE; k += 1) saved[k] = c[cb + k] as number;
  return saved;
}

/** the state of chunk `id`, to persist (version 2) */
export function noveltyToJSON(id: number): NoveltyState {
  const page = id >>> SLAB_PAGE_BITS;
  const s = pagesF64[page] as Float64Array;
  const sb = (id & SLAB_PAGE_MASK) * F64_STRIDE;
  const scalars: number[] = [];
  for (let k = 0; k < F64_SAVED; k += 1) scalars.push(s[sb + k] as number);
  return {
    v: STATE_VERSION,
    profiles: Buffer.from(savedProfiles(id).buffer).toString('base64'),
    contexts: Buffer.from(savedContexts(id).buffer).toString('base64'),
    scalars,
  };
}

/**
 * A new chunk holding the saved state, or a fresh one (warming up again) when `state` is absent or
 * not ours: its id. Give it back with releaseNovelty.
 */
export function noveltyFromJSON(state: unknown): number {
  const id = slab.allocate();
  if (!restoreChunk(id, state)) resetChunk(id);
  return id;
}

/** writes the saved `state` into the zeroed chunk `id`: false (chunk left dirty) when it is not one */
export function restoreChunk(id: number, state: unknown): boolean {
  if (typeof state !== 'object' || state === null) return false;
  const st = state as Partial<NoveltyState>;
  if (st.v !== STATE_VERSION || typeof st.profiles !== 'string' || typeof st.contexts !== 'string') return false;
  if (!Array.isArray(st.scalars) || st.scalars.length !== F64_SAVED) return false;
  const bytes = Buffer.from(st.profiles, 'base64');
  const ctxBytes = Buffer.from(st.contexts, 'base64');
  if (bytes.byteLength !== SAVED_F32_SIZE * 4 || ctxBytes.byteLength !== CTX_SIZE * 4) return false;
  const page = id >>> SLAB_PAGE_BITS;
  const s = pagesF64[page] as Float64Array;
  const c = pagesU16[page] as Uint16Array;
  const sb = (id & SLAB_PAGE_MASK) * F64_STRIDE;
  const cb = (id & SLAB_PAGE_MASK) * U16_STRIDE + U16_AT;
  if (!restoreProfiles(id, bytes)) return false;
  const saved = new Int32Array(CTX_SIZE);
  new Uint8Array(saved.buffer).set(ctxBytes);
  // quantised values outside the levels would be contexts the score never makes
  for (let k = C_RING; k < CTX_SIZE; k += 1) {
    const level = saved[k] as number;
    if (!(level >= 0 && level < NOVELTY.contextLevels)) return false;
    c[cb + k] = level;
  }
  // and so would a key that is no context's of its slot
  for (let k = C_KEY; k < C_RING; k += 1) {
    const tag = tagOfKey(k - C_KEY, saved[k] as number);
    if (tag === undefined) return false;
    c[cb + k] = tag;
  }
  for (let k = 0; k < F64_SAVED; k += 1) {
    const v: unknown = st.scalars[k];
    // NaN and ±Infinity are meaningful sentinels here; JSON turns them into null
    s[sb + k] = typeof v === 'number' ? v : NaN;
  }
  if (!Number.isFinite(s[sb + S_OPEN_MAX] as number)) s[sb + S_OPEN_MAX] = -Infinity;
  if (!Number.isFinite(s[sb + S_OPEN_MIN] as number)) s[sb + S_OPEN_MIN] = Infinity;
  if (!Number.isFinite(s[sb + S_Q_MIN] as number)) s[sb + S_Q_MIN] = Infinity;
  if (!Number.isFinite(s[sb + S_Q_MAX] as number)) s[sb + S_Q_MAX] = -Infinity;
  // the counters index rings and blocks as int32: whole numbers within their ranges, or not ours
  const counter = (k: number, below: number): boolean => Number.isInteger(s[sb + k]) && (s[sb + k] as number) >= 0 && (s[sb + k] as number) < below;
  if (!counter(S_POINTS, 2 ** 31) || !counter(S_V_COUNT, 2 ** 31) || !counter(S_BLOCKS, NOVELTY.rangeBlocks + 1) || !counter(S_BLOCK_HEAD, NOVELTY.rangeBlocks)) return false;
  closedExtremes(pagesF32[page] as Float32Array, (id & SLAB_PAGE_MASK) * F32_STRIDE + F32_AT, s, sb);
  s[sb + S_CTX_STEADY] = -1;
  return Number.isFinite(s[sb + S_CTX_MEAN] as number) && Number.isFinite(s[sb + S_RUN] as number);
}
