import { expect } from 'chai';
import fc from 'fast-check';
import { ERROR_FIELDS, SEASONAL_RESIDUAL_BLOCKS, errorBlockStride, errorBlocksSize, errorPush, errorPushZeros, errorSigma, errorStats, errorWindowSums, type BlockShape } from '../../../api-server/src/analysis/ensemble/error-slots.js';
import { ERROR_BLOCK, ERROR_BLOCKS, ModelErrors, SIGMA_BLOCKS } from '../../../api-server/src/analysis/ensemble/model-errors.js';

/** model m's four fields in slot s: n (six bits of the block's counts double), mean, M2, sum of |e| */
function block(e: ModelErrors, s: number, m: number): number[] {
  const at = e.blocksAt + s * errorBlockStride(e.models);
  const fields = at + 1 + m * ERROR_FIELDS;
  return [Math.floor((e.memory[at] as number) / 2 ** (6 * m)) % 64, ...Array.from(e.memory.subarray(fields, fields + ERROR_FIELDS))];
}

describe('model errors (the residuals of five models as sums over blocks of 40 points)', () => {
  it('hand-checked block fields, MAE, MSE and sigma in one block; a model without forecasts has no residuals', () => {
    const e = new ModelErrors(2);
    for (const r of [1, -3, 2]) e.push(Float64Array.of(Number.NaN, r));
    // Welford: mean 1, then 1 + (-3 - 1) / 2 = -1, then -1 + (2 + 1) / 3 = 0;
    // M2 0, then 0 + (-4)(-3 + 1) = 8, then 8 + 3 * (2 - 0) = 14 (= 1 + 9 + 4 around the mean 0)
    expect(block(e, 0, 1)).to.deep.equal([3, 0, 14, 6]);
    expect(block(e, 0, 0)).to.deep.equal([0, 0, 0, 0]);
    expect(e.count(0)).to.equal(0);
    expect(e.count(1)).to.equal(3);
    expect(e.mae(1)).to.equal(2); // (1 + 3 + 2) / 3
    expect(e.mse(1)).to.equal(14 / 3); // (1 + 9 + 4) / 3: M2 + n * 0^2
    expect(e.sigma(1)).to.equal(Math.sqrt(14 / 3)); // population variance 14/3 around the mean 0
    expect(Number.isNaN(e.mae(0))).to.equal(true);
  });

  it("hand-checked: a block's counts are one double, six bits a model (model m's at bit 6m); 1 to 5 models, blocks of at most 63 points", () => {
    const e = new ModelErrors(5);
    const nan = Number.NaN;
    e.push(Float64Array.of(1, nan, nan, nan, 2));
    e.push(Float64Array.of(nan, nan, nan, nan, 2));
    e.push(Float64Array.of(nan, 5, nan, nan, 2));
    // counts 1, 1, 0, 0, 3: 1 + 1 * 2^6 + 3 * 2^24
    expect(e.memory[e.blocksAt]).to.equal(1 + 64 + 3 * 16_777_216);
    expect([0, 1, 2, 3, 4].map((m) => e.count(m))).to.deep.equal([1, 1, 0, 0, 3]);
    expect(errorBlockStride(5)).to.equal(16);
    expect(errorBlocksSize(5, 240)).to.equal(6 * 16);
    // 40 points in model 4's bits (24-29) leave the others' alone
    const full = new ModelErrors(5);
    for (let p = 0; p < 40; p += 1) full.push(Float64Array.of(nan, nan, nan, p % 2 === 0 ? 1 : nan, 1));
    expect([0, 1, 2, 3, 4].map((m) => full.count(m))).to.deep.equal([0, 0, 0, 20, 40]);
    expect(() => errorBlocksSize(6, 240)).to.throw(RangeError, /1 to 5 models, got 6/);
    expect(() => errorBlocksSize(0, 240)).to.throw(RangeError, /got 0/);
    expect(() => errorBlocksSize(1, 240, { block: 64, blocks: 2, sigmaBlocks: 2, closed: 'sigma' })).to.throw(RangeError, /at most 63 points, got 64/);
  });

  it('hand-checked: two blocks combined (40 residuals of 1, then 5 of 3)', () => {
    const e = new ModelErrors(1);
    for (let p = 0; p < 45; p += 1) e.push(Float64Array.of(p < 40 ? 1 : 3));
    expect(block(e, 0, 0)).to.deep.equal([40, 1, 0, 40]);
    expect(block(e, 1, 0)).to.deep.equal([5, 3, 0, 15]);
    expect(e.count(0)).to.equal(45);
    expect(e.mae(0)).to.equal(55 / 45); // (40 + 15) / 45
    expect(e.mse(0)).to.equal(85 / 45); // (40 * 1 + 5 * 9) / 45
    // Chan: mean 1 + (3 - 1) * 5 / 45 = 11/9; M2 = 0 + 0 + 2^2 * 40 * 5 / 45 = 160/9 (= 40 * (2/9)^2 + 5 * (16/9)^2);
    // variance 160/9 / 45 = 32/81, sigma sqrt(32) / 9
    expect(e.sigma(0)).to.be.closeTo(Math.sqrt(32) / 9, 1e-15);
  });

  it('the MAE/MSE window: 6 blocks, 240 points when the newest completes, 201 after the next point; sigma: 5 blocks', () => {
    const e = new ModelErrors(1);
    // points 0-39: 100; 40-239: 0
    for (let p = 0; p < 240; p += 1) e.push(Float64Array.of(p < 40 ? 100 : 0));
    expect(e.count(0)).to.equal(240);
    expect(e.mae(0)).to.equal(4000 / 240);
    expect(e.mse(0)).to.equal(400000 / 240);
    // sigma reads points 40-239: zeros only
    expect(e.sigma(0)).to.equal(0);
    // point 240 starts block 6 in the slot of block 0: the hundreds leave
    e.push(Float64Array.of(6));
    expect(e.count(0)).to.equal(201);
    expect(e.mae(0)).to.equal(6 / 201);
    expect(block(e, 0, 0)).to.deep.equal([1, 6, 0, 6]);
    // sigma over points 80-240: 160 zeros and one 6; population variance 36/161 - (6/161)^2
    expect(e.sigma(0)).to.be.closeTo(Math.sqrt(36 / 161 - (6 / 161) ** 2), 1e-15);
  });

  it('sigma of large residuals that barely vary keeps its digits, and covers only its 5 blocks', () => {
    const e = new ModelErrors(1);
    // 300 points: the first 100 (far off) are before the last 5 blocks (points 120-299); then 3000
    // and 3000 + 2^-10 alternating. Sum of squares minus n * mean^2 would lose every digit here
    // (9e6 against a variance of 2.4e-7, below a double's step at 9e6, 1.9e-9)
    for (let p = 0; p < 300; p += 1) e.push(Float64Array.of(p < 100 ? -5e5 : p % 2 === 0 ? 3000 : 3000 + 2 ** -10));
    // population sd of two values half and half: half their distance, 2^-11
    expect(e.sigma(0)).to.be.closeTo(2 ** -11, 1e-15);
  });

  it('a residual beyond the floats counts as the largest float; a NaN counts nothing', () => {
    const e = new ModelErrors(1);
    for (const r of [1e39, Number.NaN, -Infinity, 5]) e.push(Float64Array.of(r));
    expect(e.count(0)).to.equal(3);
    const max = 3.4028234663852886e38;
    expect(e.mae(0)).to.equal((max + max + 5) / 3);
    expect(Number.isFinite(e.mse(0))).to.equal(true);
    expect(Number.isFinite(e.sigma(0))).to.equal(true);
  });

  it('MAE, MSE and sigma equal a direct computation over the points their windows name (property, 1e-9 relative)', () => {
    const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.abs(b) + 1e-300;
    fc.assert(
      fc.property(
        // per point: one value, and per model whether it forecast (any pattern, not only a prefix)
        fc.array(fc.tuple(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.array(fc.boolean(), { minLength: 3, maxLength: 3 })), { maxLength: 700, size: 'max' }),
        fc.double({ min: -1e4, max: 1e4, noNaN: true }),
        (points, offset) => {
          const models = 3;
          const e = new ModelErrors(models);
          const kept: number[][] = [[], [], []];
          points.forEach(([v, forecast]) => {
            const point = new Float64Array(models);
            for (let m = 0; m < models; m += 1) {
              // model 2's residuals: large and close together (offset + a small part)
              const r = m === 2 ? offset + v * 1e-6 : v * (m + 1);
              point[m] = forecast[m] ? r : Number.NaN;
              kept[m]!.push(point[m]!);
            }
            e.push(point);
          });
          const n = points.length;
          const newest = Math.floor((n - 1) / ERROR_BLOCK);
          const window = (blocks: number): number => Math.max(0, (newest - blocks + 1) * ERROR_BLOCK);
          for (let m = 0; m < models; m += 1) {
            const inWindow = kept[m]!.slice(n === 0 ? 0 : window(ERROR_BLOCKS)).filter((x) => !Number.isNaN(x));
            expect(e.count(m)).to.equal(inWindow.length);
            if (inWindow.length > 0) {
              const mae = inWindow.reduce((a, x) => a + Math.abs(x), 0) / inWindow.length;
              const mse = inWindow.reduce((a, x) => a + x * x, 0) / inWindow.length;
              expect(close(e.mae(m), mae), `mae ${e.mae(m)} ${mae}`).to.equal(true);
              expect(close(e.mse(m), mse), `mse ${e.mse(m)} ${mse}`).to.equal(true);
            }
            const last = kept[m]!.slice(n === 0 ? 0 : window(SIGMA_BLOCKS)).filter((x) => !Number.isNaN(x));
            // two passes: the mean, then the squared deviations from it
            const mean = last.reduce((a, x) => a + x, 0) / last.length;
            const sd = last.length < 2 ? 0 : Math.sqrt(last.reduce((a, x) => a + (x - mean) ** 2, 0) / last.length);
            // relative 1e-9, and an allowance of 1e-13 of the largest residual: the rounding of the
            // residuals' own size, which the two-pass reference carries as well (three equal residuals
            // of 1.6e-94: its mean is not exactly theirs, its sd 2.7e-110 where the blocks' is 0);
            // and 1e-150 absolute: below 1.5e-154 a square is subnormal (residuals 2.7e-161 and 0:
            // M2 3.6e-322 keeps two digits, sigma 1.334e-161 against 1.352e-161)
            const scale = last.reduce((a, x) => Math.max(a, Math.abs(x)), 0);
            expect(Math.abs(e.sigma(m) - sd) <= 1e-9 * sd + 1e-13 * scale + 1e-150, `sigma ${e.sigma(m)} ${sd}`).to.equal(true);
            // the windows' lengths: 201-240 and 161-200 points once that many were pushed
            if (n >= 240) expect(n - window(ERROR_BLOCKS)).to.be.within(201, 240);
            if (n >= 200) expect(n - window(SIGMA_BLOCKS)).to.be.within(161, 200);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('errorWindowSums reads every model in one pass: the count and sums of each model are bit for bit those of records holding that model alone (property)', () => {
    const residual = fc.oneof(fc.constant(Number.NaN), fc.constant(0), fc.double({ min: -1e6, max: 1e6, noNaN: true }));
    fc.assert(
      fc.property(fc.array(fc.array(residual, { minLength: 5, maxLength: 5 }), { minLength: 1, maxLength: 400, size: 'max' }), (points) => {
        const all = new ModelErrors(5);
        const alone = [0, 1, 2, 3, 4].map(() => new ModelErrors(1));
        for (const r of points) {
          all.push(Float64Array.from(r));
          r.forEach((e, m) => alone[m]!.push(Float64Array.of(e)));
        }
        const [counts, sumAbs, sumSq] = [new Float64Array(5), new Float64Array(5), new Float64Array(5)];
        errorWindowSums(all.memory, 0, all.blocksAt, 5, counts, sumAbs, sumSq);
        for (let m = 0; m < 5; m += 1) {
          const [n, abs, sq] = [new Float64Array(1), new Float64Array(1), new Float64Array(1)];
          errorWindowSums(alone[m]!.memory, 0, alone[m]!.blocksAt, 1, n, abs, sq);
          expect([counts[m], sumAbs[m], sumSq[m]]).to.deep.equal([n[0], abs[0], sq[0]]);
          expect(Object.is(all.mae(m), (abs[0] as number) / (n[0] as number))).to.equal(true);
          expect(Object.is(all.mse(m), (sq[0] as number) / (n[0] as number))).to.equal(true);
        }
      }),
      { numRuns: 200 },
    );
  });
  it('errorWindowSums (the closed blocks\' kept sums plus the block in progress) is bit for bit a sweep of the 6 newest blocks oldest first, through zero pushes, huge and NaN residuals (property)', () => {
    // the sweep errorWindowSums made before it kept the closed blocks' sums: every held block's
    // terms added oldest first from 0
    const sweep = (e: ModelErrors): number[][] => {
      const d = e.memory;
      const points = d[0] as number;
      const held = Math.min(ERROR_BLOCKS, Math.ceil(points / ERROR_BLOCK));
      const out = Array.from({ length: e.models }, () => [0, 0, 0]);
      let i = ((((points - 1) / ERROR_BLOCK) | 0) - held + 1) % ERROR_BLOCKS;
      for (let b = 0; b < held; b += 1) {
        for (let m = 0; m < e.models; m += 1) {
          // the block's counts (six bits a model), then each model's mean, M2 and sum of |e|
          const b = e.blocksAt + i * errorBlockStride(e.models);
          const n = Math.floor((d[b] as number) / 2 ** (6 * m)) % 64;
          const s = b + 1 + m * ERROR_FIELDS;
          const [mean, m2, abs] = [d[s], d[s + 1], d[s + 2]] as number[];
          const o = out[m]!;
          o[0] = o[0]! + n!;
          o[1] = o[1]! + abs!;
          o[2] = o[2]! + (m2! + n! * mean! * mean!);
        }
        i = i === ERROR_BLOCKS - 1 ? 0 : i + 1;
      }
      return out;
    };
    const residual = fc.oneof(fc.constant(Number.NaN), fc.constant(0), fc.constant(-0), fc.constant(1e300), fc.double({ noNaN: true }), fc.double({ min: -1e3, max: 1e3, noNaN: true }));
    // a point: the models' residuals, or null for a push of +0 residuals (the zero fixed point)
    const point = fc.option(fc.array(residual, { minLength: 3, maxLength: 3 }), { freq: 4 });
    fc.assert(
      fc.property(fc.array(point, { minLength: 0, maxLength: 700, size: 'max' }), fc.integer({ min: 1, max: 7 }), (points, every) => {
        const e = new ModelErrors(3);
        const [counts, sumAbs, sumSq] = [new Float64Array(3), new Float64Array(3), new Float64Array(3)];
        points.forEach((r, p) => {
          if (r === null) errorPushZeros(e.memory, 0, e.blocksAt, 3);
          else errorPush(e.memory, 0, e.blocksAt, 3, Float64Array.from(r));
          if (p % every !== 0 && p !== points.length - 1) return;
          errorWindowSums(e.memory, 0, e.blocksAt, 3, counts, sumAbs, sumSq);
          const want = sweep(e);
          for (let m = 0; m < 3; m += 1) {
            const got = [counts[m], sumAbs[m], sumSq[m]] as number[];
            got.forEach((v, k) => expect(Object.is(v, want[m]![k]), `point ${p}, model ${m}, field ${k}: ${v} against ${want[m]![k]}`).to.equal(true));
          }
        });
      }),
      { numRuns: 200 },
    );
  });

  it("a 'sigma' shape's errorSigma (the closed blocks' kept combination plus the block in progress) is bit for bit a 'sums' shape's sweep of the same blocks, through zero pushes, huge and NaN residuals (property)", () => {
    // the seasonal residuals' shape, and one whose sigma reads fewer blocks than the ring holds
    const shapes: readonly BlockShape[] = [SEASONAL_RESIDUAL_BLOCKS, { block: 4, blocks: 6, sigmaBlocks: 5, closed: 'sigma' }];
    const residual = fc.oneof(fc.constant(Number.NaN), fc.constant(0), fc.constant(-0), fc.constant(1e300), fc.double({ noNaN: true }), fc.double({ min: -1e3, max: 1e3, noNaN: true }));
    const point = fc.option(fc.array(residual, { minLength: 2, maxLength: 2 }), { freq: 4 });
    fc.assert(
      fc.property(fc.constantFrom(...shapes), fc.array(point, { minLength: 0, maxLength: 500, size: 'max' }), (kept, points) => {
        const swept: BlockShape = { ...kept, closed: 'sums' };
        const bl = errorStats(2);
        const size = bl + errorBlocksSize(2, kept.block * kept.blocks, kept);
        const [a, b] = [new Float64Array(size), new Float64Array(size)];
        expect(errorSigma(a, 0, bl, 2, 1, kept)).to.equal(0);
        points.forEach((r, p) => {
          for (const [d, shape] of [[a, kept], [b, swept]] as const) {
            if (r === null) errorPushZeros(d, 0, bl, 2, shape);
            else errorPush(d, 0, bl, 2, Float64Array.from(r), shape);
          }
          for (let m = 0; m < 2; m += 1) {
            const [got, want] = [errorSigma(a, 0, bl, 2, m, kept), errorSigma(b, 0, bl, 2, m, swept)];
            expect(Object.is(got, want), `point ${p}, model ${m}: ${got} against ${want}`).to.equal(true);
          }
        });
        // the blocks themselves are the same: only the scalars' meaning differs
        expect(a.subarray(bl)).to.deep.equal(b.subarray(bl));
      }),
      { numRuns: 200 },
    );
  });

  it("hand-checked: a 'sigma' shape keeps the closed blocks' count, mean and M2", () => {
    const shape: BlockShape = { block: 2, blocks: 3, sigmaBlocks: 3, closed: 'sigma' };
    const bl = errorStats(1);
    const d = new Float64Array(bl + errorBlocksSize(1, 6, shape));
    // blocks (1, 3) and (5, 7), then 2 starts the third block
    for (const r of [1, 3, 5, 7, 2]) errorPush(d, 0, bl, 1, Float64Array.of(r), shape);
    // closed: block 1 n 2, mean 2, M2 2; block 2 n 2, mean 6, M2 2; combined: n 4, delta 4,
    // mean 2 + 4 * 2 / 4 = 4, M2 2 + (2 + 16 * 2 / 4 * 2) = 20 (= 9 + 1 + 1 + 9 around 4)
    expect(Array.from(d.subarray(1, 4))).to.deep.equal([4, 4, 20]);
    // with the block in progress (2): n 5, mean 4 + (2 - 4) / 5 = 3.6, M2 20 + 0 + 4 * 4 / 5 = 23.2
    expect(errorSigma(d, 0, bl, 1, 0, shape)).to.be.closeTo(Math.sqrt(23.2 / 5), 1e-15);
  });
});
