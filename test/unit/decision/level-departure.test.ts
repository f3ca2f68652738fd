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

  it('an input with atLeast departs only at or above that level (a resource at its ceiling)', () => {
    const pinned = { spreads: 3, material: 0.1, sustainSteps: 1, both: false, atLeast: 0.9 };
    const base = { mean: 0.34, spread: 0.02 };
    // edge max(3 · 0.02, 0.1) = 0.1: 0.85 − 0.34 = 0.51 departs but is under 0.9; 0.99 is at the ceiling
    expect(new LevelDeparture(pinned).observe(0.85, base)).to.equal(false);
    expect(new LevelDeparture(pinned).observe(0.99, base)).to.equal(true);
    // at the ceiling but inside the baseline's band (a workload that always ran hot): 0.97 − 0.9 < 0.1
    expect(new LevelDeparture(pinned).observe(0.97, { mean: 0.9, spread: 0.01 })).to.equal(false);
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
  const lines = (level: number) => ({ burstSlope: 0, burstStdError: () => 0, burstSpan: 300, stableSlope: 0, burstMean: level, stableMean: level });
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

  it('keeps the levels before an episode from the step it opens until it recovers, none while normal', () => {
    const a = new AlertDecision();
    const rate = (m: number) => (m < 120 ? 0.005 : m < 150 ? 0.08 : 0.005);
    const holds: string[] = [];
    for (let m = 0; m < 240; m++) {
      step(a, m, rate(m));
      const hold = JSON.stringify(a.toJSON().hold);
      if (holds.at(-1)?.endsWith(hold) !== true) holds.push(`${m} ${hold}`);
    }
    // the episode opens at minute 128 (the harness's 60-minute mean is the step's level, 0.08) and recovers at 209
    expect(holds).to.deep.equal(['0 {}', '128 {"error_rate":0.08}', '209 {}']);
  });

  it('CPU pinned at 0.99 from 0.34 is critical after 25 minutes; a 20-minute batch burst to 0.99 raises nothing', () => {
    expect(DEPARTURES['cpu']).to.deep.equal({ spreads: 3, material: 0.1, sustainSteps: 100, both: false, atLeast: 0.9 });
    const cpuRun = (cpuAt: (s: number) => number, steps: number): string[] => {
      const a = new AlertDecision();
      const events: string[] = [];
      for (let s = 0; s < steps; s++) {
        a.metricRatio('cpu', lines(cpuAt(s)));
        const d = a.decide('a/Deployment/b', 0, s * 15_000, false, false);
        if (d.event !== null) events.push(`${d.event.type}@${s}`);
      }
      return events;
    };
    // 2 h of 0.34 (15-s steps): baseline 0.34, spread 0; from step 480 the 5-minute mean is 0.99
    // (a step, no climb: rules 7 and 9 stay silent); the 100th step at or above 0.9 is step 579, the
    // 2-step dwell announces critical at step 580 (25 minutes and 15 s after the jump)
    expect(cpuRun((s) => (s < 480 ? 0.34 : 0.99), 720)).to.deep.equal(['critical@580']);
    // the same for 80 steps (20 minutes), then back
    expect(cpuRun((s) => (s >= 480 && s < 560 ? 0.99 : 0.34), 720)).to.deep.equal([]);
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
