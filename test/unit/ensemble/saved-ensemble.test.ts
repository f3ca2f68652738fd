import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { MODEL_NAMES, SeriesEnsemble, type EnsembleState, type ForecastOutput, type ModelName } from '../../../api-server/src/analysis/ensemble/series-ensemble.js';
import { ERROR_BLOCK, ERROR_BLOCKS, SIGMA_BLOCKS } from '../../../api-server/src/analysis/ensemble/error-slots.js';

interface SavedFixture {
  saved: EnsembleState;
  restoredBy7445a8b: { weights: Record<ModelName, number>; confidence: number; forecast30: ForecastOutput };
}

/**
 * A series' state saved before the residuals were kept as block sums (the residual ring of commit
 * 7445a8b): the saved form is the last 300 points, which a restore replays, so the blocks are built
 * from the residuals the replay computes. Checked against a direct computation over those
 * residuals (the replay's forecasts read before each point), and beside what 7445a8b restored.
 */
const fixture = JSON.parse(readFileSync(new URL('../../fixtures/ensemble/saved-7445a8b.json', import.meta.url), 'utf8')) as SavedFixture;

const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.abs(b);

describe('a series state saved by the residual ring (7445a8b) restores into residual blocks', () => {
  const restored = SeriesEnsemble.fromJSON(fixture.saved);
  // the replay's residuals, model by model (NaN: no forecast), from the same points
  const replay = new SeriesEnsemble();
  const residuals: number[][] = MODEL_NAMES.map(() => []);
  fixture.saved.points.forEach(([x, y], i) => {
    const forecasts = replay.modelPredictions(1);
    replay.observe(y, x);
    // the first point is compared with nothing (observe pushes residuals from the second on); the
    // residual is the value's as the series keeps it (a float, value-precision.ts)
    if (i > 0) MODEL_NAMES.forEach((name, m) => residuals[m]!.push(replay.storedValue(y) - (forecasts[name] ?? Number.NaN)));
  });
  const pushed = fixture.saved.points.length - 1;
  const newest = Math.floor((pushed - 1) / ERROR_BLOCK);
  const from = (blocks: number): number => Math.max(0, (newest - blocks + 1) * ERROR_BLOCK);
  const window = (m: number, blocks: number): number[] => residuals[m]!.slice(from(blocks)).filter((e) => !Number.isNaN(e));

  it('the saved form reads as before, and writes its points as the series keeps them: the values rounded to floats', () => {
    expect(fixture.saved.points).to.have.length(300);
    expect(restored.toJSON()).to.deep.equal({ points: fixture.saved.points.map(([x, y]) => [x, Math.fround(y)]) });
    // saved again, the state restores to itself
    expect(SeriesEnsemble.fromJSON(restored.toJSON()).toJSON()).to.deep.equal(restored.toJSON());
  });

  it('the weights: the inverse MAE over the last 6 blocks (points 80-298 of the 299 residuals), normalised, floored at 0.05', () => {
    expect(from(ERROR_BLOCKS)).to.equal(80);
    const inv = MODEL_NAMES.map((_, m) => {
      const k = window(m, ERROR_BLOCKS);
      return k.length < 5 ? Number.NaN : 1 / Math.max(k.reduce((a, e) => a + Math.abs(e), 0) / k.length, 1e-9);
    });
    const total = inv.reduce((a, v) => (Number.isNaN(v) ? a : a + v), 0);
    const floored = inv.map((v) => (Number.isNaN(v) ? 0 : Math.max(v / total, 0.05)));
    const sum = floored.reduce((a, w) => a + w, 0);
    const weights = restored.weights();
    MODEL_NAMES.forEach((name, m) => expect(close(weights[name], floored[m]! / sum), `${name} ${weights[name]} ${floored[m]! / sum}`).to.equal(true));
  });

  it('the confidence: 1 / (1 + mean MSE over the last 6 blocks)', () => {
    const mse = MODEL_NAMES.map((_, m) => {
      const k = window(m, ERROR_BLOCKS);
      return k.length === 0 ? 1 : k.reduce((a, e) => a + e * e, 0) / k.length;
    });
    const expected = 1 / (1 + mse.reduce((a, v) => a + v, 0) / MODEL_NAMES.length);
    expect(close(restored.confidence(), expected)).to.equal(true);
  });

  it('the forecast bands: each model sigma over the last 5 blocks (points 120-298), pooled by weight', () => {
    expect(from(SIGMA_BLOCKS)).to.equal(120);
    const sigmas = MODEL_NAMES.map((_, m) => {
      const k = window(m, SIGMA_BLOCKS);
      if (k.length < 2) return 0;
      const mean = k.reduce((a, e) => a + e, 0) / k.length;
      return Math.sqrt(k.reduce((a, e) => a + (e - mean) ** 2, 0) / k.length);
    });
    const weights = restored.weights();
    for (const p of restored.forecast(30).points) {
      const steps = p.offsetMinutes * 4;
      const pooled = Math.sqrt(MODEL_NAMES.reduce((a, name, m) => a + weights[name] * sigmas[m]! ** 2 * (steps / 4 + 1), 0));
      expect(close(p.upper80 - p.mean, 1.2816 * pooled), `offset ${p.offsetMinutes}`).to.equal(true);
    }
  });

  it('beside what 7445a8b restored from it (the last 240 and 200 residuals, in floats): within a few percent', () => {
    // The windows here are 219 and 179 residuals against 240 and 200 (299 pushed: the newest block
    // holds 19). Measured: weights within 3.4e-3, confidence 0.05928 against 0.06215 (4.6 % lower),
    // the bands 1.017 times as wide, the means within 5.3e-4 (20-point blocks, windows of 239 and
    // 199: weights within 4.5e-4, confidence 0.06203, bands 1.00057).
    const before = fixture.restoredBy7445a8b;
    const weights = restored.weights();
    for (const name of MODEL_NAMES) expect(weights[name]).to.be.closeTo(before.weights[name], 5e-3);
    expect(restored.confidence()).to.be.closeTo(before.confidence, 0.06 * before.confidence);
    restored.forecast(30).points.forEach((p, i) => {
      const b = before.forecast30.points[i]!;
      expect(p.offsetMinutes).to.equal(b.offsetMinutes);
      expect(p.mean).to.be.closeTo(b.mean, 1e-3 * Math.abs(b.mean));
      expect((p.upper95 - p.lower95) / (b.upper95 - b.lower95)).to.be.closeTo(1, 0.025);
    });
  });
});
