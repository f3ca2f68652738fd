import { expect } from 'chai';
import { AlertDecision } from '../../../api-server/src/analysis/decision/alert-decision.js';
import { DEPARTURES, LevelDeparture } from '../../../api-server/src/analysis/decision/level-departure.js';

const UP = { spreads: 6, material: 0.05, sustainSteps: 3, both: false };

describe('decision: a sustained departure from the workload baseline (ADR 0011, rule 8)', () => {
  it('counts a departure of at least the material size for sustainSteps steps, then is critical', () => {
    const d = new LevelDeparture(UP);
    const base = { mean: 0.01, spread: 0.002 };
    // edge = max(6 · 0.002, 0.05) = 0.05; 0.07 − 0.01 = 0.06 departs, 0.055 − 0.01 = 0.045 does not
    expect([0.07, 0.07, 0.07, 0.07].map((v) => d.observe(v, base))).to.deep.equal([false, false, true, true]);
    expect(d.observe(0.055, base)).to.equal(false);
    expect(d.verdict).to.equal(false);
  });

  it('the spread sets the edge when it is wider than the material size', () => {
    const d = new LevelDeparture({ ...UP, sustainSteps: 1 });
    // edge = max(6 · 0.03, 0.05) = 0.18: 0.45 − 0.3 = 0.15 stays inside, 0.5 − 0.3 = 0.2 departs
    expect(d.observe(0.45, { mean: 0.3, spread: 0.03 })).to.equal(false);
    expect(d.observe(0.5, { mean: 0.3, spread: 0.03 })).to.equal(true);
  });

  it('judges a departure under way against the baseline it started from', () => {
    const d = new LevelDeparture(UP);
    expect(d.observe(0.35, { mean: 0.2, spread: 0.01 })).to.equal(false);
    // the baseline learnt meanwhile (0.3, 0.02: edge 0.12, 0.35 inside) does not end it: 0.35 − 0.2 ≥ 0.06
    expect(d.observe(0.35, { mean: 0.3, spread: 0.02 })).to.equal(false);
    expect(d.observe(0.35, { mean: 0.3, spread: 0.02 })).to.equal(true);
    expect(d.toJSON()).to.deep.equal({ steps: 3, from: { mean: 0.2, spread: 0.01 } });
    // back inside: the next departure is judged against the baseline of its own start
    expect(d.observe(0.25, { mean: 0.3, spread: 0.02 })).to.equal(false);
    expect(d.toJSON()).to.deep.equal({ steps: 0, from: null });
    expect(d.observe(0.35, { mean: 0.3, spread: 0.02 })).to.equal(false);
    expect(d.toJSON().steps).to.equal(0);
  });

  it('nothing before a baseline is learnt; a step without a level starts again', () => {
    const d = new LevelDeparture(UP);
    expect(d.observe(0.9, null)).to.equal(false);
    d.observe(0.2, { mean: 0, spread: 0 });
    d.observe(0.2, { mean: 0, spread: 0 });
    d.reset();
    expect(d.observe(0.2, { mean: 0, spread: 0 })).to.equal(false);
  });

  it('upwards only unless judged in both directions', () => {
    const base = { mean: 0.5, spread: 0 };
    expect(new LevelDeparture({ ...UP, sustainSteps: 1 }).observe(0.3, base)).to.equal(false);
    expect(new LevelDeparture({ ...UP, sustainSteps: 1, both: true }).observe(0.3, base)).to.equal(true);
  });

  it('restores with the same state and the same next verdict', () => {
    const d = new LevelDeparture(UP);
    d.observe(0.2, { mean: 0, spread: 0 });
    d.observe(0.2, { mean: 0, spread: 0 });
    const r = LevelDeparture.fromJSON(JSON.parse(JSON.stringify(d.toJSON())) as ReturnType<LevelDeparture['toJSON']>, UP);
    expect(r.toJSON()).to.deep.equal(d.toJSON());
    expect(r.observe(0.2, { mean: 0.2, spread: 0 })).to.equal(d.observe(0.2, { mean: 0.2, spread: 0 }));
    expect(r.verdict).to.equal(true);
  });
});

describe('decision: the level-departure rule in the workload decision layer', () => {
  const lines = (level: number) => ({ burstSlope: 0, burstStdError: 0, burstSpan: 300, stableSlope: 0, burstMean: level, stableMean: level });
  /** one step a minute: the error rate's 5-minute mean given, FusedR 0, uncorroborated */
  const step = (a: AlertDecision, minute: number, errorRate: number) => {
    a.metricRatio('error_rate', lines(errorRate));
    return a.decide('a/Deployment/b', 0, minute * 60_000, false, false);
  };

  it('an error rate 0.075 above its baseline is critical after the departure and the dwell, and holds recovery', () => {
    expect(DEPARTURES['error_rate']).to.deep.equal({ spreads: 6, material: 0.05, sustainSteps: 8, both: false });
    const a = new AlertDecision();
    const events: string[] = [];
    const rate = (m: number) => (m < 120 ? 0.005 : m < 150 ? 0.08 : 0.005);
    for (let m = 0; m < 240; m++) {
      const d = step(a, m, rate(m));
      if (d.event !== null) events.push(`${d.event.type}@${m}`);
    }
    // 24 slots of 0.005 learnt (mean 0.005, spread 0): edge max(0, 0.05); 0.08 departs from minute 120,
    // the 8th step is minute 127, the 2-step dwell announces critical at minute 128. The departure ends
    // at minute 150; recovery needs 60 steps with FusedR < 1 and nothing held: minute 209.
    expect(events).to.deep.equal(['critical@128', 'recovered@209']);
  });

  it('a rise under the material size raises nothing', () => {
    const a = new AlertDecision();
    const events: string[] = [];
    for (let m = 0; m < 240; m++) {
      const d = step(a, m, m < 120 ? 0.005 : 0.04);
      if (d.event !== null) events.push(d.event.type);
    }
    expect(events).to.deep.equal([]);
  });
});
