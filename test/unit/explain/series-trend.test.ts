import { expect } from 'chai';
import fc from 'fast-check';
import { SeriesEnsemble } from '../../../api-server/src/analysis/ensemble/index.js';
import { burstLineOf } from '../../../api-server/src/analysis/anomaly/index.js';
import { seriesTrend } from '../../../api-server/src/analysis/explain/diagnosis-inputs.js';
import type { InputTrend } from '../../../api-server/src/analysis/explain/diagnosis.js';
import { earliestInputEta, theilSenSlope, type EtaInput, type FailureEdges, DEFAULT_FAILURE_EDGES } from '../../../api-server/src/analysis/explain/failure-eta.js';

/** seriesTrend as it was written over the stable line's saved points (arrays built per call) */
function referenceTrend(name: string, ensemble: SeriesEnsemble, counter = false): InputTrend | null {
  const line = ensemble.stableLine;
  if (line.count < 2) return null;
  const { xs, ys } = line.toJSON();
  const last = ys.length - 1;
  let at = 0;
  if (!counter) for (let i = 1; i <= last; i++) if (ys[i]! <= ys[at]!) at = i;
  const from = ys[at]!;
  const to = ys[last]!;
  const span = xs[last]! - xs[at]!;
  const burst = burstLineOf(ensemble);
  const startX = Math.min(Math.max(xs[at]!, xs[last]! - 30 * 60), xs[last]! - 5 * 60);
  let climb = last;
  while (climb > 0 && xs[climb - 1]! >= startX) climb -= 1;
  return {
    input: name,
    from,
    to,
    spanSeconds: span,
    slopePerSecond: span > 0 ? (to - from) / span : 0,
    burstSlopePerSecond: burst.count >= 2 ? burst.slope() : 0,
    robustSlopePerSecond: counter ? Number.NaN : theilSenSlope(xs, ys, climb),
  };
}

/** earliestInputEta as it was written: every input the 60-min slope lets in is refined */
function referenceEta(inputs: readonly EtaInput[], refine: (input: EtaInput['input']) => number, edges: FailureEdges): number | null {
  let best: number | null = null;
  for (const i of inputs) {
    const edge = edges.level[i.input];
    const at = (slope: number): number | null => {
      if (!Number.isFinite(i.last)) return null;
      if (i.last >= edge) return 0;
      if (!(slope > 0) || !Number.isFinite(slope)) return null;
      return Math.floor(Math.min(6 * 3600, (edge - i.last) / slope));
    };
    const rough = at(i.stableSlope);
    if (rough === null || rough >= 6 * 3600) continue;
    const slope = refine(i.input);
    const eta = Number.isFinite(slope) && slope > 0 ? (at(slope) ?? rough) : rough;
    if (best === null || eta < best) best = eta;
  }
  return best;
}

/** both trends field for field, NaN equal to NaN */
function expectSameTrend(got: InputTrend | null, expected: InputTrend | null): void {
  if (expected === null) {
    expect(got).to.equal(null);
    return;
  }
  expect(got).to.not.equal(null);
  for (const k of Object.keys(expected) as (keyof InputTrend)[]) {
    const a = got![k];
    const b = expected[k];
    if (typeof b === 'number' && Number.isNaN(b)) expect(Number.isNaN(a as number), k).to.equal(true);
    else expect(a, k).to.equal(b);
  }
}

describe('seriesTrend reads the stable line in place', () => {
  it('gives what the trend over the saved points gives, through the window fill, the ring wrap and flat stretches (fast-check)', () => {
    const value = fc.oneof(fc.double({ min: -10, max: 10, noNaN: true }), fc.constantFrom(0, -0, 1, 0.3));
    fc.assert(
      fc.property(fc.array(value, { minLength: 0, maxLength: 420, size: 'max' }), fc.integer({ min: 1, max: 30 }), fc.boolean(), (ys, every, counter) => {
        const e = new SeriesEnsemble();
        for (let i = 0; i < ys.length; i++) {
          e.observe(ys[i]!, 1_700_000_000 + 15 * i);
          if (i % every === 0 || i === ys.length - 1) expectSameTrend(seriesTrend('cpu', e, counter), referenceTrend('cpu', e, counter));
        }
        expect(seriesTrend('cpu', undefined)).to.equal(null);
      }),
      { numRuns: 60 },
    );
  });
});

describe('earliestInputEta refines only the inputs below their edge', () => {
  it('gives the ETA of refining every input the 60-min slope lets in (fast-check)', () => {
    const inputName = fc.constantFrom<EtaInput['input']>('memory', 'cpu', 'latency', 'error_rate');
    const input = fc.record({
      input: inputName,
      last: fc.oneof(fc.double({ min: -1, max: 2, noNaN: true }), fc.constantFrom(0.25, 1, Number.NaN, 0.9999)),
      stableSlope: fc.oneof(fc.double({ min: -1e-3, max: 1e-3, noNaN: true }), fc.constantFrom(0, Number.NaN, 1e-9)),
    });
    const edges: FailureEdges = { level: { memory: 0.8, cpu: 1, latency: 0.5, error_rate: 0.25 }, objective: { memory: true, cpu: false, latency: true, error_rate: false } };
    fc.assert(
      fc.property(fc.array(input, { maxLength: 4 }), fc.oneof(fc.double({ min: -1e-3, max: 1e-2, noNaN: true }), fc.constant(Number.NaN)), fc.boolean(), (inputs, refined, custom) => {
        const e = custom ? edges : DEFAULT_FAILURE_EDGES;
        const refine = (): number => refined;
        const got = earliestInputEta(inputs, refine, e);
        const expected = referenceEta(inputs, refine, e);
        if (expected !== null && Number.isNaN(expected)) expect(Number.isNaN(got as number)).to.equal(true);
        else expect(got).to.equal(expected);
      }),
      { numRuns: 1000 },
    );
  });
});
