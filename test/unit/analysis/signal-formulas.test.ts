import { expect } from 'chai';
import {
  contagionOf,
  ewmaZ,
  fdEntropyOf,
  healthEntropyOf,
  healthScoreOf,
  humidityOf,
  moodBase,
  moodOf,
  nextFatigue,
  pressureOf,
  resilienceOf,
  stepDtSeconds,
  stressOf,
  throughputDropOf,
  velocityOf,
} from '../../../api-server/src/analysis/signals/formulas.js';
import { DEFAULT_HEALTH_WEIGHTS } from '../../../api-server/src/analysis/weights/health-weights.js';

describe('analysis signal formulas (analytics.md §3.2-3.3, §3.5)', () => {
  it('stress = 0.30C + 0.20M + 0.20L* + 0.20E + 0.10T, clamped', () => {
    expect(stressOf(0.5, 0.4, 0.3, 0.1, 0.2)).to.be.closeTo(0.33, 1e-12);
    expect(stressOf(1, 1, 1, 1, 1)).to.be.closeTo(1, 1e-12);
    expect(stressOf(NaN, 0, 0, 0, 0)).to.equal(0);
  });

  it('fatigue: F + (max(S, G) − 0.30) − 0.05·dt/15, clamped', () => {
    expect(nextFatigue(0.1, 0.5, 0, 15, 0.3, 0.05)).to.be.closeTo(0.25, 1e-12);
    expect(nextFatigue(0.1, 0.2, 0.6, 15, 0.3, 0.05)).to.be.closeTo(0.35, 1e-12);
    expect(nextFatigue(0.1, 0.3, 0, 30, 0.3, 0.05)).to.be.closeTo(0, 1e-12);
    expect(nextFatigue(0.95, 1, 1, 15, 0.3, 0.05)).to.equal(1);
  });

  it('mood base e^{−3E}·e^{−3T}·(1 − min(r/3, 1)) and the log term', () => {
    expect(moodBase(0.2, 0, 0)).to.be.closeTo(Math.exp(-0.6), 1e-12); // 0.5488
    expect(moodBase(0.05, 0, 0)).to.be.closeTo(0.8607, 1e-4);
    expect(moodBase(0.2, 0, 1)).to.be.closeTo((Math.exp(-0.6) * 2) / 3, 1e-12);
    expect(moodBase(0, 0, 5)).to.equal(0);
    // 10 info lines: S_log = ln 11, term 0.2·tanh(ln(11)/2) = 0.16667
    const term = 0.2 * Math.tanh(Math.log(11) / 2);
    expect(moodOf(0.5, term, true)).to.be.closeTo(0.666667, 1e-6);
    expect(moodOf(0.5, term, false)).to.equal(0.5);
  });

  it('pressure: EWMA z from μ, σ² at 0; P = clamp((0.5 z_x + 0.5 z_E + 3)/6)', () => {
    const x = { mean: 0, variance: 0 };
    expect(ewmaZ(x, 0.3)).to.be.closeTo(Math.sqrt(10), 1e-9);
    expect(x.mean).to.be.closeTo(0.03, 1e-12);
    expect(x.variance).to.be.closeTo(0.00729, 1e-12);
    const e = { mean: 0, variance: 0 };
    expect(ewmaZ(e, 0)).to.equal(0); // σ < 1e-6 → 1
    expect(pressureOf(Math.sqrt(10), 0)).to.be.closeTo((0.5 * Math.sqrt(10) + 3) / 6, 1e-12);
    expect(pressureOf(0, 0)).to.equal(0.5);
    expect(pressureOf(10, 10)).to.equal(1);
  });

  it('humidity = clamp(E·T′/(Q_n + 1e-10))', () => {
    expect(humidityOf(0.2, 0.1, 0.5)).to.be.closeTo(0.04, 1e-9);
    expect(humidityOf(0.2, 0.2, 1)).to.be.closeTo(0.04, 1e-9);
    expect(humidityOf(0.5, 0.5, 0)).to.equal(1);
  });

  it('contagion: graph part if > 0, else max(E, log error share)·C', () => {
    expect(contagionOf(0.3, 0.9, 0.9, 0.9)).to.equal(0.3);
    expect(contagionOf(0, 0.2, 0.5, 0.6)).to.be.closeTo(0.3, 1e-12);
    expect(contagionOf(0, 0.2, 0, 0.5)).to.be.closeTo(0.1, 1e-12);
  });

  it('throughput drop and resilience', () => {
    expect(throughputDropOf(100, 40)).to.be.closeTo(0.6, 1e-12);
    expect(throughputDropOf(0.005, 0)).to.equal(0);
    expect(throughputDropOf(100, 120)).to.equal(0);
    expect(throughputDropOf(undefined, 1)).to.equal(0);
    expect(resilienceOf(0.8, 0.25, 0.1)).to.be.closeTo(0.54, 1e-12);
  });

  it('entropy from the health history (MAD/0.5) and the fd part; velocity', () => {
    expect(healthEntropyOf([1, 0], 2)).to.equal(1);
    expect(healthEntropyOf([0.8, 0.6, 0.8, 0.6], 4)).to.be.closeTo(0.2, 1e-12);
    expect(healthEntropyOf([0.8], 1)).to.equal(0);
    expect(fdEntropyOf([100, 120], 2)).to.be.closeTo(10 / 110, 1e-12);
    expect(velocityOf(0.8, 0.7, 15)).to.be.closeTo(0.1 / 1.5, 1e-12);
    expect(velocityOf(undefined, 0.7, 15)).to.equal(0);
    expect(stepDtSeconds(undefined, 15_000)).to.equal(1);
    expect(stepDtSeconds(0, 15_000)).to.equal(15);
    expect(stepDtSeconds(0, 60_000)).to.equal(30);
    expect(stepDtSeconds(15_000, 15_000)).to.equal(1);
  });

  it('health score: additive penalty with the default weights', () => {
    const p = { stress: 0.4, fatigue: 0.2, mood: 0.3, pressure: 0.5, humidity: 0.1, contagion: 0.2 };
    // 0.1 + 0.04 + 0.06 + 0.075 + 0.01 + 0.02 = 0.305
    expect(healthScoreOf(DEFAULT_HEALTH_WEIGHTS, p)).to.be.closeTo(0.695, 1e-12);
    const idle = { stress: 0, fatigue: 0, mood: 0, pressure: 0.5, humidity: 0, contagion: 0 };
    expect(healthScoreOf(DEFAULT_HEALTH_WEIGHTS, idle)).to.be.closeTo(0.925, 1e-12);
  });
});
