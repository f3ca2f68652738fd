import { expect } from 'chai';
import fc from 'fast-check';
import { SlidingRegression, metricRatio } from '../../../api-server/src/analysis/regression/index.js';

/** direct least squares of the points, the reference every check compares with */
function directFit(xs: number[], ys: number[]): { slope: number; intercept: number } {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i += 1) {
    sxx += (xs[i]! - mx) ** 2;
    sxy += (xs[i]! - mx) * (ys[i]! - my);
  }
  const slope = n >= 2 && sxx > 0 ? sxy / sxx : 0;
  return { slope, intercept: my - slope * mx };
}

const closeRel = (a: number, b: number, tol: number): boolean => Math.abs(a - b) <= tol * Math.max(1, Math.abs(b));

describe('sliding regression (analytics.md §2.1)', () => {
  it('fits a hand-checked line and slides by count', () => {
    const r = new SlidingRegression(3);
    r.push(0, 1);
    r.push(15, 2);
    expect(r.slope()).to.be.closeTo(1 / 15, 1e-15);
    r.push(30, 3);
    r.push(45, 10); // evicts (0, 1): points (15,2) (30,3) (45,10)
    // slope = sum dx dy / sum dx^2 with mean x 30, mean y 5: (-15*-3 + 0 + 15*5) / 450 = 120/450
    expect(r.slope()).to.be.closeTo(120 / 450, 1e-12);
    expect(r.intercept()).to.be.closeTo(5 - (120 / 450) * 30, 1e-12);
    expect(r.full).to.equal(true);
  });

  it('ignores non-finite points and answers 0 slope with fewer than two points', () => {
    const r = new SlidingRegression(20);
    r.push(Number.NaN, 1);
    r.push(1, Number.POSITIVE_INFINITY);
    expect(r.count).to.equal(0);
    r.push(1, 5);
    expect(r.slope()).to.equal(0);
    expect(r.intercept()).to.equal(5);
  });

  it('equals a direct least-squares fit within 1e-9 relative (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 60 }),
        fc.array(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { minLength: 2, maxLength: 300, size: 'max' }),
        (capacity, ys) => {
          const r = new SlidingRegression(capacity);
          ys.forEach((y, i) => r.push(i * 15, y));
          const kept = ys.slice(-capacity);
          const fit = directFit(kept.map((_, i) => (ys.length - kept.length + i) * 15), kept);
          // the running sums' rounding scales with the largest values they held, not with the
          // window's: a window of zeros after values of 1e3 leaves residues of ~1e-12 of those
          const scale = Math.max(...ys.map(Math.abs));
          expect(Math.abs(r.slope() - fit.slope) <= 1e-9 * Math.max(1, Math.abs(fit.slope), scale / (15 * capacity)), `${r.slope()} vs ${fit.slope}`).to.equal(true);
          // the intercept is read at x = 0, n points before the window: the slope's error times x
          expect(Math.abs(r.intercept() - fit.intercept) <= 1e-9 * Math.max(1, Math.abs(fit.intercept), scale * (1 + ys.length / capacity)), `${r.intercept()} vs ${fit.intercept}`).to.equal(true);
        },
      ),
    );
  });

  it('stays exact over 10 million updates (drift bounded by the periodic recomputation)', function () {
    this.timeout(120_000);
    const r = new SlidingRegression(240);
    let seed = 42;
    const noise = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648 - 0.5;
    };
    const xs: number[] = [];
    const ys: number[] = [];
    const total = 10_000_000;
    for (let i = 0; i < total; i += 1) {
      const x = i * 15;
      const y = 0.5 + 0.001 * Math.sin(i / 50) + 0.01 * noise();
      r.push(x, y);
      if (i >= total - 240) {
        xs.push(x);
        ys.push(y);
      }
    }
    const fit = directFit(xs, ys);
    expect(closeRel(r.slope(), fit.slope, 1e-9), `${r.slope()} vs ${fit.slope}`).to.equal(true);
  });

  it('metricR: null until the burst window is full, the noise gate, the 1e-6 floor and the cap of 10', () => {
    const burst = new SlidingRegression(20);
    const stable = new SlidingRegression(240);
    for (let i = 0; i < 19; i += 1) {
      burst.push(i * 15, 0.5);
      stable.push(i * 15, 0.5);
    }
    expect(metricRatio(burst, stable, 0.02)).to.equal(null);
    burst.push(19 * 15, 0.5);
    stable.push(19 * 15, 0.5);
    expect(metricRatio(burst, stable, 0.02)).to.equal(0); // flat: gated
    const ramp = new SlidingRegression(20);
    for (let i = 0; i < 20; i += 1) ramp.push(i * 15, 0.01 * i); // slope 0.01/15 per s over 285 s
    expect(metricRatio(ramp, stable, 0)).to.equal(10); // stable slope 0 → floor 1e-6 → capped
    const half = new SlidingRegression(240);
    for (let i = 0; i < 240; i += 1) half.push(i * 15, 0.005 * i); // slope 0.005/15 per s
    expect(metricRatio(ramp, half, 0)).to.be.closeTo(2, 1e-9); // (0.01/15) / (0.005/15)
    expect(metricRatio(ramp, half, 10)).to.equal(0); // |alpha_b| x 285 s = 0.19 < gate 10
  });

  it('adopts the running moments of a saved window only when it holds exactly the same points', () => {
    const long = new SlidingRegression(20);
    for (let i = 0; i < 1500; i += 1) long.push(i * 15, Math.sin(i / 9) + i * 1e-3);
    const saved = long.toJSON();
    const replayed = new SlidingRegression(20);
    for (let i = 0; i < 20; i += 1) replayed.push(saved.xs[i]!, saved.ys[i]!);
    const other = new SlidingRegression(20);
    for (let i = 0; i < 20; i += 1) other.push(saved.xs[i]!, saved.ys[i]! + 1);
    expect(other.adoptMoments(saved)).to.equal(false);
    expect(replayed.adoptMoments({ ...saved, moments: [1, 2, Number.NaN, 4, 5] })).to.equal(false);
    expect(replayed.adoptMoments(saved)).to.equal(true);
    for (let i = 1500; i < 1600; i += 1) {
      long.push(i * 15, Math.cos(i / 7));
      replayed.push(i * 15, Math.cos(i / 7));
      expect(replayed.slope()).to.equal(long.slope());
    }
  });
});
