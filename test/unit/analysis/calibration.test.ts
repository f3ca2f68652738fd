import { expect } from 'chai';
import { calibrationEtaMinutes, calibrationProgress, statusOf } from '../../../api-server/src/analysis/calibration/progress.js';
import { WelfordSet } from '../../../api-server/src/analysis/calibration/welford.js';
import { calibrationStepsOf, resolveConfig } from '../../../api-server/src/analysis/config.js';

describe('analysis calibration (analytics.md §6)', () => {
  it('progress = min(99, floor(100·n/N)) while calibrating, 100 after', () => {
    expect(calibrationProgress(0, 96)).to.equal(0);
    expect(calibrationProgress(48, 96)).to.equal(50);
    expect(calibrationProgress(95, 96)).to.equal(98);
    expect(calibrationProgress(99, 100)).to.equal(99);
    expect(calibrationProgress(96, 96)).to.equal(100);
  });

  it('eta = floor((N − n)·15/60) while calibrating, 0 after', () => {
    expect(calibrationEtaMinutes(0, 96)).to.equal(24);
    expect(calibrationEtaMinutes(92, 96)).to.equal(1);
    expect(calibrationEtaMinutes(95, 96)).to.equal(0);
    expect(calibrationEtaMinutes(96, 96)).to.equal(0);
    expect(calibrationEtaMinutes(0, 100)).to.equal(25);
  });

  it('status: pending_telemetry, calibrating, active', () => {
    expect(statusOf(0, 96)).to.equal('pending_telemetry');
    expect(statusOf(1, 96)).to.equal('calibrating');
    expect(statusOf(96, 96)).to.equal('active');
  });

  it('both stated durations are configurable: steps (96 default, 100) or minutes (25 min = 100 steps)', () => {
    expect(calibrationStepsOf(resolveConfig())).to.equal(96);
    expect(calibrationStepsOf(resolveConfig({ calibrationSteps: 100 }))).to.equal(100);
    expect(calibrationStepsOf(resolveConfig({ calibrationMinutes: 25 }))).to.equal(100);
    expect(calibrationStepsOf(resolveConfig({ calibrationMinutes: 24 }))).to.equal(96);
  });

  it('Welford mean/σ and the adaptive score a = clamp(z/3)', () => {
    const w = new WelfordSet(2);
    for (const x of [1, 2, 3, 4]) w.update(0, x);
    w.update(0, NaN);
    expect(w.count(0)).to.equal(4);
    expect(w.mean(0)).to.equal(2.5);
    expect(w.std(0)).to.be.closeTo(Math.sqrt(5 / 3), 1e-12);
    expect(w.adaptiveScore(0, 5)).to.be.closeTo(2.5 / Math.sqrt(5 / 3) / 3, 1e-12);
    expect(w.adaptiveScore(0, 1)).to.equal(0);
    expect(w.adaptiveScore(0, 100)).to.equal(1);
    for (let i = 0; i < 10; i++) w.update(1, 0.2);
    // σ = 0 → 0.05: x = 0.3 gives z = 2, a = 2/3
    expect(w.adaptiveScore(1, 0.3)).to.be.closeTo(2 / 3, 1e-9);
  });
});
