import { expect } from 'chai';
import { bestThreshold, rawFileScore, scaledSigmoid, scoreCorpus, sweepPoints } from '../../../tools/nab/scorer.js';

const standard = { tpWeight: 1, fnWeight: 1, fpWeight: 0.11 };

/** 100 rows (probation 15), one window over rows 50..59, detections (score 1) at the given rows */
function file(detections: number[]): { scores: Float64Array; windows: [number, number][] } {
  const scores = new Float64Array(100);
  for (const i of detections) scores[i] = 1;
  return { scores, windows: [[50, 59]] };
}

describe('NAB scorer (v1.1 method, hand-computed cases)', () => {
  it('scaled sigmoid: 2/(1+e^(5y))-1; 0.986614 at -1, 0 at 0, -1 from 3 on', () => {
    expect(scaledSigmoid(-1)).to.be.closeTo(0.986614, 1e-6);
    expect(scaledSigmoid(-0.5)).to.be.closeTo(0.848284, 1e-6);
    expect(scaledSigmoid(0)).to.equal(0);
    expect(scaledSigmoid(3)).to.equal(-1);
  });

  it('a detection at a window start is worth tpWeight; later ones less; only the best counts', () => {
    // row 50: y = -(59-50+1)/10 = -1 → 1.0; row 55: y = -0.5 → 0.848284/0.986614 = 0.859793
    expect(rawFileScore(file([50]), 0.5, standard)).to.be.closeTo(1, 1e-12);
    expect(rawFileScore(file([55]), 0.5, standard)).to.be.closeTo(0.859793, 1e-6);
    expect(rawFileScore(file([50, 55]), 0.5, standard)).to.be.closeTo(1, 1e-12);
  });

  it('false positives: -fpWeight before any window, weighted by the distance after one, probation ignored', () => {
    // row 10 is in probation (ignored); row 20 precedes the window: -0.11; the window is missed: -1
    expect(rawFileScore(file([10]), 0.5, standard)).to.equal(-1);
    expect(rawFileScore(file([20]), 0.5, standard)).to.be.closeTo(-1.11, 1e-12);
    // row 70 after the window: y = |70-59| / (10-1) = 1.2222 → 0.11 * (2/(1+e^6.1111) - 1) = -0.109513
    expect(rawFileScore(file([50, 70]), 0.5, standard)).to.be.closeTo(1 - 0.109513, 1e-6);
  });

  it('normalises between the null (0) and the perfect (100) detector', () => {
    expect(scoreCorpus([file([])], standard).normalised).to.equal(0);
    expect(scoreCorpus([file([50])], standard).normalised).to.be.closeTo(100, 1e-9);
    // detection at 55 and an FP at 70: raw 0.859793 - 0.109513 = 0.750280 → 100 (0.750280 + 1) / 2 = 87.514
    expect(scoreCorpus([file([55, 70])], standard).normalised).to.be.closeTo(87.514, 1e-3);
  });

  it('the threshold sweep picks the best distinct score for the whole corpus', () => {
    const scores = new Float64Array(100);
    scores[30] = 0.9; // an FP before the window, highest score
    scores[52] = 0.7; // inside the window
    scores[80] = 0.2; // an FP far after it
    const f = { scores, windows: [[50, 59]] as [number, number][] };
    const { points, windows } = sweepPoints(f, standard);
    const best = bestThreshold(points, windows, standard);
    // at 0.7: FP -0.11 plus TP at row 52 (y = -0.8 → 0.963 / 0.9866 = 0.976...) is better than 0.9 alone (-1.11)
    expect(best.threshold).to.equal(0.7);
    expect(best.raw).to.be.closeTo(-0.11 + (2 / (1 + Math.exp(-4)) - 1) / scaledSigmoid(-1), 1e-9);
  });
});
