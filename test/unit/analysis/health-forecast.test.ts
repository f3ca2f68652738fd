import { expect } from 'chai';
import { forecastHealth, forecastHealthOf } from '../../../api-server/src/analysis/health-forecast/health-forecast.js';

describe('analysis health forecast (analytics.md §7.1)', () => {
  const falling = Array.from({ length: 20 }, (_, i) => 0.9 - 0.01 * i);

  it('OLS projection 60 and 120 steps past the last value; critical ETA to 0.40', () => {
    const f = forecastHealth(falling, true);
    expect(f.in15min).to.be.closeTo(0.9 - 0.01 * 79, 1e-9); // 0.11
    expect(f.in30min).to.equal(0);
    expect(f.trend).to.equal('degrading');
    // k = (0.40 − 0.9 + 0.01·19)/(−0.01) = 31 steps → floor(31·15/60) = 7 min
    expect(f.criticalEtaMinutes).to.equal(7);
    // a slow decline reaching 0.4 beyond an hour gives no ETA (0): 0.9 → 0.4 at −0.0002 per step is 2500 steps
    expect(forecastHealth(Array.from({ length: 60 }, (_, i) => 0.9 - 0.0002 * i), true).criticalEtaMinutes).to.equal(0);
    expect(f.confidenceWindow).to.equal(20);
  });

  it('improving and stable trends; no ETA when not degrading', () => {
    const up = forecastHealth(Array.from({ length: 12 }, (_, i) => 0.5 + 0.002 * i), true);
    expect(up.trend).to.equal('improving');
    expect(up.criticalEtaMinutes).to.equal(0);
    const flat = forecastHealth(Array.from({ length: 12 }, () => 0.7), true);
    expect(flat.trend).to.equal('stable');
    expect(flat.in15min).to.be.closeTo(0.7, 1e-12);
    expect(flat.in30min).to.be.closeTo(0.7, 1e-12);
    expect(flat.criticalEtaMinutes).to.equal(0);
  });

  it('fallback while calibrating or with fewer than 10 values', () => {
    expect(forecastHealth(falling, false)).to.deep.equal({ in15min: 0.71, in30min: 0.71, criticalEtaMinutes: 0, trend: 'stable', confidenceWindow: 20 });
    expect(forecastHealth([0.5, 0.4], true).in15min).to.equal(0.4);
    expect(forecastHealth([], true)).to.deep.equal({ in15min: 0, in30min: 0, criticalEtaMinutes: 0, trend: 'stable', confidenceWindow: 0 });
  });

  it('a ring read from its oldest value gives the forecast of the same history as an array, bit for bit', () => {
    const history = Array.from({ length: 60 }, (_, i) => 0.7 + 0.2 * Math.sin(i * 0.37) - 0.003 * i);
    history[17] = Number.NaN;
    for (const start of [0, 1, 13, 59]) {
      const ring = history.map((_, k) => history[(k - start + 60) % 60]!);
      for (const calibrated of [true, false]) {
        expect(forecastHealthOf(ring, start, 60, calibrated)).to.deep.equal(forecastHealth(history, calibrated));
      }
    }
    expect(forecastHealthOf(history.slice(0, 25), 0, 25, true)).to.deep.equal(forecastHealth(history.slice(0, 25), true));
  });
});
