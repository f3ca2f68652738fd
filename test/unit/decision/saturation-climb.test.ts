import { expect } from 'chai';
import { AlertDecision } from '../../../api-server/src/analysis/decision/alert-decision.js';
import { DEFAULT_CLIMB, SaturationClimb } from '../../../api-server/src/analysis/decision/saturation-climb.js';

const MIN = 60_000;

/** the verdicts of a climb fed the 5-minute means at minutes 0, 5, 10, … */
function verdicts(means: readonly number[], baseline: { mean: number; spread: number } | null): boolean[] {
  const c = new SaturationClimb();
  return means.map((m, i) => c.observe(m, i * 5 * MIN, baseline));
}

describe('decision: a fast climb towards the ceiling (ADR 0011, rule 9)', () => {
  it('a steady climb above the learnt range that reaches 0.95 within 30 minutes is critical once five means are there', () => {
    expect(DEFAULT_CLIMB).to.deep.equal({ means: 5, lagMs: 5 * MIN, toleranceMs: 7_500, minRise: 0.02, evenness: 3, spreads: 3, material: 0.05, ceiling: 0.95, withinMin: 30 });
    // rises 0.1 ≥ max(0.02, 0.01), even; 0.65 − 0.2 = 0.45 ≥ max(3 · 0.01, 0.05); line 0.1 per 5 min
    // ends at 0.65: (0.95 − 0.65) / 0.1 · 5 = 15 minutes ≤ 30
    expect(verdicts([0.25, 0.35, 0.45, 0.55, 0.65], { mean: 0.2, spread: 0.01 })).to.deep.equal([false, false, false, false, true]);
  });

  it('a climb that reaches the ceiling later than 30 minutes is not', () => {
    // 0.05 per 5 min to 0.6: (0.95 − 0.6) / 0.05 · 5 = 35 minutes
    expect(verdicts([0.4, 0.45, 0.5, 0.55, 0.6], { mean: 0.3, spread: 0.01 })[4]).to.equal(false);
    // to 0.67: (0.95 − 0.67) / 0.05 · 5 = 28 minutes
    expect(verdicts([0.47, 0.52, 0.57, 0.62, 0.67], { mean: 0.3, spread: 0.01 })[4]).to.equal(true);
  });

  it('a step (a batch burst, a deploy) is not a climb, even with noise on the rises it does not carry', () => {
    expect(verdicts([0.3, 0.3, 0.3, 0.7, 0.7], { mean: 0.3, spread: 0.01 })[4]).to.equal(false);
    // the step over two 5-minute windows: rises 0, 0.2, 0.2, 0
    expect(verdicts([0.3, 0.3, 0.5, 0.7, 0.7], { mean: 0.3, spread: 0.01 })[4]).to.equal(false);
    // with noise: rises 0.03, 0.2, 0.2, 0.03, each ≥ 0.02, but 0.2 > 3 · 0.03 (not even)
    expect(verdicts([0.3, 0.33, 0.53, 0.73, 0.76], { mean: 0.3, spread: 0.01 })[4]).to.equal(false);
  });

  it('each rise must exceed the baseline spread when it is wider than 0.02', () => {
    // spread 0.06: rises of 0.05 are noise for this workload, though 0.65 − 0.2 = 0.45 ≥ 0.18
    expect(verdicts([0.45, 0.5, 0.55, 0.6, 0.65], { mean: 0.2, spread: 0.06 })[4]).to.equal(false);
    // rises 0.07: (0.95 − 0.71) / 0.07 · 5 = 17.1 minutes
    expect(verdicts([0.43, 0.5, 0.57, 0.64, 0.71], { mean: 0.2, spread: 0.06 })[4]).to.equal(true);
  });

  it('a climb still inside the learnt range is not', () => {
    // spread 0.03: edge max(0.09, 0.05); 0.68 − 0.6 = 0.08 is inside, 0.68 − 0.55 = 0.13 is not
    // (rises 0.06 ≥ 0.03; line 0.06 per 5 min: (0.95 − 0.68) / 0.06 · 5 = 22.5 minutes)
    expect(verdicts([0.44, 0.5, 0.56, 0.62, 0.68], { mean: 0.6, spread: 0.03 })[4]).to.equal(false);
    expect(verdicts([0.44, 0.5, 0.56, 0.62, 0.68], { mean: 0.55, spread: 0.03 })[4]).to.equal(true);
  });

  it('nothing before a baseline is learnt, nor across a gap; a step without a level ends the verdict', () => {
    expect(verdicts([0.25, 0.35, 0.45, 0.55, 0.65], null)[4]).to.equal(false);
    const base = { mean: 0.2, spread: 0.01 };
    // no mean 10 minutes before the last
    const c = new SaturationClimb();
    [0.25, 0.35, 0.55].forEach((m, i) => c.observe(m, [0, 5, 15][i]! * MIN, base));
    expect(c.observe(0.65, 20 * MIN, base)).to.equal(false);
    // a mean kept 5 s off its time still counts (tolerance 7.5 s)
    const d = new SaturationClimb();
    [0.25, 0.35, 0.45, 0.55].forEach((m, i) => d.observe(m, i * 5 * MIN + 5_000, base));
    expect(d.observe(0.65, 20 * MIN, base)).to.equal(true);
    d.reset();
    expect(d.verdict).to.equal(false);
  });

  it('restores with the same state and the same next verdict', () => {
    const c = new SaturationClimb();
    const base = { mean: 0.2, spread: 0.01 };
    [0.25, 0.35, 0.45, 0.55].forEach((m, i) => c.observe(m, i * 5 * MIN, base));
    const r = SaturationClimb.fromJSON(JSON.parse(JSON.stringify(c.toJSON())) as ReturnType<SaturationClimb['toJSON']>);
    expect(r.toJSON()).to.deep.equal(c.toJSON());
    expect(r.observe(0.65, 20 * MIN, base)).to.equal(c.observe(0.65, 20 * MIN, base));
    expect(r.verdict).to.equal(true);
  });

  it('keeps only the means it reads (20 minutes and the tolerance)', () => {
    const c = new SaturationClimb();
    for (let m = 0; m <= 60; m++) c.observe(0.3, m * MIN, null);
    expect(c.toJSON().points.map(([t]) => t / MIN)).to.deep.equal(Array.from({ length: 21 }, (_, i) => 40 + i));
  });
});

