import { expect } from 'chai';
import fc from 'fast-check';
import { DownstreamHistory, HISTORY_MS, QUIET_MS, RECENT_MS } from '../../../api-server/src/analysis/explain/downstream-history.js';

const MIN = 60_000;

describe('downstream history: an edge\'s recent error share against its own baseline', () => {
  it('splits the cumulated counts at 5 min before the latest sample', () => {
    const h = new DownstreamHistory();
    // 20 calls a minute for 30 min, 1 error in every 100 calls… then the last 5 min fail 50 %
    let calls = 0;
    let errors = 0;
    for (let m = 0; m <= 30; m++) {
      if (m > 0) {
        calls += 20;
        errors += m > 25 ? 10 : m % 5 === 0 ? 1 : 0;
      }
      h.observe([{ to: 'store', calls, errors }], m * MIN);
    }
    const [e] = h.read(30 * MIN);
    // recent: minutes 26..30 = 100 calls, 50 errors; baseline: minutes 1..25 = 500 calls, 5 errors
    expect(e).to.deep.equal({ service: 'store', errorRate: 0.5, calls: 100, baselineErrorRate: 0.01, baselineCalls: 500 });
    expect(RECENT_MS).to.equal(5 * MIN);
  });

  it('an edge younger than 5 min is all recent, with no baseline; a count that went down counts on', () => {
    const h = new DownstreamHistory();
    h.observe([{ to: 'a', calls: 10, errors: 0 }], 0);
    h.observe([{ to: 'a', calls: 40, errors: 6 }], 2 * MIN);
    expect(h.read(2 * MIN)).to.deep.equal([{ service: 'a', errorRate: 0.2, calls: 30, baselineErrorRate: null, baselineCalls: 0 }]);
    // the graph re-created the edge: its 5 calls (5 errors) are new ones, then 20 more without error
    h.observe([{ to: 'a', calls: 5, errors: 5 }], 3 * MIN);
    h.observe([{ to: 'a', calls: 25, errors: 5 }], 4 * MIN);
    // 30 + 5 + 20 = 55 calls since the first sample, 6 + 5 = 11 errors
    expect(h.read(4 * MIN)[0]).to.include({ calls: 55, errorRate: 0.2 });
  });

  it('an edge that went quiet keeps the share of its last 5 min of calls, for up to 10 min', () => {
    const h = new DownstreamHistory();
    // 10 calls a minute for 30 min, none failing, then 5 min of 8 in 10 failing, then no call at all
    let calls = 0;
    let errors = 0;
    for (let m = 0; m <= 45; m++) {
      if (m > 0 && m <= 35) {
        calls += 10;
        errors += m > 30 ? 8 : 0;
      }
      h.observe([{ to: 'store', calls, errors }], m * MIN);
    }
    // at 45 min: the last call was at 35 min; recent = minutes 31..35 (50 calls, 40 errors), baseline = minutes 1..30
    expect(h.read(45 * MIN)).to.deep.equal([{ service: 'store', errorRate: 0.8, calls: 50, baselineErrorRate: 0, baselineCalls: 300 }]);
    h.observe([{ to: 'store', calls, errors }], 35 * MIN + QUIET_MS + 1);
    expect(h.read(35 * MIN + QUIET_MS + 1)).to.deep.equal([]);
  });

  it('keeps nothing older than an hour; an edge unseen for 5 min is not read', () => {
    const h = new DownstreamHistory();
    for (let t = 0; t <= 2 * HISTORY_MS; t += 5_000) h.observe([{ to: 'x', calls: t / 1000, errors: 0 }], t);
    const [e] = h.read(2 * HISTORY_MS);
    // baseline from the oldest kept sample (≤ 60 min before the latest) to 5 min before it: ≤ 55 min of 1 call/s
    expect(e!.calls).to.equal(300);
    expect(e!.baselineCalls).to.be.within(3285, 3300);
    expect(h.read(2 * HISTORY_MS + RECENT_MS + 1)).to.deep.equal([]);
  });

  it('keeps at most 76 samples an edge at one step per 15 s (240 before), reading the same shares', () => {
    const h = new DownstreamHistory();
    let most = 0;
    // 2 h of 1 call/s; from 100 min on, 1 call in 10 fails
    for (let t = 0; t <= 2 * HISTORY_MS; t += 15_000) {
      const errors = t > 100 * MIN ? (t - 100 * MIN) / 10_000 : 0;
      h.observe([{ to: 'x', calls: t / 1000, errors }], t);
      most = Math.max(most, h.samplesKept('x'));
    }
    // 21 samples 15 s apart over the last 5 min (the split included), 55 a minute apart before it (the oldest ≤ 60 min old)
    expect(most).to.equal(76);
    expect(h.samplesKept('x')).to.equal(76);
    // recent: 300 calls, 30 errors; baseline: minutes 60..115 = 3 300 calls, of which minutes 100..115 = 90 errors
    expect(h.read(2 * HISTORY_MS)).to.deep.equal([{ service: 'x', errorRate: 0.1, calls: 300, baselineErrorRate: 90 / 3300, baselineCalls: 3300 }]);
    // quiet for 10 min: the run of unchanged counts keeps its first and newest samples only, and nothing is read after it
    for (let t = 2 * HISTORY_MS + 15_000; t <= 2 * HISTORY_MS + QUIET_MS; t += 15_000) h.observe([{ to: 'x', calls: 7200, errors: 120 }], t);
    expect(h.samplesKept('x')).to.be.at.most(76);
    expect(h.read(2 * HISTORY_MS + QUIET_MS)[0]).to.include({ errorRate: 0.1, calls: 300 });
    expect(h.read(2 * HISTORY_MS + QUIET_MS + 1)).to.deep.equal([]);
  });

  it('an edge quiet for over an hour stays quiet (its last call is not dropped with the hour)', () => {
    const h = new DownstreamHistory();
    h.observe([{ to: 'q', calls: 0, errors: 0 }], 0);
    h.observe([{ to: 'q', calls: 50, errors: 5 }], MIN);
    for (let t = 2 * MIN; t <= 2 * HISTORY_MS; t += 15_000) h.observe([{ to: 'q', calls: 50, errors: 5 }], t);
    expect(h.samplesKept('q')).to.equal(2);
    expect(h.read(2 * HISTORY_MS)).to.deep.equal([]);
    // calls again: 10 new, none failing; the hour's start counts as before them (50 calls, 5 errors)
    h.observe([{ to: 'q', calls: 60, errors: 5 }], 2 * HISTORY_MS + 15_000);
    expect(h.read(2 * HISTORY_MS + 15_000)).to.deep.equal([{ service: 'q', errorRate: 0, calls: 10, baselineErrorRate: null, baselineCalls: 0 }]);
  });

  it('reads finite shares in [0, 1] for any cumulated counts (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(1000), fc.nat(1000), fc.nat(60)), { maxLength: 60, size: 'max' }), (steps) => {
        const h = new DownstreamHistory();
        let calls = 0;
        let errors = 0;
        let t = 0;
        for (const [c, e, dt] of steps) {
          calls += c;
          errors += Math.min(e, c);
          t += dt * 1000;
          h.observe([{ to: 's', calls, errors }], t);
        }
        for (const e of h.read(t)) {
          expect(e.errorRate).to.be.within(0, 1);
          expect(e.calls).to.be.at.least(0);
          if (e.baselineErrorRate !== null) expect(e.baselineErrorRate).to.be.within(0, 1);
        }
      }),
    );
  });
});
