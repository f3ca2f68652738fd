import { expect } from 'chai';
import fc from 'fast-check';
import { SeriesEnsemble } from '../../../api-server/src/analysis/ensemble/series-ensemble.js';
import { STAGES, layoutOf, memoryFloat, newSeriesMemory, positionsView } from '../../../api-server/src/analysis/ensemble/series-memory.js';
import { setFloatHalves } from '../../../api-server/src/analysis/packed/sixteen-bit.js';

const setMemoryFloat = (u: Uint16Array, i: number, v: number): void => setFloatHalves(u, 2 * i, v);
import { floatView } from '../../support/series-memory-views.js';
import { detectPoint } from '../../../api-server/src/analysis/anomaly/series-detectors.js';
import { allocateNovelty, releaseNovelty } from '../../../api-server/src/analysis/anomaly/novelty-score.js';

const LAST_STAGE = STAGES.length - 1;

describe('series memory (one Float64Array per series, grown by stages)', () => {
  it('memoryFloat (and float halves written at float element i): the float a Float32Array view reads and writes there, bit for bit, through the Uint16 view', () => {
    const d = newSeriesMemory(LAST_STAGE);
    const u = positionsView(d);
    const f = floatView(d);
    const bits = new Uint32Array(f.buffer, f.byteOffset, f.length);
    const special = fc.constantFrom(0, -0, Number.NaN, Infinity, -Infinity, 1e-45, -1.4e-45, 3.4028235e38, 3.5e38, 1.2e9 + 0.3, 2 ** -149);
    fc.assert(
      fc.property(fc.oneof(fc.double(), special), fc.integer({ min: 0, max: f.length - 1 }), fc.integer({ min: 0, max: f.length - 1 }), (v, i, j) => {
        // written through the Uint16 view: the view of floats reads v rounded to a float, as if written there
        setMemoryFloat(u, i, v);
        expect(Object.is(f[i], Math.fround(v)), `f[${i}] = ${f[i]} after writing ${v}`).to.equal(true);
        const written = bits[i];
        f[j] = v;
        if (i === j) expect(bits[i]).to.equal(written);
        // read through the Uint16 view: what the view of floats holds there, bit for bit (a NaN's sign and payload included)
        bits[j] = (Math.random() * 2 ** 32) >>> 0;
        const read = memoryFloat(u, j);
        expect(Object.is(read, f[j]), `element ${j}: ${read} against ${f[j]}`).to.equal(true);
        setMemoryFloat(u, (j + 1) % f.length, read);
        if (!Number.isNaN(read)) expect(bits[(j + 1) % f.length]).to.equal(bits[j]);
      }),
      { numRuns: 2000 },
    );
    // one float element covers two 16-bit elements, in memory order: 1.0f is 0x3f800000
    setMemoryFloat(u, 3, 1);
    expect(bits[3]).to.equal(0x3f800000);
    expect([u[6], u[7]]).to.deep.equal([...new Uint16Array(new Float32Array([1]).buffer)]);
  });
  it('stages grow 16, then 300 points; no region overlaps another', () => {
    expect(STAGES.map((s) => s.room)).to.deep.equal([16, 300]);
    for (const stage of STAGES) {
      let end = 0;
      for (const [start, length] of stage.regions) {
        expect(start).to.equal(end);
        end = start + length;
      }
      expect(end).to.equal(stage.size);
      // the seasonal residuals' blocks: ten of 4 doubles from the 256 stage on, none before
      expect(stage.residualBlocks + (stage.room >= 256 ? 40 : 0)).to.be.at.most(stage.size);
    }
    expect(layoutOf(newSeriesMemory(1)).room).to.equal(300);
    // before the stable line shared the value window's pairs: 2 784 and 25 536 bytes; now its 16 and
    // 240 (x, y) points (256 and 3 840 bytes) are gone, and the two lines (burst, stable) have two
    // more scalars each (32 bytes): 2 784 - 256 + 32 = 2 560 and 25 536 - 3 840 + 32 = 21 728; then
    // the residual ring of 5 x 16 and 5 x 240 residuals in floats, half their 640 and 9 600 bytes;
    // then the seasonal detector's 200 residuals (at 300 points only) in floats, half their 1 600
    // bytes; then Holt-Winters' season of 16 and 240 values in floats, half their 128 and 1 920 bytes;
    // then the value window's sorted copy of 16 and 300 doubles (128 and 2 400 bytes) as 16-bit
    // positions (32 and 600 bytes): 2 080 and 13 368; then the residual ring (320 and 4 800 bytes)
    // and its running sums (15 doubles, 120 bytes) as one block of sums of 20 points (5 models x 4
    // doubles, 160 bytes) and twelve (1 920 bytes): 1 800 and 10 368; then the value window's 16 and
    // 300 sample times as 32-bit offsets instead of doubles (64 and 1 200 bytes fewer), their base
    // and where they are two more scalars of the stable line (16); then the MAE/MSE window's sums of
    // the closed blocks, three per model (120); then blocks of 40 points, six at 300 points (960
    // bytes instead of 1 920; the 16-point stage keeps its one block); then the seasonal detector's
    // 200 residuals in floats (800 bytes) and their three running sums as ten blocks of 20 (40
    // doubles, 320 bytes) and four scalars (32): one scalar more in both stages (8); then ARI's 64
    // differences and their ring's head and count (528 bytes: the value window's differences now)
    // and the burst line's 20 (x, y) points (40 doubles, 320 bytes: the value window's last 20
    // now) with two split-line scalars more (16): 832 bytes fewer in both stages; then the 16 and
    // 300 sample times as 16-bit offsets instead of 32-bit ones (32 and 600 bytes fewer), their
    // width one more scalar of each line (16); then the models' counts in a block as one double
    // (six bits each) instead of five, 32 bytes fewer a block (one block, six blocks); then the
    // value window's 16 and 300 values as floats (64 and 1 200 bytes fewer), with the window's
    // kind of values and the run of fine changes two more scalars (16, value-precision.ts); then
    // Holt-Winters' 16 and 240 season values as bfloat16s instead of floats (32 and 480 bytes fewer)
    expect(STAGES.map((s) => s.size * 8)).to.deep.equal([
      2080 - 320 - 120 + 160 - 64 + 16 + 120 + 8 - 528 - 320 + 16 - 32 + 16 - 32 - 64 + 16 - 32,
      13368 - 4800 - 120 + 1920 - 1200 + 16 + 120 - 960 - 800 + 320 + 8 - 528 - 320 + 16 - 600 + 16 - 6 * 32 - 1200 + 16 - 480,
    ]);
    expect(STAGES.map((s) => s.size * 8)).to.deep.equal([920, 4600]);
  });

  it('a series that grows through every stage behaves exactly as one that started with all the room (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.double({ min: -1e3, max: 1e3, noNaN: true }), fc.constantFrom(0, 1, Number.NaN)), { minLength: 300, maxLength: 700, size: 'max' }),
        (values) => {
          const grown = new SeriesEnsemble();
          const roomy = new SeriesEnsemble(LAST_STAGE);
          const noveltyA = allocateNovelty();
          const noveltyB = allocateNovelty();
          try {
            values.forEach((y, i) => {
              const x = 1_700_000_000 + 15 * i;
              expect(Object.is(grown.observe(y, x), roomy.observe(y, x))).to.equal(true, `prediction at ${i}`);
              const a = detectPoint(grown, noveltyA, y, x, x);
              const b = detectPoint(roomy, noveltyB, y, x, x);
              expect(a).to.deep.equal(b, `firings at ${i}`);
              if (i % 50 === 0) {
                expect(grown.weights()).to.deep.equal(roomy.weights());
                expect(grown.forecast(30)).to.deep.equal(roomy.forecast(30));
                expect(grown.stableLine.toJSON()).to.deep.equal(roomy.stableLine.toJSON());
              }
            });
            expect(grown.toJSON()).to.deep.equal(roomy.toJSON());
            // a stage is left when the next point would not fit: P points sit in the first stage with room for P
            const points = values.filter(Number.isFinite).length;
            expect(layoutOf(grown.memory).room).to.equal((STAGES.find((s) => s.room >= points) ?? STAGES[LAST_STAGE]!).room);
          } finally {
            releaseNovelty(noveltyA);
            releaseNovelty(noveltyB);
          }
        },
      ),
      { numRuns: 15 },
    );
  });
});
