import { expect } from 'chai';
import { SIMULATION_PATTERNS, patternSample } from '../../../api-server/src/simulation/patterns.js';

const midNoise = (): number => 0.5; // j(a) = 0

describe('simulation patterns (analytics.md §10)', () => {
  it('memory-leak: memory +0.02 per tick, errors past 60 % memory', () => {
    expect(patternSample('memory-leak', 0, midNoise)).to.deep.include({ memory_percent: 0.1, cpu_percent: 0.25, error_rate: 0, request_rate: 80 });
    const k30 = patternSample('memory-leak', 30, midNoise);
    expect(k30.memory_percent).to.be.closeTo(0.7, 1e-12);
    expect(k30.error_rate).to.be.closeTo(0.05, 1e-12);
    expect(k30.timeout_rate).to.be.closeTo(0.015, 1e-12);
    expect(patternSample('memory-leak', 45, midNoise).memory_percent).to.equal(1);
    expect(patternSample('memory-leak', 100, midNoise).error_rate).to.equal(0.2);
  });

  it('cascade-failure: errors from tick 5, 0.15 per tick, capped at 0.95', () => {
    expect(patternSample('cascade-failure', 4, midNoise).error_rate).to.equal(0);
    const k7 = patternSample('cascade-failure', 7, midNoise);
    expect(k7.error_rate).to.be.closeTo(0.3, 1e-12);
    expect(k7.request_rate).to.be.closeTo(76, 1e-9);
    expect(patternSample('cascade-failure', 20, midNoise).error_rate).to.equal(0.95);
  });

  it('traffic-surge: load triples by 100 s', () => {
    expect(patternSample('traffic-surge', 0, midNoise).request_rate).to.equal(50);
    expect(patternSample('traffic-surge', 20, midNoise)).to.deep.include({ request_rate: 150, cpu_percent: 0.8 });
    expect(patternSample('traffic-surge', 20, midNoise).error_rate).to.be.closeTo(0.05, 1e-12);
  });

  it('slow-burn: cpu reaches 1 near tick 284 (about 23.6 min)', () => {
    expect(patternSample('slow-burn', 283, midNoise).cpu_percent).to.be.lessThan(1);
    expect(patternSample('slow-burn', 284, midNoise).cpu_percent).to.equal(1);
  });

  it('every pattern keeps fractions in [0,1] for any noise', () => {
    for (const pattern of SIMULATION_PATTERNS) {
      for (const noise of [() => 0, () => 0.999999]) {
        for (let k = 0; k < 400; k += 7) {
          const s = patternSample(pattern, k, noise);
          for (const v of [s.memory_percent, s.cpu_percent, s.load_avg_1, s.error_rate, s.timeout_rate]) {
            expect(v).to.be.within(0, 1);
          }
        }
      }
    }
  });
});
