import { expect } from 'chai';
import { BandDecider, bandDeciderSchema, type DecisionInput } from '../../../api-server/src/analysis/decision/band-decider.js';
import { ChangeEnvelope } from '../../../api-server/src/analysis/decision/change-envelope.js';
import { LevelHold } from '../../../api-server/src/analysis/decision/level-hold.js';

const W = 'shop/Deployment/api';
const run = (d: BandDecider, values: number[], extra: Partial<DecisionInput> = {}, t0 = 0) =>
  values.map((fusedR, i) => d.step({ workload: W, fusedR, timeMs: t0 + i * 15_000, quiet: false, held: false, ...extra }));

describe('decision: the band decider (hysteresis, dwell, one event per episode)', () => {
  const config = { dwellUpSteps: 2, soloDwellSteps: 4, recoverBelow: 1.0, dwellRecoverSteps: 3 };

  it('escalates after two steps above, to the lowest band held; only rises within the episode; one recovery', () => {
    const d = new BandDecider(config);
    const steps = run(d, [2.0, 3.0, 5.0, 5.0, 2.0, 0.5, 0.5, 0.5]);
    expect(steps.map((s) => s.event?.type ?? null)).to.deep.equal([null, 'warning', null, 'emergency', null, null, null, 'recovered']);
    expect(steps.map((s) => s.state)).to.deep.equal(['elevated', 'warning', 'warning', 'emergency', 'emergency', 'emergency', 'emergency', 'stable']);
    expect(steps[3]!.event).to.include({ previousState: 'warning', state: 'emergency', fusedR: 5, severity: 'emergency', timeMs: 45_000 });
    // critical or worse since step 3 (45 s): 15 s later at step 4
    expect(steps[4]!.criticalForMs).to.equal(15_000);
    expect(steps[7]!.criticalForMs).to.equal(0);
  });

  it('a one-step spike raises nothing; a value between 1.0 and 1.5 does not count towards recovery (hysteresis)', () => {
    const d = new BandDecider(config);
    expect(run(d, [6, 0.2, 6, 0.2]).every((s) => s.event === null)).to.equal(true);
    const e = new BandDecider(config);
    const steps = run(e, [3, 3, 1.2, 1.2, 1.2, 1.2, 0.9, 0.9]);
    expect(steps.map((s) => s.event?.type ?? null)).to.deep.equal([null, 'critical', null, null, null, null, null, null]);
    expect(steps[7]!.band).to.equal('critical');
    expect(run(e, [0.9], {}, 8 * 15_000)[0]!.event?.type).to.equal('recovered');
  });

  it('a held level keeps the episode open; quiet steps change nothing', () => {
    const d = new BandDecider(config);
    run(d, [3, 3]);
    expect(run(d, [0.1, 0.1, 0.1, 0.1], { held: true }).every((s) => s.band === 'critical')).to.equal(true);
    const q = new BandDecider(config);
    expect(run(q, [5, 5, 5], { quiet: true }).every((s) => s.event === null && s.band === 'normal')).to.equal(true);
  });

  it('metric evidence alone is at most a warning; critical needs a second source', () => {
    const d = new BandDecider(config);
    const steps = run(d, [6, 6, 6], { corroborated: false });
    expect(steps.map((s) => s.event?.type ?? null)).to.deep.equal([null, 'warning', null]);
    expect(run(d, [6, 6], { corroborated: true }, 45_000).map((s) => s.event?.type ?? null)).to.deep.equal([null, 'emergency']);
  });

  it('metric evidence alone goes above warning once FusedR held the emergency band for soloDwellSteps (4 here)', () => {
    const d = new BandDecider(config);
    // steps 0-2 in emergency: warning at step 1 (dwell 2); step 3 is the 4th emergency step, so the
    // cap lifts and the climb above warning starts; announced after 2 steps above, at step 4
    const steps = run(d, [6, 6, 6, 6, 6, 6], { corroborated: false });
    expect(steps.map((s) => s.event?.type ?? null)).to.deep.equal([null, 'warning', null, null, 'emergency', null]);
    // a critical-band FusedR (2.5-4) alone never counts towards it, and one step below 4 restarts the count
    const e = new BandDecider(config);
    expect(run(e, [3.9, 3.9, 3.9, 3.9, 3.9, 3.9], { corroborated: false }).map((s) => s.band)).to.deep.equal(['normal', 'warning', 'warning', 'warning', 'warning', 'warning']);
    const f = new BandDecider(config);
    expect(run(f, [6, 6, 6, 3.9, 6, 6, 6], { corroborated: false }).every((s) => s.band !== 'critical' && s.band !== 'emergency')).to.equal(true);
  });

  it('an episode announced critical becomes emergency only after soloDwellSteps (4) in the emergency band, even corroborated', () => {
    const d = new BandDecider(config);
    // critical at step 1; FusedR 6 from step 2: emergency steps 2, 3, 4, 5 → the 4th (step 5) lifts
    // the cap, the 2-step dwell announces emergency at step 6 (without the rule: at step 3)
    const steps = run(d, [3, 3, 6, 6, 6, 6, 6, 6], { corroborated: true });
    expect(steps.map((s) => s.event?.type ?? null)).to.deep.equal([null, 'critical', null, null, null, null, 'emergency', null]);
    // a brief peak (3 steps) leaves it critical
    const e = new BandDecider(config);
    expect(run(e, [3, 3, 6, 6, 6, 3, 3], { corroborated: true }).map((s) => s.band).at(-1)).to.equal('critical');
  });

  it('a critical level-and-trend verdict corroborates FusedR: warning, then emergency directly', () => {
    const d = new BandDecider(config);
    const steps = [...run(d, [6, 6], { corroborated: false }), ...run(d, [6, 6], { corroborated: false, floor: 2 }, 30_000)];
    // steps 0-1: metric evidence alone, a warning (soloSteps 1, 2 < 4). Steps 2-3 with the verdict:
    // raw 3 at both, emergency after the 2-step dwell. Were the verdict only a floor, step 2 (soloSteps
    // 3, still capped) would be raw 2 and the lowest band held over the dwell would make it critical
    expect(steps.map((s) => s.event?.type ?? null)).to.deep.equal([null, 'warning', null, 'emergency']);
  });

  it('a critical verdict arriving after the FusedR spike tells the episode at the band FusedR reached in it', () => {
    const d = new BandDecider(config);
    // steps 0-1: FusedR 6 alone, a warning (peak 3). Steps 2-5: FusedR back to 0.3, held open by a
    // climb; steps 4-5 bring a critical verdict: told = max(0.3 → 0, peak 3) = 3, emergency after the
    // 2-step dwell (not critical now and emergency later: three band changes for one failure)
    const steps = [
      ...run(d, [6, 6], { corroborated: false }),
      ...run(d, [0.3, 0.3], { corroborated: false, held: true }, 30_000),
      ...run(d, [0.3, 0.3], { corroborated: false, held: true, floor: 2 }, 60_000),
    ];
    expect(steps.map((s) => s.event?.type ?? null)).to.deep.equal([null, 'warning', null, null, null, 'emergency']);
    // the peak is of this episode only: after the recovery a verdict alone is critical
    const e = new BandDecider(config);
    run(e, [6, 6, 0.3, 0.3, 0.3], { corroborated: false });
    expect(e.band).to.equal('normal');
    expect(run(e, [0.3, 0.3], { corroborated: false, floor: 2 }, 75_000).map((s) => s.event?.type ?? null)).to.deep.equal([null, 'critical']);
  });

  it('a step may carry its own single-source dwell (alerts.single_source_emergency_minutes of the service)', () => {
    const d = new BandDecider(config);
    // 0: metric evidence alone is announced as it is, after the usual 2-step dwell
    expect(run(d, [6, 6], { corroborated: false, soloDwellSteps: 0 }).map((s) => s.event?.type ?? null)).to.deep.equal([null, 'emergency']);
  });

  it('restores a state saved before the emergency count existed', () => {
    const old = { band: 'warning' as const, state: 'warning' as const, upSteps: 0, upMin: 3, downSteps: 0, criticalSinceMs: null };
    const d = BandDecider.fromJSON(bandDeciderSchema.parse(old), config);
    expect(d.toJSON().soloSteps).to.equal(0);
    expect(d.toJSON().peak).to.equal(0);
  });

  it('round-trips its state', () => {
    const d = new BandDecider(config);
    run(d, [3, 3, 0.5]);
    const e = BandDecider.fromJSON(d.toJSON(), config);
    expect(run(e, [0.5, 0.5], {}, 45_000).map((s) => s.event?.type ?? null)).to.deep.equal([null, 'recovered']);
  });
});

