import { expect } from 'chai';
import { AlertDecision } from '../../../api-server/src/analysis/decision/alert-decision.js';
import { BandDecider } from '../../../api-server/src/analysis/decision/band-decider.js';
import { DEFAULT_TREND, LevelTrend, fitLine } from '../../../api-server/src/analysis/decision/level-trend.js';

const SLOT = 5 * 60_000;
/** a warning band before critical: warning within 120 min of the limit, critical within 40 */
const WARN_FIRST = { ...DEFAULT_TREND, warnWithinMin: 120, critWithinMin: 40 };

/** feeds one level per 5-minute slot from slot `from`; returns the verdicts */
const feed = (t: LevelTrend, levels: number[], from: number, learn = true) => levels.map((v, i) => t.observe(v, (from + i) * SLOT, learn));
const flat = (v: number, n: number) => Array.from({ length: n }, () => v);
const ramp = (from: number, step: number, n: number) => Array.from({ length: n }, (_, k) => from + step * (k + 1));

describe('decision: level and trend against the workload baseline (ADR 0011, rule 7)', () => {
  it('fits a line and its t against the residuals (hand-checked)', () => {
    // [0,0,1,1]: x̄ 1.5, ȳ 0.5, Sxx 5, Sxy 2 → slope 0.4; residuals 0.1,-0.3,0.3,-0.1 → SSE 0.2,
    // SE = √(0.2/2/5) = 0.1414 → t = 2.828; the line ends at 0.5 + 0.4·1.5 = 1.1
    const f = fitLine([0, 0, 1, 1]);
    expect(f.slope).to.be.closeTo(0.4, 1e-12);
    expect(f.t).to.be.closeTo(2.8284, 1e-4);
    expect(f.end).to.be.closeTo(1.1, 1e-12);
    expect(fitLine([1, 2, 3]).t).to.equal(Number.POSITIVE_INFINITY);
  });

  it('a noise-free level step over 12 slots fits a line with t 5.55, under the 8 that counts', () => {
    // Sxx 143, Sxy 18 → slope 0.12587; SST 3, SSR 2.2657 → SSE 0.7343; SE √(0.7343/10/143) = 0.02266
    const f = fitLine([...flat(0, 6), ...flat(1, 6)]);
    expect(f.slope).to.be.closeTo(18 / 143, 1e-12);
    expect(f.t).to.be.closeTo(5.555, 1e-3);
  });

  it('memory climbing 0.02 a slot: warning with 52.5 min to 0.95, critical under 40 min', () => {
    const t = new LevelTrend('saturation', WARN_FIRST);
    expect(feed(t, flat(0.5, 24), 0)).to.deep.equal(flat(0, 24));
    const v = feed(t, ramp(0.5, 0.02, 15), 24);
    // k = 12: the ring is 0.52..0.74, a line (t = ∞); (0.95 − 0.74) / 0.02 = 10.5 slots = 52.5 min
    expect(v[11]).to.equal(1);
    // k = 14: 0.78 → 8.5 slots = 42.5 min (warning); k = 15: 0.80 → 7.5 slots = 37.5 min (critical)
    expect(v[13]).to.equal(1);
    expect(v[14]).to.equal(2);
    expect(t.verdict).to.equal(2);
  });

  it('latency climbing 10 a slot from 100: warning at 210 (45 min to 3×), critical at 230', () => {
    const t = new LevelTrend('latency', WARN_FIRST);
    feed(t, flat(100, 24), 0);
    const v = feed(t, ramp(100, 10, 13), 24);
    // the baseline learns 110 and 120 (t 1.7 and 2.6 < 3), then stops: mean 100.85, limit 302.5
    // k = 11: the ring 100..210 is a line; (302.5 − 210) / 10 = 9.25 slots = 46 min (warning)
    expect(v[10]).to.equal(1);
    expect(t.toJSON().mean).to.be.closeTo(100.85, 0.01);
    // k = 12: 220 → 41.3 min (warning); k = 13: 230 → 7.25 slots = 36.3 min (critical)
    expect(v[11]).to.equal(1);
    expect(v[12]).to.equal(2);
  });

  it('a deploy that moves the level and stays raises nothing, and the baseline learns the new level', () => {
    const t = new LevelTrend('saturation');
    feed(t, flat(0.5, 24), 0);
    expect(feed(t, flat(0.65, 24), 24)).to.deep.equal(flat(0, 24));
    // the 7 slots whose line has t ≥ 3 (3.61, 4.52, 5.26, 5.55, 5.26, 4.52, 3.61 as the step crosses
    // the ring) are not learnt; 17 of 24 are: 0.65 − 0.15 · 0.5^(17/24) = 0.5582
    expect(t.toJSON().learnt).to.equal(24 + 17);
    expect(t.toJSON().mean).to.be.closeTo(0.65 - 0.15 * 0.5 ** (17 / 24), 1e-9);
  });

  it('does not learn while the workload is not normal (the baseline is frozen during an episode)', () => {
    const t = new LevelTrend('saturation');
    feed(t, flat(0.5, 24), 0);
    feed(t, flat(0.65, 24), 24, false);
    expect(t.toJSON().mean).to.be.closeTo(0.5, 1e-12);
  });

  it('by default a climb announces critical directly, 45 min before the limit', () => {
    const t = new LevelTrend('saturation');
    const v = feed(t, [...flat(0.5, 24), ...ramp(0.5, 0.02, 15)], 0).slice(24);
    // k = 13: 0.76 → (0.95 − 0.76) / 0.02 = 9.5 slots = 47.5 min: nothing; k = 14: 0.78 → 42.5 min
    expect(v[12]).to.equal(0);
    expect(v[13]).to.equal(2);
  });

  it('a verdict stays while the level is away from the baseline, and ends when it is back', () => {
    const t = new LevelTrend('saturation');
    feed(t, [...flat(0.5, 24), ...ramp(0.5, 0.02, 14)], 0);
    expect(t.verdict).to.equal(2);
    // a plateau at 0.78 (no line any more) and a gap (the ring starts again): still 0.78 − 0.5 ≥ 0.05
    expect(feed(t, flat(0.78, 3), 40)).to.deep.equal([2, 2, 2]);
    expect(t.toJSON().ring).to.deep.equal([0.78, 0.78, 0.78]);
    // back within 0.05 of the baseline (0.5, frozen: the workload is not normal)
    expect(t.observe(0.54, 43 * SLOT, false)).to.equal(0);
    expect(t.holding).to.equal(false);
  });

  it('a warning becomes critical when the level reaches the limit, with no line (pinned at saturation)', () => {
    const t = new LevelTrend('saturation', WARN_FIRST);
    feed(t, [...flat(0.5, 24), ...ramp(0.5, 0.02, 12)], 0);
    expect(t.verdict).to.equal(1);
    // after a gap the ring holds one point: no line, but 0.96 ≥ 0.95 with a verdict kept
    expect(t.observe(0.96, 40 * SLOT, false)).to.equal(2);
    expect(t.toJSON().ring).to.deep.equal([0.96]);
  });

  it('judges once per slot, and restores with the same verdict and the same next verdict', () => {
    const t = new LevelTrend('saturation', WARN_FIRST);
    feed(t, flat(0.5, 24), 0);
    feed(t, ramp(0.5, 0.02, 14), 24);
    expect(t.observe(0.99, 37 * SLOT + 60_000, true)).to.equal(1);
    const r = LevelTrend.fromJSON(JSON.parse(JSON.stringify(t.toJSON())), 'saturation', WARN_FIRST);
    expect(r.verdict).to.equal(1);
    expect(r.toJSON()).to.deep.equal(t.toJSON());
    expect(r.observe(0.8, 38 * SLOT, true)).to.equal(t.observe(0.8, 38 * SLOT, true));
    expect(r.verdict).to.equal(2);
  });

  it('the band decider escalates on the verdict alone, through the dwell, without a second source', () => {
    const d = new BandDecider({ dwellUpSteps: 2, soloDwellSteps: 24, recoverBelow: 1.0, dwellRecoverSteps: 3 });
    const step = (i: number, floor: number) => d.step({ workload: 'a/Deployment/b', fusedR: 0.2, timeMs: i * 15_000, quiet: false, held: floor > 0, corroborated: false, floor });
    expect([step(0, 2), step(1, 2), step(2, 0)].map((s) => s.event?.type ?? null)).to.deep.equal([null, 'critical', null]);
    expect(d.band).to.equal('critical');
  });
});

