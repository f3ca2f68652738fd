/**
 * How a line with split points (line-slots.ts lineSplitPoints) stores its xs: as integer offsets
 * from a base its region holds (x = base + offset), in the memory's Uint16 view (`t`) its owner
 * keeps anyway (a 32-bit view would be one more object per memory, about 115 bytes of V8 heap).
 * An offset is one 16-bit element (TIME_HALVES 1: unsigned, 0 to 65 535) or two (TIME_HALVES 2: a
 * 32-bit signed integer, low half first). The owner keeps every stored x so (lineTimeFits,
 * lineRebase) before it pushes, and moves to 32-bit offsets, or to xs as doubles, when they cannot.
 *
 * A series' times (seconds since its workload's first step, 15 s apart) are 16-bit offsets while
 * its 300-point window spans less than 65 536 s, with a rebase to the window's oldest time about
 * every 17 hours of 15-s steps (series-memory.ts).
 */

/** split points' scalars, after a line's nine (line-slots.ts LINE_POINTS): what every stored x is relative to */
export const X_BASE = 9;
/** split points: the Uint16 element of the first x's offset */
export const TIMES_AT = 10;
/** split points: the 16-bit elements an offset takes, 1 or 2 */
export const TIME_HALVES = 11;
/** a line region's size with split points (its points in the owner's rings) */
export const LINE_SPLIT_REGION = 12;

/** slot i's offset (`halves`: TIME_HALVES) */
export function offsetAt(t: Uint16Array, times: number, halves: number, i: number): number {
  if (halves === 1) return t[times + i] as number;
  const e = times + 2 * i;
  return (t[e] as number) | ((t[e + 1] as number) << 16);
}

/** writes slot i's offset `o` (one that fits: offsetFits) */
export function setOffset(t: Uint16Array, times: number, halves: number, i: number, o: number): void {
  if (halves === 1) {
    t[times + i] = o;
    return;
  }
  const e = times + 2 * i;
  t[e] = o & 0xffff;
  t[e + 1] = o >>> 16;
}

/** whether `o` is an offset `halves` elements hold: an integer of 0 to 65 535, or of int32 */
function offsetFits(o: number, halves: number): boolean {
  return (o | 0) === o && (halves === 2 || (o >= 0 && o <= 0xffff));
}

/** a split line's x base: every stored x is this plus an offset */
export function lineXBase(d: Float64Array, at: number): number {
  return d[at + X_BASE] as number;
}

/** sets a split line's x base, offsets untouched: a second line over rings another's lineRebase rewrote to `base` */
export function lineSetXBase(d: Float64Array, at: number, base: number): void {
  d[at + X_BASE] = base;
}

/** the 16-bit elements of a split line's offsets (1 or 2) */
export function lineTimeHalves(d: Float64Array, at: number): number {
  return (d[at + TIME_HALVES] as number) | 0;
}

/**
 * Whether a split line can store x exactly: x minus the base is an offset its halves hold and the
 * base plus it gives x back, bit for bit (Object.is: -0 is not +0 + 0)
 */
export function lineTimeFits(d: Float64Array, at: number, x: number): boolean {
  const base = d[at + X_BASE] as number;
  const o = x - base;
  return offsetFits(o, lineTimeHalves(d, at)) && Object.is(base + (o | 0), x);
}

/**
 * Moves a split line's base so that x fits (true), rewriting the offsets of ring slots [0, slots)
 * (every slot the owner's rings hold a point in, the line's among them) so that each reads back
 * the same x; false, and nothing changed, when no base holds them all. The new base is x for
 * 32-bit offsets, the smallest of x and the stored xs for 16-bit ones (unsigned).
 */
export function lineRebase(d: Float64Array, at: number, t: Uint16Array, slots: number, x: number): boolean {
  if (!Object.is(x + 0, x)) return false;
  const base = d[at + X_BASE] as number;
  const times = (d[at + TIMES_AT] as number) | 0;
  const halves = lineTimeHalves(d, at);
  let to = x;
  if (halves === 1) for (let i = 0; i < slots; i += 1) to = Math.min(to, base + offsetAt(t, times, 1, i));
  const fits = (v: number): boolean => {
    const o = v - to;
    return offsetFits(o, halves) && Object.is(to + (o | 0), v);
  };
  if (!fits(x)) return false;
  for (let i = 0; i < slots; i += 1) if (!fits(base + offsetAt(t, times, halves, i))) return false;
  for (let i = 0; i < slots; i += 1) setOffset(t, times, halves, i, base + offsetAt(t, times, halves, i) - to);
  d[at + X_BASE] = to;
  return true;
}
