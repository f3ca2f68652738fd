import { expect } from 'chai';
import { actionTier } from '../../../api-server/src/analysis/explain/recommendation.js';

describe('action tier (analytics.md §9.3)', () => {
  it('gives Tier 1 only to scale/restart in emergency', () => {
    expect(actionTier('emergency', 'scale')).to.equal(1);
    expect(actionTier('emergency', 'restart')).to.equal(1);
    expect(actionTier('emergency', 'alert')).to.equal(2);
    expect(actionTier('emergency', 'cordon')).to.equal(2);
    expect(actionTier('critical', 'scale')).to.equal(2);
  });
});