describe('decision: the level-trend rule in the workload decision layer', () => {
  const lines = (level: number) => ({ burstSlope: 0, burstStdError: () => 0, burstSpan: 300, stableSlope: 0, burstMean: level, stableMean: level });
  /** one step a minute: memory's 5-minute mean given, FusedR 0, uncorroborated */
  const step = (a: AlertDecision, minute: number, memory: number) => {
    a.metricRatio('memory', lines(memory));
    return a.decide('a/Deployment/b', 0, minute * 60_000, false, false);
  };

  it('announces critical on a memory climb with FusedR 0, and saves and restores the rule with the workload', () => {
    const a = new AlertDecision();
    // two hours at 0.5, then +0.004 a minute (0.02 a slot)
    const memoryAt = (m: number) => (m < 120 ? 0.5 : 0.5 + 0.004 * (m - 119));
    const events: string[] = [];
    for (let m = 0; m < 180; m++) {
      const d = step(a, m, memoryAt(m));
      if (d.event !== null) events.push(`${d.event.type}@${m}`);
    }
    // slots are judged at minutes 120 + 5j with 0.504 + 0.02j: j = 13 (minute 185) 0.764 is
    // (0.95 − 0.764) / 0.02 · 5 = 46.5 min away; j = 14 (minute 190) 0.784 is 41.5 min away → critical,
    // announced after the 2-step dwell at minute 191. Nothing before.
    expect(events).to.deep.equal([]);
    const saved = JSON.parse(JSON.stringify(a.toJSON())) as unknown;
    const b = AlertDecision.fromJSON(saved);
    expect(b.toJSON()).to.deep.equal(a.toJSON());
    for (let m = 180; m < 200; m++) {
      const da = step(a, m, memoryAt(m));
      const db = step(b, m, memoryAt(m));
      expect(db).to.deep.equal(da);
      if (da.event !== null) events.push(`${da.event.type}@${m}`);
    }
    expect(events).to.deep.equal(['critical@191']);
  });

  it('restores a state saved before the rule (no trends)', () => {
    const a = new AlertDecision();
    const { trends: _trends, ...before } = a.toJSON();
    expect(AlertDecision.fromJSON(before).toJSON()).to.deep.equal({ ...before, trends: {} });
  });
});
