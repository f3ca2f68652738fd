import { expect } from 'chai';
import { diagnose, trendLine, type DiagnosisInput, type InputTrend } from '../../../api-server/src/analysis/explain/diagnosis.js';
import { BLOCK_MS, LevelHistory, LONG_MS } from '../../../api-server/src/analysis/explain/level-history.js';
import { edgesOf } from '../../../api-server/src/analysis/objectives/objective-edges.js';
import { diagnosisInput, flat, trend } from '../../support/diagnosis-fixtures.js';

const STEP = 15_000;

/**
 * 18 blocks of 15 min (a sample every 15 s): blocks 0-5 flat at 1 %, then a creep of 1.25 points
 * a block (5 %/h): block k at 0.01 + 0.0125·(k − 5), block 17 at 16 %
 */
function creepHistory(): { h: LevelHistory; nowMs: number } {
  const h = new LevelHistory();
  let t = 0;
  for (let k = 0; k < 18; k++) for (let i = 0; i < BLOCK_MS / STEP; i++, t += STEP) h.observe(0.01 + 0.0125 * Math.max(0, k - 5), t);
  return { h, nowMs: t - STEP };
}

function input(errorRate: InputTrend, slow: InputTrend | null, overrides: Partial<DiagnosisInput> = {}): DiagnosisInput {
  return diagnosisInput({ trends: [flat('memory', 0.4), flat('cpu', 0.3), flat('latency', 0.1), errorRate], slowErrorRate: slow, ...overrides });
}

describe('a slow error creep: judged against the error rate of hours before', () => {
  it('the level history: from the lowest 15-min level; the Theil-Sen line of the climb from its knee, to now', () => {
    const { h, nowMs } = creepHistory();
    const t = h.trend('error_rate', nowMs)!;
    // each block stands at its samples' mean time, k·900 + 442.5 s. Lowest: block 0 (1 %); the knee is
    // the last block within 20 % of the 15-point rise (≤ 4 %): block 7 (3.5 %), so the six flat blocks do
    // not flatten the line: slope 0.0125 / 900 s = 1.3889e-5 /s (5 %/h). Now = 18·900 − 15 = 16 185 s: the
    // line there is 0.01 + 0.0125·(16 185 − 442.5 − 4500)/900 = 0.166146
    expect(t.from).to.be.closeTo(0.01, 1e-12);
    expect(t.robustSlopePerSecond).to.be.closeTo(0.0125 / 900, 1e-15);
    expect(t.to).to.be.closeTo(0.01 + (0.0125 * 11_242.5) / 900, 1e-12);
    // from block 0's mean time: 16 185 − 442.5 = 15 742.5 s (262 min), (0.166146 − 0.01) / 15 742.5 = 3.6 %/h
    expect(t.spanSeconds).to.equal(15_742.5);
    expect(trendLine(t)).to.equal('error rate 1 % → 17 % in 262 min, +4 %/h');
    // a block with under 5 min of steps is not a level (the line goes on: 15 s later, +0.0125·15/900); times going back are ignored
    h.observe(0.9, nowMs + STEP);
    h.observe(0.9, 0);
    expect(h.trend('error_rate', nowMs + STEP)!.to).to.be.closeTo(0.01 + (0.0125 * 11_257.5) / 900, 1e-12);
  });

  it('keeps 6 h: a low level older than that is forgotten', () => {
    const h = new LevelHistory();
    let t = 0;
    // 1 h at 0 %, then 7 h at 5 %, then an hour at 10 %
    for (; t < 3600_000; t += STEP) h.observe(0, t);
    for (; t < 8 * 3600_000; t += STEP) h.observe(0.05, t);
    for (; t < 9 * 3600_000; t += STEP) h.observe(0.1, t);
    const tr = h.trend('error_rate', t - STEP)!;
    expect(tr.from).to.be.closeTo(0.05, 1e-12);
    expect(t - STEP - LONG_MS).to.be.greaterThan(3600_000);
  });

  it('names the creep the hour alone misses; its ETA on the 15-min levels, to the fixed edge or the objective', () => {
    const { h, nowMs } = creepHistory();
    const slow = h.trend('error_rate', nowMs);
    // the hour: 12 % → 16 %, a rise of 0.04 = 0.8 of a swing (0.05): not enough on its own
    const hour = trend('error_rate', 0.12, 0.16, 3600);
    expect(diagnose(input(hour, null)).kind).to.equal('undetermined');
    const d = diagnose(input(hour, slow));
    expect(d).to.include({ kind: 'error-creep', factor: 'error_rate', summary: 'error rate 1 % → 17 % in 262 min, +4 %/h' });
    // the level 0.166146 rising 1.3889e-5 /s: (0.25 − 0.166146) / 1.3889e-5 = 6037.5 s to the fixed edge,
    // (0.2 − 0.166146) / 1.3889e-5 = 2437.5 s to a 20 % objective
    expect(d.etaSeconds).to.be.within(6037, 6038);
    expect(diagnose(input(hour, slow, { edges: edgesOf({ selector: '*', error_rate: 0.2 }) })).etaSeconds).to.be.within(2437, 2438);
  });

  it('does not name a burst that passed, a rise under a swing, or override a cause the hour names', () => {
    const { h, nowMs } = creepHistory();
    const slow = h.trend('error_rate', nowMs)!;
    // two minutes back at 2 % (8 steps of a new block), under 1 % + half the 15.6-point rise: the rise passed
    const passed = creepHistory().h;
    for (let i = 1; i <= 8; i++) passed.observe(0.02, nowMs + i * STEP);
    expect(passed.trend('error_rate', nowMs + 8 * STEP)).to.equal(null);
    // one minute (4 steps) at 9 % is still above 1 % + half the rise: the creep stands
    const standing = creepHistory().h;
    for (let i = 1; i <= 4; i++) standing.observe(0.09, nowMs + i * STEP);
    expect(standing.trend('error_rate', nowMs + 4 * STEP)).to.not.equal(null);
    expect(diagnose(input(trend('error_rate', 0.02, 0.02, 60), passed.trend('error_rate', nowMs + 8 * STEP))).kind).to.equal('undetermined');
    // a slow rise of 4 points (1 % → 5 %) is under a swing
    expect(diagnose(input(trend('error_rate', 0.04, 0.05, 3600), { ...slow, to: 0.05 })).kind).to.equal('undetermined');
    // memory rising a whole swing in the hour is the cause (a leak's errors follow it)
    const leak = input(trend('error_rate', 0.12, 0.16, 3600), slow);
    leak.trends = [trend('memory', 0.5, 0.8, 3600), flat('cpu', 0.3), flat('latency', 0.1), trend('error_rate', 0.12, 0.16, 3600)];
    expect(diagnose(leak).kind).to.equal('memory-leak');
  });
});
