import { expect } from 'chai';
import { buildWorkloads } from '../../../tools/eval-alerts/run-eval.js';
import { declaredObjectives, healthyPeaks } from '../../../tools/eval-alerts/workload-objectives.js';
import { Prng } from '../../../tools/eval-alerts/prng.js';

const OPTIONS = { seed: 5, days: 1, perBehaviour: 1, nabDir: null, objectives: true };

describe('eval-alerts: the failure objectives a team declares', () => {
  it('error creep and latency burn: the noise-free level of the input at the failure point', () => {
    const specs = buildWorkloads(OPTIONS);
    const entries = declaredObjectives(specs, buildWorkloads(OPTIONS), new Prng(1));
    for (const [behaviour, metric, key] of [
      ['error_creep', 'error_rate', 'error_rate'],
      ['latency_burn', 'latency_ms', 'latency_ms'],
    ] as const) {
      const i = specs.findIndex((s) => s.behaviour === behaviour);
      const spec = specs[i]!;
      const objective = entries[i]![key]!;
      expect(entries[i]!.selector).to.equal(`eval/Deployment/${spec.name}`);
      expect(objective).to.equal(spec.stated![key]);
      // the mean of the 8 samples up to the failure point (the last 2 min of the ramp, f ≥ 0.99 for a
      // ramp of ≥ 60 min) is the objective within the draw's noise (multiplicative, ≤ 12 % per sample)
      const failure = spec.failure!.failureBucket;
      const values: number[] = [];
      for (let b = 0; b <= failure; b++) {
        const m = spec.sample(b).metrics;
        if (b > failure - 8 && m !== null) values.push(m[metric]!);
      }
      const mean = values.reduce((a, v) => a + v, 0) / values.length;
      expect(mean / objective, behaviour).to.be.within(0.85, 1.1);
    }
  });

  it('every other objective is drawn 2-4× above the workload’s own healthy peak; declaring them leaves the telemetry as it was', () => {
    const specs = buildWorkloads(OPTIONS);
    const entries = declaredObjectives(specs, buildWorkloads(OPTIONS), new Prng(1));
    const fresh = buildWorkloads(OPTIONS);
    specs.forEach((spec, i) => {
      const peaks = healthyPeaks(buildWorkloads(OPTIONS)[i]!);
      const e = entries[i]!;
      if (spec.behaviour !== 'error_creep') expect(e.error_rate!, spec.name).to.be.within(Math.max(0.02, 2 * peaks.errorRate), Math.max(0.02, 4 * peaks.errorRate));
      if (spec.behaviour !== 'latency_burn') expect(e.latency_ms!, spec.name).to.be.within(2 * peaks.latencyMs, 4 * peaks.latencyMs);
      expect(e).to.not.have.any.keys('memory', 'cpu');
      // the same samples as a workload built without declaring anything
      for (let b = spec.startBucket; b < Math.min(spec.endBucket, 400); b++) expect(spec.sample(b)).to.deep.equal(fresh[i]!.sample(b));
    });
  });
});
