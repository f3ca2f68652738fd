import { expect } from 'chai';
import { RuptureEpisodeTracker } from '../../../api-server/src/analysis/episodes/rupture-episode.js';

describe('analysis rupture episodes (analytics.md §8.1)', () => {
  const id = (): string => 'r_00000000000a';

  it('opens at the first calibrated step ≥ 1.5, tracks the peak, closes below 1.5', () => {
    const t = new RuptureEpisodeTracker();
    expect(t.step({ fusedR: 3, calibrated: false, tStepMs: 0 }, id).ruptureId).to.equal(null);
    expect(t.step({ fusedR: 1.4999, calibrated: true, tStepMs: 15 }, id).ruptureId).to.equal(null);
    expect(t.step({ fusedR: 1.5, calibrated: true, tStepMs: 30 }, id)).to.include({ ruptureId: 'r_00000000000a', opened: true, openedAtMs: 30 });
    expect(t.step({ fusedR: 4.2, calibrated: true, tStepMs: 45 }, id)).to.include({ peakFusedR: 4.2, peakAtMs: 45 });
    expect(t.step({ fusedR: 2, calibrated: true, tStepMs: 60 }, id)).to.include({ peakFusedR: 4.2, opened: false, closed: false });
    const restored = RuptureEpisodeTracker.fromState(JSON.parse(JSON.stringify(t.exportState())));
    expect(restored.step({ fusedR: 1.2, calibrated: true, tStepMs: 75 }, id)).to.include({ closed: true, ruptureId: 'r_00000000000a' });
    expect(restored.currentRuptureId()).to.equal(null);
  });
});
