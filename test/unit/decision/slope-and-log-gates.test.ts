import { expect } from 'chai';
import { SlidingRegression } from '../../../api-server/src/analysis/regression/sliding-regression.js';
import { gatedSlopeRatio, slopeIsSignificant } from '../../../api-server/src/analysis/decision/slope-significance.js';
import { gatedLogRatio } from '../../../api-server/src/analysis/decision/log-significance.js';

describe('decision: the slope significance gate of metricR', () => {
  it('the slope standard error from the residuals, hand-checked on four points', () => {
    // (0,0) (1,1) (2,0) (3,1): slope 0.2, residuals -0.2 0.6 -0.6 0.2, SSE 0.8, Sxx 5 → SE = √(0.8/2/5) = √0.08
    const line = new SlidingRegression(4);
    [0, 1, 0, 1].forEach((y, x) => line.push(x, y));
    expect(line.slope()).to.be.closeTo(0.2, 1e-12);
    expect(line.slopeStdError()).to.be.closeTo(Math.sqrt(0.08), 1e-12);
  });

  it('a line of fewer than 3 points has no standard error (+Infinity); an exact line has 0', () => {
    const two = new SlidingRegression(4);
    two.push(0, 0);
    two.push(1, 1);
    expect(two.slopeStdError()).to.equal(Number.POSITIVE_INFINITY);
    two.push(2, 2);
    expect(two.slopeStdError()).to.equal(0);
  });

  const gate = { tMin: 5, material: 0.05 };
  it('passes a significant, material slope with the contract ratio |αb| / max(|αs|, 1e-6)', () => {
    // change 0.001·100 = 0.1 ≥ 0.05; t = 0.001 / 0.0001 = 10 ≥ 5; ratio 0.001 / 0.0005 = 2
    expect(gatedSlopeRatio(0.001, 0.0001, 100, 0.0005, gate)).to.be.closeTo(2, 1e-12);
    // a flat stable window: 0.001 / 1e-6 = 1000, capped at 10
    expect(gatedSlopeRatio(-0.001, 0.0001, 100, 0, gate)).to.equal(10);
  });

  it('reads a slope within noise (t < 5) or too small (change < 0.05) as zero', () => {
    // t = 0.001 / 0.00025 = 4
    expect(slopeIsSignificant(0.001, 0.00025, 100, gate)).to.equal(false);
    expect(gatedSlopeRatio(0.001, 0.00025, 100, 0, gate)).to.equal(0);
    // change 0.0004·100 = 0.04 < 0.05, although t = 40
    expect(gatedSlopeRatio(0.0004, 0.00001, 100, 0, gate)).to.equal(0);
    // no span, non-finite slope
    expect(slopeIsSignificant(0.1, 0, 0, gate)).to.equal(false);
    expect(slopeIsSignificant(Number.NaN, 0, 100, gate)).to.equal(false);
  });
});

describe('decision: minimum counts for logR', () => {
  const gate = { minCount: 5, sigmas: 3 };
  it('a busy baseline (μ = 4) needs c ≥ μ + 3√μ = 10 lines', () => {
    expect(gatedLogRatio(9 / 4, 9, 4, gate)).to.equal(1);
    expect(gatedLogRatio(10 / 4, 10, 4, gate)).to.equal(2.5);
  });

  it("a quiet service's one error line is not a burst; five lines over a baseline below 1 are", () => {
    // μ = 0.2 reads as 1: c ≥ max(5, 1 + 3) = 5
    expect(gatedLogRatio(1, 1, 0.2, gate)).to.equal(1);
    expect(gatedLogRatio(4, 4, 0.2, gate)).to.equal(1);
    expect(gatedLogRatio(5, 5, 0.2, gate)).to.equal(5);
  });

  it('never raises a ratio below 1', () => {
    expect(gatedLogRatio(0.5, 2, 4, gate)).to.equal(0.5);
  });
});
