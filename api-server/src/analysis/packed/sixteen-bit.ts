/**
 * Numbers kept in 16-bit elements (a Uint16Array), for state that has a Uint16 view and no other
 * of the right width (docs/memory.md): a float as its two 16-bit halves, a deviation (a
 * non-negative float) in one 16-bit element, and a signed value as a bfloat16.
 *
 * Each copies bits through a float's four bytes, its two halves in memory order (the platform's
 * byte order), so a float read from two halves is bit for bit the float a Float32Array over the
 * same bytes would read, at any even or odd element. Pure: no state but the scratch float.
 */

/** one float and its bits, the same four bytes */
const FLOAT = new Float32Array(1);
const BITS = new Uint32Array(FLOAT.buffer);
/** which of a float's two 16-bit halves in memory holds its low bits: the first on a little-endian platform */
const LOW = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 0 : 1;
const HIGH = 1 - LOW;

/**
 * The float whose two halves are elements `at` and `at + 1` of `u` (any `at`, even or odd). The
 * halves are joined into the float's 32 bits and stored once: two 16-bit stores read back as one
 * 32-bit load cannot be forwarded from the store buffer, a stall that made the tick 7-12 % slower
 * when the value window's floats were read so (docs/performance.md).
 */
export function floatFromHalves(u: Uint16Array, at: number): number {
  BITS[0] = (u[at + LOW] as number) | ((u[at + HIGH] as number) << 16);
  return FLOAT[0] as number;
}

/** writes v, rounded to a float as a Float32Array stores it, as elements `at` and `at + 1` of `u` */
export function setFloatHalves(u: Uint16Array, at: number, v: number): void {
  FLOAT[0] = v;
  const bits = BITS[0] as number;
  u[at + LOW] = bits & 0xffff;
  u[at + HIGH] = bits >>> 16;
}

/**
 * A deviation (>= 0) in 16 bits: the nearest float's bits 30..15 (its 8 exponent bits and the
 * top 8 of its 23 fraction bits; the sign bit, always 0, dropped), rounded to the nearest, ties
 * to even. So 9 significant bits: a relative error of at most 2^-9 (0.2 %), over the float's
 * normal range (1.2e-38 to 3.396e38; below it, subnormals down to 2^-134). +∞ stays +∞, and so
 * does a value from halfway between the largest 16-bit one (3.3962e38) and 2^128 on; NaN stays a
 * NaN. A negative v is stored as |v| (a deviation never is one).
 */
export function deviationTo16(v: number): number {
  FLOAT[0] = v;
  const b = (BITS[0] as number) & 0x7fffffff;
  // ∞ and NaN: the top bits as they are (a NaN keeps a fraction bit: the quiet bit is bit 22)
  if (b >= 0x7f800000) return b >>> 15;
  // round to nearest, ties to even: add just under half of the dropped 15 bits, plus the kept lowest bit
  return (b + 0x3fff + ((b >>> 15) & 1)) >>> 15;
}

/** the deviation a 16-bit element from deviationTo16 holds */
export function deviationFrom16(h: number): number {
  BITS[0] = h << 15;
  return FLOAT[0] as number;
}

/**
 * A signed value in 16 bits, as a bfloat16: the nearest float's top 16 bits (its sign, 8 exponent
 * bits and the top 7 of its 23 fraction bits), rounded to the nearest, ties to even. So 8
 * significant bits, a relative error of at most 2^-8 (0.4 %), over the float's range (and its
 * subnormals, with fewer bits); ±0 and ±∞ are kept, a NaN stays a NaN, and a value from halfway
 * between the largest 16-bit one (3.3895e38) and 2^128 on rounds to ±∞.
 */
export function toBfloat16(v: number): number {
  FLOAT[0] = v;
  const b = BITS[0] as number;
  // ∞ and NaN: the top bits, a NaN keeping a fraction bit (the quiet bit, bit 22, is among the kept ones)
  if ((b & 0x7f800000) === 0x7f800000) return (b >>> 16) | ((b & 0x7fffff) !== 0 ? 0x40 : 0);
  // round to nearest, ties to even: add just under half of the dropped 16 bits, plus the kept lowest bit
  return (b + 0x7fff + ((b >>> 16) & 1)) >>> 16;
}

/** the value a 16-bit element from toBfloat16 holds */
export function fromBfloat16(h: number): number {
  BITS[0] = h << 16;
  return FLOAT[0] as number;
}