describe('decision: the burst-change envelope (the workload learns its own jumps)', () => {
  it('takes a change one lag late and decays with its half-life (hand-checked)', () => {
    // lag 2, margin 1.5, half-life 1 step (decay 0.5)
    const e = new ChangeEnvelope({ halfLifeSteps: 1, margin: 1.5, lagSteps: 2 });
    e.observe('cpu', 0.1);
    e.observe('cpu', -0.2);
    expect(e.peak('cpu')).to.equal(0);
    e.observe('cpu', 0);
    expect(e.peak('cpu')).to.be.closeTo(0.1, 1e-12);
    expect(e.threshold('cpu', 0.05)).to.be.closeTo(0.15, 1e-12);
    e.observe('cpu', 0);
    expect(e.peak('cpu')).to.be.closeTo(0.2, 1e-12);
    e.observe('cpu', 0);
    expect(e.peak('cpu')).to.be.closeTo(0.1, 1e-12);
    expect(e.threshold('memory', 0.05)).to.equal(0.05);
    const back = ChangeEnvelope.fromJSON(e.toJSON(), { halfLifeSteps: 1, margin: 1.5, lagSteps: 2 });
    expect(back.peak('cpu')).to.be.closeTo(0.1, 1e-12);
  });
});

describe('decision: the level hold', () => {
  it('holds while an input is more than 0.1 from its level before the episode, or at 0.9 or above', () => {
    const h = new LevelHold({ away: 0.1, saturated: 0.9 });
    /** one input's levels of a step: its 5-minute mean and 60-minute mean */
    const level = (input: string, now: number, before = now) => ({ inputs: [input], now: [now], before: [before], count: 1 });
    h.open(level('memory', 0.7, 0.5));
    expect(h.toJSON()).to.deep.equal({ memory: 0.5 });
    expect(h.held(level('memory', 0.65))).to.equal(true);
    expect(h.held(level('memory', 0.55))).to.equal(false);
    expect(h.held(level('cpu', 0.95))).to.equal(true);
    // only the first `count` entries are the step's
    expect(h.held({ inputs: ['memory', 'cpu'], now: [0.55, 0.95], before: [0.5, 0.9], count: 1 })).to.equal(false);
    h.close();
    expect(h.held(level('memory', 0.65))).to.equal(false);
  });
});