describe('decision: the saturation-climb rule in the workload decision layer', () => {
  const lines = (level: number) => ({ burstSlope: 0, burstStdError: () => 0, burstSpan: 300, stableSlope: 0, burstMean: level, stableMean: level });
  /** one step a minute: the CPU's 5-minute mean given, FusedR 0, uncorroborated */
  const step = (a: AlertDecision, minute: number, cpu: number) => {
    a.metricRatio('cpu', lines(cpu));
    return a.decide('a/Deployment/b', 0, minute * MIN, false, false);
  };
  const run = (cpuAt: (m: number) => number, minutes: number): string[] => {
    const a = new AlertDecision();
    const events: string[] = [];
    for (let m = 0; m < minutes; m++) {
      const d = step(a, m, cpuAt(m));
      if (d.event !== null) events.push(`${d.event.type}@${m}`);
    }
    return events;
  };

  it('CPU climbing 0.025 a minute from 0.3 after two steady hours is critical 18 minutes into the climb, before 0.95', () => {
    const cpu = (m: number) => Math.min(0.98, m <= 120 ? 0.3 : 0.3 + 0.025 * (m - 120));
    // The rule-7 baseline (24 slots of 0.3) still learns the slots of minutes 125 (0.425) and 130
    // (0.55), its line not yet steep enough to stop it: mean 0.3106, spread 0.0458. Minute 136 reads
    // 0.3, 0.325, 0.45, 0.575, 0.7: the first rise 0.025 < 0.0458 fails. Minute 137 reads 0.3, 0.35,
    // 0.475, 0.6, 0.725: rises 0.05 and 0.125 (≥ 0.0458, 0.125 ≤ 3 · 0.05); 0.725 − 0.3106 ≥ max(3 ·
    // 0.0458, 0.05); the line (slope 0.11 per 5 min, end 0.71) reaches 0.95 in (0.95 − 0.725) / 0.11
    // · 5 = 10.2 minutes. The 2-step dwell announces critical at minute 138; CPU reaches 0.95 at 146.
    expect(run(cpu, 150)).to.deep.equal(['critical@138']);
  });

  it('memory climbing the same way is left to rule 7 (a garbage-collected memory climbs in lines by nature)', () => {
    const a = new AlertDecision();
    const events: string[] = [];
    for (let m = 0; m < 150; m++) {
      const v = Math.min(0.98, m <= 120 ? 0.3 : 0.3 + 0.025 * (m - 120));
      a.metricRatio('memory', lines(v));
      const d = a.decide('a/Deployment/b', 0, m * MIN, false, false);
      if (d.event !== null) events.push(`${d.event.type}@${m}`);
    }
    expect(events.filter((e) => e.startsWith('critical@13'))).to.deep.equal([]);
    expect(a.toJSON().climbs).to.deep.equal({});
  });

  it('a batch burst (CPU 0.3 up by 0.4 for 20 minutes, its 5-minute mean rising over 5) raises nothing', () => {
    const cpu = (m: number) => 0.3 + 0.4 * Math.min(1, Math.max(0, (m - 120) / 5)) - 0.4 * Math.min(1, Math.max(0, (m - 140) / 5));
    expect(run(cpu, 240)).to.deep.equal([]);
  });
});
