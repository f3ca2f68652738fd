import { expect } from 'chai';
import { evaluate, behaviourRows, type EvalOutput } from '../../../tools/eval-alerts/eval-alerts.js';
import { FAILING_BEHAVIOURS } from '../../../tools/eval-alerts/failing-behaviours.js';
import { HEALTHY_BEHAVIOURS } from '../../../tools/eval-alerts/healthy-behaviours.js';

describe('eval:alerts on a tiny run (1 seed, 5 hours, one workload per behaviour, the real service)', function () {
  this.timeout(900_000);
  let out: EvalOutput;

  before(async () => {
    out = await evaluate({ seeds: [7], days: 5 / 24, perBehaviour: 1, nabDir: null, objectives: true });
  });

  it('reports every behaviour and exactly the summary metrics of the issue', () => {
    expect(out.workloads.map((w) => w.behaviour)).to.have.members([...HEALTHY_BEHAVIOURS, ...FAILING_BEHAVIOURS]);
    expect(Object.keys(out.summary)).to.have.members([
      'healthy_workload_days',
      'false_escalations_warning_per_workload_day',
      'false_escalations_critical_per_workload_day',
      'critical_anomalies_per_healthy_workload_day',
      'actions_on_healthy_workloads',
      'failures',
      'failures_detected',
      'median_lead_minutes_slow',
      'max_band_changes_per_failure_episode',
      'nab_windows',
      'nab_windows_caught_critical',
      'nab_escalations_outside_windows_per_1000_points',
    ]);
    expect(out.summary.failures).to.equal(FAILING_BEHAVIOURS.length);
    expect(out.eventsLost).to.equal(0);
    expect(behaviourRows(out.workloads)).to.have.length(HEALTHY_BEHAVIOURS.length + FAILING_BEHAVIOURS.length + 1);
  });

  it('records the rupture snapshot, narrative and actions of each failing workload 60/30/15/0 minutes before its failure', () => {
    for (const w of out.workloads.filter((x) => x.kind === 'failing')) {
      const cps = w.failure!.checkpoints;
      expect(cps.map((c) => c.minutesBefore)).to.deep.equal([60, 30, 15, 0]);
      for (const c of cps) expect(c.rupture).to.have.property('fused_rupture_index');
      expect(w.failure!.failureMs).to.be.greaterThan(w.failure!.onsetMs);
    }
  });

  it('a crash is detected at critical or worse before its failure point; the quiet daily workload raises nothing', () => {
    const crash = out.workloads.find((w) => w.behaviour === 'crash')!;
    expect(crash.failure!.detected).to.equal(true);
    expect(crash.failure!.leadMinutes).to.be.at.least(0);
    const daily = out.workloads.find((w) => w.behaviour === 'daily')!;
    expect(daily.bandEvents).to.equal(0);
    expect(daily.actions).to.equal(0);
  });
});
