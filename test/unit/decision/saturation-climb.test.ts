import { expect } from 'chai';
import { AlertDecision } from '../../../api-server/src/analysis/decision/alert-decision.js';
import { DEFAULT_CLIMB, SaturationClimb } from '../../../api-server/src/analysis/decision/saturation-climb.js';

const MIN = 60_000;

/** the verdicts of a climb fed the 5-minute means at minutes 0, 5, 10, 15 */
function verdicts(means: readonly number[], baseline: { mean: number; spread: number } | null): boolean[] {
  const c = new SaturationClimb();
  return means.map((m, i) => c.observe(m, i * 5 * MIN, baseline));
}

describe('decision: a fast climb towards the ceiling (ADR 0011, rule 9)', () => {
  it('a steady climb above the learnt range that reaches 0.95 within 30 minutes is critical once four means are there', () => {
    expect(DEFAULT_CLIMB).to.deep.equal({ lagMs: 5 * MIN, toleranceMs: 7_500, minRise: 0.02, spreads: 3, material: 0.05, ceiling: 0.95, withinMin: 30 });
    // rises 0.1 ≥ max(0.02, 0.01); 0.65 − 0.3 = 0.35 ≥ max(3 · 0.01, 0.05); line 0.1 per 5 min ends at
    // 0.65: (0.95 − 0.65) / 0.1 · 5 = 15 minutes ≤ 30
    expect(verdicts([0.35, 0.45, 0.55, 0.65], { mean: 0.3, spread: 0.01 })).to.deep.equal([false, false, false, true]);
  });

  it('a climb that reaches the ceiling later than 30 minutes is not', () => {
    // 0.05 per 5 min from 0.6: (0.95 − 0.6) / 0.05 · 5 = 35 minutes
    expect(verdicts([0.45, 0.5, 0.55, 0.6], { mean: 0.3, spread: 0.01 })[3]).to.equal(false);
    // from 0.67: (0.95 − 0.67) / 0.05 · 5 = 28 minutes
    expect(verdicts([0.52, 0.57, 0.62, 0.67], { mean: 0.3, spread: 0.01 })[3]).to.equal(true);
  });

  it('a step (a batch burst, a deploy) is not a climb: at most two of the three rises are material', () => {
    expect(verdicts([0.3, 0.3, 0.7, 0.7], { mean: 0.3, spread: 0.01 })[3]).to.equal(false);
    // the step half inside one 5-minute window: rises 0.2, 0.2, 0
    expect(verdicts([0.3, 0.5, 0.7, 0.7], { mean: 0.3, spread: 0.01 })[3]).to.equal(false);
  });

  it('each rise must exceed the baseline spread when it is wider than 0.02', () => {
    // spread 0.06: rises of 0.05 are noise for this workload, though 0.65 − 0.2 = 0.45 ≥ 0.18
    expect(verdicts([0.5, 0.55, 0.6, 0.65], { mean: 0.2, spread: 0.06 })[3]).to.equal(false);
    expect(verdicts([0.5, 0.57, 0.64, 0.71], { mean: 0.2, spread: 0.06 })[3]).to.equal(true);
  });

  it('a climb still inside the learnt range is not', () => {
    // spread 0.03: edge max(0.09, 0.05); 0.68 − 0.6 = 0.08 is inside, 0.68 − 0.55 = 0.13 is not
    // (rises 0.06 ≥ 0.03; line 0.06 per 5 min: (0.95 − 0.68) / 0.06 · 5 = 22.5 minutes)
    expect(verdicts([0.5, 0.56, 0.62, 0.68], { mean: 0.6, spread: 0.03 })[3]).to.equal(false);
    expect(verdicts([0.5, 0.56, 0.62, 0.68], { mean: 0.55, spread: 0.03 })[3]).to.equal(true);
  });

  it('nothing before a baseline is learnt, nor across a gap; a step without a level ends the verdict', () => {
    expect(verdicts([0.35, 0.45, 0.55, 0.65], null)[3]).to.equal(false);
    const c = new SaturationClimb();
    const base = { mean: 0.3, spread: 0.01 };
    // no mean 10 minutes before the last
    c.observe(0.35, 0, base);
    c.observe(0.45, 5 * MIN, base);
    expect(c.observe(0.65, 15 * MIN, base)).to.equal(false);
    // a mean kept 5 s off its time still counts (tolerance 7.5 s)
    const d = new SaturationClimb();
    [0.35, 0.45, 0.55].forEach((m, i) => d.observe(m, i * 5 * MIN + 5_000, base));
    expect(d.observe(0.65, 15 * MIN, base)).to.equal(true);
    d.reset();
    expect(d.verdict).to.equal(false);
  });

  it('restores with the same state and the same next verdict', () => {
    const c = new SaturationClimb();
    const base = { mean: 0.3, spread: 0.01 };
    [0.35, 0.45, 0.55].forEach((m, i) => c.observe(m, i * 5 * MIN, base));
    const r = SaturationClimb.fromJSON(JSON.parse(JSON.stringify(c.toJSON())) as ReturnType<SaturationClimb['toJSON']>);
    expect(r.toJSON()).to.deep.equal(c.toJSON());
    expect(r.observe(0.65, 15 * MIN, base)).to.equal(c.observe(0.65, 15 * MIN, base));
    expect(r.verdict).to.equal(true);
  });

  it('keeps only the means it reads (15 minutes and the tolerance)', () => {
    const c = new SaturationClimb();
    for (let m = 0; m <= 60; m++) c.observe(0.3, m * MIN, null);
    expect(c.toJSON().points.map(([t]) => t / MIN)).to.deep.equal([45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60]);
  });
});

describe('decision: the saturation-climb rule in the workload decision layer', () => {
  const lines = (level: number) => ({ burstSlope: 0, burstStdError: 0, burstSpan: 300, stableSlope: 0, burstMean: level, stableMean: level });
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

  it('CPU climbing 0.025 a minute from 0.3 after two steady hours is critical 13 minutes into the climb, before 0.95', () => {
    const cpu = (m: number) => Math.min(0.98, m <= 120 ? 0.3 : 0.3 + 0.025 * (m - 120));
    // The rule-7 baseline (24 slots of 0.3) still learns the slots of minutes 125 (0.425) and 130
    // (0.55), its line not yet steep enough to stop it: mean 0.3106, spread 0.0458. Minute 131 reads
    // 0.3, 0.325, 0.45, 0.575: the first rise 0.025 < 0.0458 fails. Minute 132 reads 0.3, 0.35, 0.475,
    // 0.6: rises ≥ 0.0458; 0.6 − 0.3106 ≥ max(3 · 0.0458, 0.05); the line (slope 0.1025 per 5 min, end
    // 0.585) reaches 0.95 in (0.95 − 0.6) / 0.1025 · 5 = 17.1 minutes. The 2-step dwell announces
    // critical at minute 133; CPU reaches 0.95 at minute 146.
    expect(run(cpu, 150)).to.deep.equal(['critical@133']);
  });

  it('a batch burst (CPU 0.3 up by 0.4 for 20 minutes, its 5-minute mean rising over 5) raises nothing', () => {
    const cpu = (m: number) => 0.3 + 0.4 * Math.min(1, Math.max(0, (m - 120) / 5)) - 0.4 * Math.min(1, Math.max(0, (m - 140) / 5));
    expect(run(cpu, 240)).to.deep.equal([]);
  });
});
