import { expect } from 'chai';
import fc from 'fast-check';
import { deviationFrom16, deviationTo16, floatFromHalves, fromBfloat16, setFloatHalves, toBfloat16 } from '../../../api-server/src/analysis/packed/sixteen-bit.js';

const rounded = (v: number): number => deviationFrom16(deviationTo16(v));
const bf = (v: number): number => fromBfloat16(toBfloat16(v));

describe('numbers in 16-bit elements', () => {
  it('a float in two halves: what a Float32Array over the same bytes reads and writes, at even and odd elements (property)', () => {
    const u = new Uint16Array(64);
    const bytes = new DataView(u.buffer);
    const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.constantFrom(0, -0, Number.NaN, Infinity, -Infinity, 2 ** -149, 3.5e38)), fc.integer({ min: 0, max: 62 }), (v, at) => {
        setFloatHalves(u, at, v);
        // the bytes at element `at` hold v as a float, in the machine's order
        expect(Object.is(bytes.getFloat32(2 * at, littleEndian), Math.fround(v))).to.equal(true);
        expect(Object.is(floatFromHalves(u, at), Math.fround(v))).to.equal(true);
        // any bits there read as the float a DataView reads (a NaN as a NaN)
        u[at] = (Math.random() * 65536) | 0;
        u[at + 1] = (Math.random() * 65536) | 0;
        expect(Object.is(floatFromHalves(u, at), bytes.getFloat32(2 * at, littleEndian))).to.equal(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('a deviation in 16 bits: hand-checked values, ties to even, the range ends, ∞ and NaN', () => {
    // 1.0f is 0x3f800000: bits 30..15 are 0x7f00
    expect(deviationTo16(1)).to.equal(0x7f00);
    expect(deviationFrom16(0x7f00)).to.equal(1);
    // 9 significant bits: the next value after 1 is 1 + 2^-8
    expect(deviationFrom16(0x7f01)).to.equal(1 + 2 ** -8);
    // halfway between 1 and 1 + 2^-8: to the even one (1); halfway between 1 + 2^-8 and 1 + 2^-7: to 1 + 2^-7
    expect(rounded(1 + 2 ** -9)).to.equal(1);
    expect(rounded(1 + 3 * 2 ** -9)).to.equal(1 + 2 ** -7);
    // just past halfway rounds up
    expect(rounded(1 + 2 ** -9 + 2 ** -20)).to.equal(1 + 2 ** -8);
    // 0.3 → 0.2998046875: in [0.25, 0.5) the step is 2^-2 · 2^-8 = 2^-10, and 0.3 · 2^10 = 307.2 → 307 · 2^-10
    expect(rounded(0.3)).to.equal(307 / 1024);
    expect(rounded(0)).to.equal(0);
    expect(Object.is(rounded(-0), 0)).to.equal(true);
    // a negative value is stored as its magnitude
    expect(rounded(-2)).to.equal(2);
    // the largest finite 16-bit value, 0xfeff: 0x7f7f8000 as a float, 2^127 · (1 + 255/256) = 3.3962e38;
    // from halfway between it and 2^128 (3.3995e38) on, ∞
    expect(deviationFrom16(0xfeff)).to.equal(2 ** 127 * (1 + 255 / 256));
    expect(rounded(3.397e38)).to.equal(deviationFrom16(0xfeff));
    expect(rounded(3.4e38)).to.equal(Infinity);
    expect(rounded(Infinity)).to.equal(Infinity);
    expect(Number.isNaN(rounded(Number.NaN))).to.equal(true);
    // the smallest subnormal it holds: 0x0001 << 15 as a float's bits, 2^15 · 2^-149 = 2^-134
    expect(deviationFrom16(1)).to.equal(2 ** -134);
  });

  it('every finite 16-bit value comes back as itself (all 65 281 of them)', () => {
    for (let h = 0; h <= 0xff00; h += 1) expect(deviationTo16(deviationFrom16(h))).to.equal(h);
  });

  it('a deviation rounds to the nearer of its two 16-bit neighbours, within 2^-9 of it, and keeps the order (property)', () => {
    fc.assert(
      fc.property(fc.double({ min: 2 ** -126, max: 3.38e38, noNaN: true }), fc.double({ min: 0, max: 3.38e38, noNaN: true }), (v, w) => {
        const f = Math.fround(v);
        const h = deviationTo16(v);
        const r = deviationFrom16(h);
        expect(Math.abs(r - f)).to.be.at.most(2 ** -9 * f);
        // no other 16-bit value is nearer
        const below = deviationFrom16(h - 1);
        const above = deviationFrom16(h + 1);
        expect(Math.abs(r - f)).to.be.at.most(Math.abs(below - f));
        expect(Math.abs(r - f)).to.be.at.most(Math.abs(above - f));
        // monotone: rounding never swaps two deviations
        if (v <= w) expect(r).to.be.at.most(rounded(w));
        else expect(r).to.be.at.least(rounded(w));
      }),
      { numRuns: 5000 },
    );
  });

  it('a bfloat16: hand-checked values, ties to even, signs, the range ends, ∞ and NaN', () => {
    // 1.0f is 0x3f800000: its top half 0x3f80; -1 0xbf80
    expect([toBfloat16(1), toBfloat16(-1)]).to.deep.equal([0x3f80, 0xbf80]);
    // 8 significant bits: after 1 comes 1 + 2^-7
    expect(fromBfloat16(0x3f81)).to.equal(1 + 2 ** -7);
    // halfway between 1 and 1 + 2^-7: to the even one (1); between 1 + 2^-7 and 1 + 2^-6: to 1 + 2^-6
    expect(bf(1 + 2 ** -8)).to.equal(1);
    expect(bf(1 + 3 * 2 ** -8)).to.equal(1 + 2 ** -6);
    expect(bf(-(1 + 2 ** -8 + 2 ** -20))).to.equal(-(1 + 2 ** -7));
    // 0.3 → 0.30078125: in [0.25, 0.5) the step is 2^-2 · 2^-7 = 2^-9, and 0.3 · 2^9 = 153.6 → 154 · 2^-9
    expect(bf(0.3)).to.equal(154 / 512);
    expect(Object.is(bf(0), 0)).to.equal(true);
    expect(Object.is(bf(-0), -0)).to.equal(true);
    // the largest finite value, 0x7f7f: 2^127 · (1 + 127/128) = 3.3895e38; from halfway to 2^128 on, ∞
    expect(fromBfloat16(0x7f7f)).to.equal(2 ** 127 * (1 + 127 / 128));
    expect(bf(3.39e38)).to.equal(fromBfloat16(0x7f7f));
    expect(bf(3.4e38)).to.equal(Infinity);
    expect(bf(-3.4e38)).to.equal(-Infinity);
    expect(bf(-Infinity)).to.equal(-Infinity);
    expect(Number.isNaN(bf(Number.NaN))).to.equal(true);
    // a NaN whose payload lies only in the dropped bits stays a NaN
    const nan = new Float32Array(1);
    new Uint32Array(nan.buffer)[0] = 0x7f800001;
    expect(Number.isNaN(bf(nan[0]!))).to.equal(true);
    // the smallest subnormal it holds: 2^-133
    expect(fromBfloat16(1)).to.equal(2 ** -133);
  });

  it('every bfloat16 but NaNs comes back as itself (all 65 280 of them)', () => {
    for (let h = 0; h <= 0xffff; h += 1) {
      const v = fromBfloat16(h);
      if (!Number.isNaN(v)) expect(toBfloat16(v)).to.equal(h);
    }
  });

  it('a value rounds to the nearer of its two bfloat16 neighbours, within 2^-8 of it, keeping its sign and the order (property)', () => {
    const value = fc.oneof(fc.double({ min: 2 ** -126, max: 3.38e38, noNaN: true }), fc.double({ min: -3.38e38, max: -(2 ** -126), noNaN: true }));
    fc.assert(
      fc.property(value, fc.double({ min: -3.38e38, max: 3.38e38, noNaN: true }), (v, w) => {
        const f = Math.fround(v);
        const h = toBfloat16(v);
        const r = fromBfloat16(h);
        expect(Math.sign(r)).to.equal(Math.sign(f));
        expect(Math.abs(r - f)).to.be.at.most(2 ** -8 * Math.abs(f));
        // no other 16-bit value is nearer (the neighbours in magnitude, same sign)
        expect(Math.abs(r - f)).to.be.at.most(Math.abs(fromBfloat16(h - 1) - f));
        expect(Math.abs(r - f)).to.be.at.most(Math.abs(fromBfloat16(h + 1) - f));
        if (v <= w) expect(r).to.be.at.most(bf(w));
        else expect(r).to.be.at.least(bf(w));
      }),
      { numRuns: 5000 },
    );
  });
});
