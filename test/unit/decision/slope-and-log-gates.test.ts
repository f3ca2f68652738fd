import { expect } from 'chai';
import { SlidingRegression } from '../../../api-server/src/analysis/regression/sliding-regression.js';
import fc from 'fast-check';
import { gatedSlopeRatio, slopeIsMaterial, slopeIsSignificant } from '../../../api-server/src/analysis/decision/slope-significance.js';
import { AlertDecision } from '../../../api-server/src/analysis/decision/alert-decision.js';
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

  it('materiality alone: |αb|·span ≥ material, over a span, for a finite slope', () => {
    // 0.0005·100 = 0.05: material at the edge; 0.0004·100 = 0.04 is not
    expect(slopeIsMaterial(-0.0005, 100, 0.05)).to.equal(true);
    expect(slopeIsMaterial(0.0004, 100, 0.05)).to.equal(false);
    expect(slopeIsMaterial(0.1, 0, 0.05)).to.equal(false);
    expect(slopeIsMaterial(Number.POSITIVE_INFINITY, 100, 0.05)).to.equal(false);
  });

  it('the gate is 0 whenever the slope is not material, whatever its standard error (what lets the error be computed only then)', () => {
    const finite = fc.double({ noNaN: false, min: -1e6, max: 1e6 });
    fc.assert(
      fc.property(finite, fc.double({ min: 0, max: 1e3, noNaN: true }), fc.double({ min: -10, max: 1e4 }), finite, fc.double({ min: 0, max: 1, noNaN: true }), (slope, stdError, span, stable, material) => {
        const g = { tMin: 5, material };
        expect(slopeIsSignificant(slope, stdError, span, g)).to.equal(slopeIsMaterial(slope, span, material) && slopeIsSignificant(slope, stdError, span, g));
        if (!slopeIsMaterial(slope, span, material)) expect(gatedSlopeRatio(slope, stdError, span, stable, g)).to.equal(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('the decision layer asks a line for its standard error only when its slope is material', () => {
    let asked = 0;
    const lines = (burstSlope: number, stdError: number) => ({
      burstSlope,
      burstStdError: () => {
        asked += 1;
        return stdError;
      },
      burstSpan: 285,
      stableSlope: 1e-5,
      burstMean: 0.3,
      stableMean: 0.3,
    });
    const a = new AlertDecision();
    // a fresh workload's envelope: materiality 0.05; 1e-4·285 = 0.0285 is not material
    expect(a.metricRatio('cpu', lines(1e-4, 0))).to.equal(0);
    expect(asked).to.equal(0);
    // 1e-3·285 = 0.285 is material; t = 1e-3 / 1e-4 = 10 ≥ 5: the ratio 1e-3 / 1e-5 = 100, capped at 10
    expect(a.metricRatio('memory', lines(1e-3, 1e-4))).to.equal(10);
    expect(asked).to.equal(1);
    // material but within noise (t = 1e-3 / 5e-4 = 2): asked, and 0
    expect(a.metricRatio('latency', lines(1e-3, 5e-4))).to.equal(0);
    expect(asked).to.equal(2);
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
