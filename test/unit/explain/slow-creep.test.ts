import { expect } from 'chai';
import { diagnose, trendLine, type DiagnosisInput, type InputTrend } from '../../../api-server/src/analysis/explain/diagnosis.js';
import { BLOCK_MS, LevelHistory, LONG_MS } from '../../../api-server/src/analysis/explain/level-history.js';
import { edgesOf } from '../../../api-server/src/analysis/objectives/objective-edges.js';

const STEP = 15_000;
const flat = (input: string, v: number): InputTrend => ({ input, from: v, to: v, spanSeconds: 3600, slopePerSecond: 0, burstSlopePerSecond: 0, robustSlopePerSecond: 0 });
function trend(input: string, from: number, to: number, spanSeconds: number): InputTrend {
  const slope = (to - from) / spanSeconds;
  return { input, from, to, spanSeconds, slopePerSecond: slope, burstSlopePerSecond: slope, robustSlopePerSecond: Number.NaN };
}

/** blocks 0..15 of 15 min, block k at the constant error rate 0.01 + 0.01·k (a creep of 4 %/h) */
function creepHistory(): { h: LevelHistory; nowMs: number } {
  const h = new LevelHistory();
  let t = 0;
  for (let k = 0; k < 16; k++) for (let i = 0; i < BLOCK_MS / STEP; i++, t += STEP) h.observe(0.01 + 0.01 * k, t);
  return { h, nowMs: t - STEP };
}

function input(errorRate: InputTrend, slow: InputTrend | null, overrides: Partial<DiagnosisInput> = {}): DiagnosisInput {
  return {
    trends: [flat('memory', 0.4), flat('cpu', 0.3), flat('latency', 0.1), errorRate],
    requestRate: flat('request_rate', 100),
    restarts: null,
    uptimeResets: 0,
    downstream: [],
    deploy: null,
    primaryMetric: null,
    slowErrorRate: slow,
    ...overrides,
  };
}

describe('a slow error creep: judged against the error rate of hours before', () => {
  it('the level history: from the lowest 15-min level, the Theil-Sen line of the block means to now', () => {
    const { h, nowMs } = creepHistory();
    const t = h.trend('error_rate', nowMs)!;
    // lowest block 0 (1 %, middle at 450 s); the blocks rise 1 point per 900 s: slope 1.111e-5 /s (4 %/h);
    // now = 16·900 − 15 = 14 385 s: the line there is 0.01 + 0.01·(14 385 − 450)/900 = 0.164833
    expect(t.from).to.be.closeTo(0.01, 1e-12);
    expect(t.robustSlopePerSecond).to.be.closeTo(0.01 / 900, 1e-15);
    expect(t.to).to.be.closeTo(0.01 + (0.01 * 13_935) / 900, 1e-12);
    expect(t.spanSeconds).to.equal(13_935);
    expect(t.slopePerSecond).to.be.closeTo(0.01 / 900, 1e-15);
    // 13 935 s = 232 min
    expect(trendLine(t)).to.equal('error rate 1 % → 16 % in 232 min, +4 %/h');
    // a block with under 5 min of steps is not a level (the line goes on: 15 s later, +0.01·15/900); times going back are ignored
    h.observe(0.9, nowMs + STEP);
    h.observe(0.9, 0);
    expect(h.trend('error_rate', nowMs + STEP)!.to).to.be.closeTo(0.165, 1e-12);
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
    expect(d).to.include({ kind: 'error-creep', factor: 'error_rate', summary: 'error rate 1 % → 16 % in 232 min, +4 %/h' });
    // the level 0.164833 rising 1.111e-5 /s: (0.25 − 0.164833) / 1.111e-5 = 7665 s to the fixed edge,
    // (0.2 − 0.164833) / 1.111e-5 = 3165 s to a 20 % objective
    expect(d.etaSeconds).to.be.within(7664, 7665);
    expect(diagnose(input(hour, slow, { edges: edgesOf({ selector: '*', error_rate: 0.2 }) })).etaSeconds).to.be.within(3164, 3165);
  });

  it('does not name a burst that passed, a rise under a swing, or override a cause the hour names', () => {
    const { h, nowMs } = creepHistory();
    const slow = h.trend('error_rate', nowMs)!;
    // the error rate is back at 2 %, under 1 % + half the 15-point rise
    expect(diagnose(input(trend('error_rate', 0.02, 0.02, 60), slow)).kind).to.equal('undetermined');
    // a slow rise of 4 points (1 % → 5 %) is under a swing
    expect(diagnose(input(trend('error_rate', 0.04, 0.05, 3600), { ...slow, to: 0.05 })).kind).to.equal('undetermined');
    // memory rising a whole swing in the hour is the cause (a leak's errors follow it)
    const leak = input(trend('error_rate', 0.12, 0.16, 3600), slow);
    leak.trends = [trend('memory', 0.5, 0.8, 3600), flat('cpu', 0.3), flat('latency', 0.1), trend('error_rate', 0.12, 0.16, 3600)];
    expect(diagnose(leak).kind).to.equal('memory-leak');
  });
});
