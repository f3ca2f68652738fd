import { expect } from 'chai';
import fc from 'fast-check';
import { LogSeries } from '../../../api-server/src/analysis/logs/log-series.js';

describe('log series log_error_rate and log_burst_index (analytics.md §4.1)', () => {
  it('computes both by hand', () => {
    const s = new LogSeries();
    // b0 = 10 → index 1; b ← 10
    expect(s.step({ info: 7, warn: 0, error: 3 })).to.deep.equal({ logErrorRate: 0.2, logBurstIndex: 1 });
    // index 30/10 = 3; b ← 0.9·10 + 0.1·30 = 12
    expect(s.step({ info: 0, warn: 0, error: 30 })).to.deep.equal({ logErrorRate: 2, logBurstIndex: 3 });
    const t = LogSeries.fromState(JSON.parse(JSON.stringify(s.exportState())));
    expect(t.step({ info: 6, warn: 0, error: 0 }).logBurstIndex).to.be.closeTo(0.5, 1e-12);
    // quiet workload: floor of 1 line
    expect(new LogSeries().step({ info: 0, warn: 0, error: 0 }).logBurstIndex).to.equal(0);
  });

  it('stays finite for any counts', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.double(), fc.double(), fc.double()), { maxLength: 30, size: 'max' }), (rows) => {
        const s = new LogSeries();
        for (const [info, warn, error] of rows) {
          const p = s.step({ info, warn, error });
          expect(Number.isFinite(p.logErrorRate) && Number.isFinite(p.logBurstIndex)).to.equal(true);
        }
      }),
    );
  });
});
