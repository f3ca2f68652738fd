import { expect } from 'chai';
import fc from 'fast-check';
import { MODEL_NAMES, SeriesEnsemble } from '../../../api-server/src/analysis/ensemble/index.js';
import { ariPhi, ariUpdate, ariUsable, ewmaUpdate, hwPredict, hwUpdate, hwUsable, levinsonDurbin, madPredict, madUpdate, madUsable } from '../../../api-server/src/analysis/ensemble/models.js';
import { EWMA_LEVEL, STAGES, layoutOf, newSeriesMemory, positionsView } from '../../../api-server/src/analysis/ensemble/series-memory.js';
import { fromBfloat16 } from '../../../api-server/src/analysis/packed/sixteen-bit.js';

/** a series' memory at its last stage (room for every window), and that stage's layout */
function fullMemory(): { d: Float64Array; u: Uint16Array; layout: ReturnType<typeof layoutOf> } {
  const d = newSeriesMemory(STAGES.length - 1);
  return { d, u: positionsView(d), layout: layoutOf(d) };
}

describe('ensemble models (analytics.md §5.2)', () => {
  it('ewma: level = 0.1 y + 0.9 level from the first value', () => {
    const { d } = fullMemory();
    for (const y of [10, 20, 30]) ewmaUpdate(d, y);
    // 10 → 11 → 0.1*30 + 0.9*11 = 12.9
    expect(d[EWMA_LEVEL]).to.be.closeTo(12.9, 1e-12);
  });

  it('mad: median of the last 300 values, usable after 10', () => {
    const { d, u, layout } = fullMemory();
    for (let i = 1; i <= 9; i += 1) madUpdate(d, u, layout, i);
    expect(madUsable(d)).to.equal(false);
    madUpdate(d, u, layout, 100);
    expect(madPredict(d, u, layout)).to.equal(5.5);
    for (let i = 0; i < 400; i += 1) madUpdate(d, u, layout, i % 2 === 0 ? 1 : 3);
    expect(madPredict(d, u, layout)).to.equal(2);
  });

  it('Levinson-Durbin solves the Yule-Walker equations of an AR(1)', () => {
    // rho_k = 0.6^k for an AR(1) with phi = 0.6
    const phi = levinsonDurbin([1, 0.6, 0.36, 0.216], 3)!;
    expect(phi[0]).to.be.closeTo(0.6, 1e-12);
    expect(phi[1]).to.be.closeTo(0, 1e-12);
    expect(phi[2]).to.be.closeTo(0, 1e-12);
  });

  it('arima: recovers the AR coefficient of differences that follow an AR(1)', () => {
    const { d, layout } = fullMemory();
    let diff = 1;
    let y = 0;
    let seed = 7;
    for (let i = 0; i < 200; i += 1) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      diff = 0.6 * diff + (seed / 2147483648 - 0.5) * 0.1;
      // a series' value window keeps floats: its values are so rounded (value-precision.ts)
      y = Math.fround(y + diff);
      madUpdate(d, positionsView(d), layout, y);
      ariUpdate(d, positionsView(d), layout, y);
    }
    expect(ariPhi(d)[0]).to.be.within(0.35, 0.85);
    expect(ariUsable(d)).to.equal(true);
  });

  it('arima over the value window: the coefficients and forecasts of ARI with a ring of 64 differences of its own, bit for bit (property)', () => {
    // the reference: ARI as it was kept before its differences were read from the value window
    class RingAri {
      readonly diffs: number[] = [];
      last = Number.NaN;
      sinceFit = 0;
      phi = [0, 0, 0];
      update(y: number): void {
        if (!Number.isNaN(this.last)) {
          this.diffs.push(y - this.last);
          if (this.diffs.length > 64) this.diffs.shift();
          this.sinceFit += 1;
          const n = this.diffs.length;
          if (n >= 8 && (this.sinceFit >= 10 || n === 8)) {
            this.fit();
            this.sinceFit = 0;
          }
        }
        this.last = y;
      }
      fit(): void {
        const x = this.diffs;
        const n = x.length;
        const rho = [0, 1, 2, 3].map((lag) => {
          let s = 0;
          for (let i = lag; i < n; i += 1) s += x[i]! * x[i - lag]!;
          return s / n;
        });
        const r0 = rho[0]!;
        if (Math.abs(r0) < 1e-12) return;
        const phi = levinsonDurbin(rho.map((r) => r / r0), 3);
        if (phi !== undefined && Math.abs(phi[0]!) + Math.abs(phi[1]!) + Math.abs(phi[2]!) < 1) this.phi = phi;
      }
      predict(h: number): number {
        const n = this.diffs.length;
        let [r0, r1, r2] = [n > 0 ? this.diffs[n - 1]! : 0, n > 1 ? this.diffs[n - 2]! : 0, n > 2 ? this.diffs[n - 3]! : 0];
        let y = this.last;
        for (let s = 0; s < Math.min(Math.max(1, h), 20); s += 1) {
          const dy = this.phi[0]! * r0 + this.phi[1]! * r1 + this.phi[2]! * r2;
          y += dy;
          [r2, r1, r0] = [r1, r0, dy];
        }
        return y;
      }
    }
    // runs of a value (+0 among them, long enough for the zero fixed point), noise between them
    const segment = fc.record({ level: fc.oneof(fc.constant(0), fc.double({ min: -1e6, max: 1e6, noNaN: true })), noise: fc.constantFrom(0, 0.01, 3), n: fc.integer({ min: 1, max: 420 }) });
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 1000 }), (segments, seed) => {
        const e = new SeriesEnsemble();
        const ref = new RingAri();
        let s = seed;
        let x = 0;
        for (const { level, noise, n } of segments) {
          for (let k = 0; k < n; k += 1) {
            s = (s * 1103515245 + 12345) % 2147483648;
            const y = noise === 0 ? level : level + (s / 2147483648 - 0.5) * noise;
            e.observe(y, x);
            // the value as the series keeps it (a float, or y once it keeps doubles)
            ref.update(e.storedValue(y));
            x += 15;
            expect(ariPhi(e.memory), `phi at point ${x / 15}`).to.deep.equal(ref.phi);
            const usable = ref.diffs.length >= 10;
            expect(ariUsable(e.memory)).to.equal(usable);
            if (usable) for (const h of [1, 4, 40]) expect(Object.is(e.modelPredictions(h).arima, ref.predict(h)), `forecast ${h} at point ${x / 15}`).to.equal(true);
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it('holt_winters: learns a pure season and predicts it one season later', () => {
    const { d, layout } = fullMemory();
    const season = (i: number): number => Math.sin((2 * Math.PI * i) / 240);
    for (let i = 0; i < 240 * 3; i += 1) hwUpdate(d, positionsView(d), layout, 5 + season(i));
    expect(hwUsable(d)).to.equal(true);
    expect(hwPredict(d, positionsView(d), layout, 1)).to.be.closeTo(5 + season(240 * 3), 0.05);
    expect(hwPredict(d, positionsView(d), layout, 60)).to.be.closeTo(5 + season(240 * 3 + 59), 0.1);
  });
  it('holt_winters: a season in bfloat16s keeps its precision relative to the swing on a large level (the first season buffered from its first point)', () => {
    const { d, layout } = fullMemory();
    const u = positionsView(d);
    // bytes of a 1.2 GB process swinging ±1 000 over the season: a float of 1.2e9 is only good to 64
    const season = (i: number): number => 1000 * Math.sin((2 * Math.PI * i) / 240);
    for (let i = 0; i < 240; i += 1) hwUpdate(d, u, layout, 1.2e9 + season(i));
    // after the first season: level = the mean (1.2e9, the sines summing to ~0), each season value
    // its sine to a bfloat16's precision at 1 000 (2^-8 of it, twice: buffered, then shifted by
    // the level's ~0 difference from the first point), 7.8 at most, not to a float's at 1.2e9 (64)
    for (let i = 0; i < 240; i += 1) expect(fromBfloat16(u[layout.season + i]!) - season(i), `season ${i}`).to.be.closeTo(0, 1000 * 2 ** -7);
    // the next point (on the line: level 1.2e9, season value +0) leaves both as they are; the forecast reads the next value
    hwUpdate(d, u, layout, 1.2e9 + season(240));
    expect(hwPredict(d, u, layout, 1)).to.be.closeTo(1.2e9 + season(241), 1000 * 2 ** -7);
  });
});

describe('series ensemble (analytics.md §5.3-5.5)', () => {
  it('cold start gives ca_ilr all the weight; weights sum to 1 and respect the 0.05 floor once scored', () => {
    const e = new SeriesEnsemble();
    expect(e.weights().ca_ilr).to.equal(1);
    for (let i = 0; i < 400; i += 1) e.observe(0.5 + 0.1 * Math.sin(i / 7), i * 15);
    const w = e.weights();
    const sum = MODEL_NAMES.reduce((a, m) => a + w[m], 0);
    expect(sum).to.be.closeTo(1, 1e-12);
    for (const m of MODEL_NAMES) expect(w[m]).to.be.at.least(0.05 - 1e-12);
  });

  it('confidence is 1/(1 + mean MSE) and reaches high values on a series it tracks', () => {
    const e = new SeriesEnsemble();
    expect(e.confidence()).to.equal(0.5); // no errors: every model counts MSE 1
    for (let i = 0; i < 300; i += 1) e.observe(0.4, i * 15);
    expect(e.confidence()).to.be.greaterThan(0.99);
  });

  it('forecast: offsets below the horizon plus the horizon, bands around the mean', () => {
    const e = new SeriesEnsemble();
    for (let i = 0; i < 100; i += 1) e.observe(0.2 + 0.001 * i + (i % 3) * 0.01, i * 15);
    const f = e.forecast(60);
    expect(f.points.map((p) => p.offsetMinutes)).to.deep.equal([1, 5, 10, 30, 60]);
    for (const p of f.points) {
      expect(p.lower95).to.be.at.most(p.lower80);
      expect(p.lower80).to.be.at.most(p.mean);
      expect(p.upper80).to.be.at.most(p.upper95);
    }
    expect(f.trend).to.equal('rising');
    expect(f.warmingUp).to.equal(true);
  });

  it('weights always sum to 1 and predictions stay finite for any finite input; non-finite input is ignored (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.constant(Number.NaN), fc.constant(Number.POSITIVE_INFINITY)), { maxLength: 120, size: 'max' }), (ys) => {
        const e = new SeriesEnsemble();
        ys.forEach((y, i) => e.observe(y, i * 15));
        const w = e.weights();
        expect(MODEL_NAMES.reduce((a, m) => a + w[m], 0)).to.be.closeTo(1, 1e-9);
        expect(Number.isFinite(e.predict(1))).to.equal(true);
        expect(e.confidence()).to.be.within(0, 1);
      }),
    );
  });
});
