import { expect } from 'chai';
import fc from 'fast-check';
import { AlertDecision, type InputLines } from '../../../api-server/src/analysis/decision/alert-decision.js';

/** the four metricR inputs, and one the layer does not judge by level */
const INPUTS = ['cpu', 'memory', 'latency', 'error_rate', 'queue_depth'] as const;
const STEP_MS = 15_000;

function lines(level: number, before: number, slope: number): InputLines {
  return { burstSlope: slope, burstStdError: () => Math.abs(slope) / 4, burstSpan: 285, stableSlope: slope / 10, burstMean: level, stableMean: before };
}

/** one input's levels: a base, then a jump of `jump` from step `at` (a departure, a trend or a climb to judge) */
const inputPath = fc.record({
  base: fc.double({ min: 0, max: 0.6, noNaN: true }),
  noise: fc.double({ min: 0, max: 0.05, noNaN: true }),
  at: fc.integer({ min: 0, max: 500 }),
  jump: fc.double({ min: -0.2, max: 0.6, noNaN: true }),
  ramp: fc.double({ min: 0, max: 0.004, noNaN: true }),
});

/** per step: which inputs come, in which order (a permutation's seed), and the step's FusedR */
const stepPlan = fc.record({
  present: fc.integer({ min: 0, max: 31 }),
  order: fc.nat(),
  // mostly 0, so that the bands come from the rules' floors
  fusedR: fc.oneof({ arbitrary: fc.constant(0), weight: 9 }, { arbitrary: fc.double({ min: 0, max: 4, noNaN: true }), weight: 1 }),
});

describe('decision: the layer keeps what it looked up for each level slot (alert-decision.ts slot caches)', () => {
  it('decides as a layer restored from its saved state at every step (nothing kept), whatever inputs come in whatever order', () => {
    let judged = 0;
    fc.assert(
      fc.property(
        fc.array(inputPath, { minLength: INPUTS.length, maxLength: INPUTS.length, size: 'max' }),
        fc.array(stepPlan, { minLength: 60, maxLength: 600, size: 'max' }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (paths, plan, seed) => {
          const warm = new AlertDecision();
          let cold = new AlertDecision();
          let rng = seed;
          const noise = (): number => {
            rng = (Math.imul(rng, 1103515245) + 12345) >>> 0;
            return rng / 2 ** 32 - 0.5;
          };
          plan.forEach((step, i) => {
            // usually all five in their usual order (the service's case), sometimes a subset or another order
            const usual = step.order % 4 !== 0;
            const present = usual ? INPUTS.slice() : INPUTS.filter((_, k) => (step.present & (1 << k)) !== 0);
            if (!usual) for (let k = present.length - 1; k > 0; k--) {
              const j = (step.order >>> k) % (k + 1);
              [present[k], present[j]] = [present[j]!, present[k]!];
            }
            const timeMs = i * STEP_MS;
            for (const input of present) {
              const p = paths[INPUTS.indexOf(input)]!;
              const level = p.base + p.noise * noise() + (i >= p.at ? p.jump + p.ramp * (i - p.at) : 0);
              const l = lines(level, p.base, i >= p.at ? p.ramp : 0);
              expect(warm.metricRatio(input, l)).to.equal(cold.metricRatio(input, l));
            }
            const a = warm.decide('ns/Deployment/w', step.fusedR, timeMs, false);
            const b = cold.decide('ns/Deployment/w', step.fusedR, timeMs, false);
            expect(a).to.deep.equal(b, `step ${i}`);
            if (a.band !== 'normal') judged++;
            const saved = warm.toJSON();
            expect(saved).to.deep.equal(cold.toJSON(), `step ${i}`);
            expect(JSON.stringify(saved)).to.equal(JSON.stringify(cold.toJSON()), `key order, step ${i}`);
            cold = AlertDecision.fromJSON(JSON.parse(JSON.stringify(cold.toJSON())) as unknown);
          });
        },
      ),
      { numRuns: 60, seed: 1323 },
    );
    // the runs reach episodes (the trends, departures and climbs decide bands), not only normal steps
    expect(judged).to.be.greaterThan(100);
  });
});
