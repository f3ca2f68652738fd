import { expect } from 'chai';
import fc from 'fast-check';
import { ETA_CAP_SECONDS, earliestInputEta, etaSlope, failureEta, failureEtaSeconds, theilSenSlope, THEIL_SEN_MAX_POINTS, trendSlope } from '../../../api-server/src/analysis/explain/failure-eta.js';

describe('failure ETA: one model for ttf_seconds, critical_eta_minutes and the narrative', () => {
  it('time for the input to reach its edge on its trend', () => {
    // memory 0.7 at +0.3/h (8.333e-5 /s): 0.3/8.333e-5 = 3600 s
    expect(failureEtaSeconds('memory', 0.7, 0.3 / 3600)).to.equal(3600);
    // error rate 0.05 at 1e-4 /s to the 0.25 edge: 2000 s
    expect(failureEtaSeconds('error_rate', 0.05, 1e-4)).to.equal(2000);
    expect(failureEtaSeconds('cpu', 1, 0)).to.equal(0);
    expect(failureEtaSeconds('cpu', 0.5, 0)).to.equal(null);
    expect(failureEtaSeconds('cpu', 0.5, -1e-3)).to.equal(null);
    expect(failureEtaSeconds('latency', 0, 1e-9)).to.equal(ETA_CAP_SECONDS);
  });

  it('trend slope: mean of the rising 5-min slope and rise rate', () => {
    expect(trendSlope(2e-4, 1e-4)).to.be.closeTo(1.5e-4, 1e-15);
    expect(trendSlope(-2e-4, 1e-4)).to.equal(1e-4);
    expect(trendSlope(-1, 0)).to.equal(0);
    expect(trendSlope(Number.NaN, 3e-4)).to.equal(3e-4);
  });

  it('Theil-Sen slope: the median pairwise slope, unmoved by a few outliers', () => {
    // y = 2x + 1 on x = 0..9 with two wild points: 45 pairs, the median slope is still 2
    const xs = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    const ys = xs.map((x) => 2 * x + 1);
    ys[3] = 100;
    ys[7] = -50;
    expect(theilSenSlope(xs, ys)).to.equal(2);
    // hand-checked: (0,0) (1,1) (2,4): slopes 1, 2, 3 → 2; from index 1: one pair only → NaN (under 3 points)
    expect(theilSenSlope([0, 1, 2], [0, 1, 4])).to.equal(2);
    expect(Number.isNaN(theilSenSlope([0, 1, 2], [0, 1, 4], 1))).to.equal(true);
    // four points (0,0) (1,1) (2,4) (3,9): slopes 1, 2, 3, 3, 4, 5 → (3 + 3) / 2 = 3
    expect(theilSenSlope([0, 1, 2, 3], [0, 1, 4, 9])).to.equal(3);
    // repeated x make no slope
    expect(Number.isNaN(theilSenSlope([5, 5, 5], [1, 2, 3]))).to.equal(true);
  });

  it('Theil-Sen over many points fits an evenly spaced subset that keeps the last point', () => {
    // 1000 points of y = 0.5x: the subset of 61 still gives 0.5 exactly; a jump of the last point only moves it a little
    const xs = Array.from({ length: 1000 }, (_, i) => i);
    const ys = xs.map((x) => 0.5 * x);
    expect(THEIL_SEN_MAX_POINTS).to.equal(61);
    expect(theilSenSlope(xs, ys)).to.equal(0.5);
    expect(theilSenSlope(xs, ys, 990)).to.equal(0.5);
  });

  it('the ETA slope: Theil-Sen when it rises, else the 5-min slope and rise rate', () => {
    expect(etaSlope({ robustSlopePerSecond: 2e-4, burstSlopePerSecond: 9e-4, slopePerSecond: 1e-4 })).to.equal(2e-4);
    expect(etaSlope({ robustSlopePerSecond: -1e-4, burstSlopePerSecond: 2e-4, slopePerSecond: 1e-4 })).to.be.closeTo(1.5e-4, 1e-15);
    expect(etaSlope({ robustSlopePerSecond: Number.NaN, burstSlopePerSecond: -1, slopePerSecond: 0 })).to.equal(0);
  });

  it('ttf_seconds and critical_eta_minutes agree: input trend first, then the health line, else none', () => {
    expect(failureEta(338, 74)).to.deep.equal({ ttfSeconds: 338, criticalEtaMinutes: 5, basis: 'input-trend' });
    expect(failureEta(null, 74)).to.deep.equal({ ttfSeconds: 4440, criticalEtaMinutes: 74, basis: 'health-trend' });
    expect(failureEta(null, 0)).to.deep.equal({ ttfSeconds: ETA_CAP_SECONDS, criticalEtaMinutes: 0, basis: 'none' });
    expect(failureEta(0, 33)).to.deep.equal({ ttfSeconds: 0, criticalEtaMinutes: 0, basis: 'input-trend' });
  });

  it('the minutes are always the seconds floored (property)', () => {
    fc.assert(
      fc.property(fc.option(fc.double()), fc.double(), (s, m) => {
        const eta = failureEta(s, m);
        expect(Number.isInteger(eta.ttfSeconds)).to.equal(true);
        expect(eta.ttfSeconds).to.be.within(0, ETA_CAP_SECONDS);
        if (eta.basis !== 'none') expect(eta.criticalEtaMinutes).to.equal(Math.floor(eta.ttfSeconds / 60));
        else expect(eta.criticalEtaMinutes).to.equal(0);
      }),
    );
  });
});

describe('failure ETA outside a rupture: the soonest input on its 60-min slope', () => {
  it('takes the soonest input under the cap, nothing for flat or slow inputs', () => {
    // memory 0.5 at 1e-4 /s: 5000 s; cpu 0.5 at 2e-4 /s: 2500 s; latency flat
    expect(earliestInputEta([{ input: 'memory', last: 0.5, stableSlope: 1e-4 }, { input: 'cpu', last: 0.5, stableSlope: 2e-4 }, { input: 'latency', last: 0.2, stableSlope: 0 }])).to.equal(2500);
    // the trend slope refines an input the 60-min slope let in: cpu at 5e-4 /s: 1000 s
    expect(earliestInputEta([{ input: 'cpu', last: 0.5, stableSlope: 2e-4 }], () => 5e-4)).to.equal(1000);
    // 0.5 left at 2e-6 /s: 250000 s, beyond the 6-h cap
    expect(earliestInputEta([{ input: 'memory', last: 0.5, stableSlope: 2e-6 }])).to.equal(null);
  });
});
