import { expect } from 'chai';
import { CONTEXT_RETENTION_MS, HISTORY_TIERS, RAW_RETENTION_MS, EVENT_RETENTION_MS, historyRetentionMs, tierRetentionMs } from '../../../api-server/src/model/retention.js';

describe('model/retention: the one retention table (analytics.md §11)', () => {
  const spec = (tier: string) => HISTORY_TIERS.find((s) => s.tier === tier)!;

  it('keeps raw 7 days, 1 min 30, 5 min 365 and 1 h 400, each roll-up the mean of the tier before', () => {
    expect(HISTORY_TIERS.map((s) => `${s.tier} ${s.keepDays} ${s.bucketMs ?? '-'}`)).to.deep.equal(['raw 7 -', '1m 30 60000', '5m 365 300000', '1h 400 3600000']);
    // 7 days = 604 800 000 ms; context events 30 days = 2 592 000 000 ms
    expect([RAW_RETENTION_MS, EVENT_RETENTION_MS, CONTEXT_RETENTION_MS]).to.deep.equal([604_800_000, 604_800_000, 2_592_000_000]);
  });

  it('caps every tier by storage.retention.kpis_days', () => {
    // 30 days = 2 592 000 000 ms; capped at 10 days = 864 000 000 ms
    expect(tierRetentionMs(spec('1m'), 400)).to.equal(2_592_000_000);
    expect(tierRetentionMs(spec('1m'), 10)).to.equal(864_000_000);
    expect(tierRetentionMs(spec('raw'), 10)).to.equal(604_800_000);
  });

  it('keeps the history topic as long as the longest capped tier', () => {
    // 400 days = 34 560 000 000 ms; 90 days = 7 776 000 000 ms; 3 days = 259 200 000 ms
    expect(historyRetentionMs(400)).to.equal(34_560_000_000);
    expect(historyRetentionMs(90)).to.equal(7_776_000_000);
    expect(historyRetentionMs(3)).to.equal(259_200_000);
  });
});
