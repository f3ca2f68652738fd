import { expect } from 'chai';
import fc from 'fast-check';
import { ChangeEnvelope, DEFAULT_ENVELOPE, type ChangeEnvelopeState, type EnvelopeConfig } from '../../../api-server/src/analysis/decision/change-envelope.js';

/** the envelope as a Map of { peak, pending[] } per input, with push and shift: what the rows must equal */
class ReferenceEnvelope {
  private readonly inputs = new Map<string, { peak: number; pending: number[] }>();
  private readonly decay: number;

  constructor(private readonly config: EnvelopeConfig) {
    this.decay = Math.pow(0.5, 1 / config.halfLifeSteps);
  }

  threshold(input: string, floor: number): number {
    return Math.max(floor, this.config.margin * (this.inputs.get(input)?.peak ?? 0));
  }

  observe(input: string, change: number): void {
    let e = this.inputs.get(input);
    if (e === undefined) this.inputs.set(input, (e = { peak: 0, pending: [] }));
    e.pending.push(Number.isFinite(change) ? Math.abs(change) : 0);
    const decayed = e.peak * this.decay;
    const due = e.pending.length > this.config.lagSteps ? e.pending.shift()! : 0;
    e.peak = due > decayed ? due : decayed;
  }

  toJSON(): ChangeEnvelopeState {
    const out: ChangeEnvelopeState = {};
    for (const [k, e] of this.inputs) out[k] = { peak: e.peak, pending: [...e.pending] };
    return out;
  }
}

describe('decision: the change envelope in rows of one Float64Array', () => {
  it('holds a new input in a row of its own: hand-checked peaks of two inputs with lag 1, half-life 1', () => {
    const e = new ChangeEnvelope({ halfLifeSteps: 1, margin: 2, lagSteps: 1 });
    e.observe('cpu', -0.4);
    e.observe('memory', 0.3);
    expect([e.peak('cpu'), e.peak('memory')]).to.deep.equal([0, 0]);
    e.observe('cpu', 0.1); // 0.4 leaves into the peak
    e.observe('memory', Number.NaN); // 0.3 leaves; NaN pends as 0
    expect([e.peak('cpu'), e.peak('memory')]).to.deep.equal([0.4, 0.3]);
    e.observe('cpu', 0); // 0.1 against 0.4 / 2
    expect(e.peak('cpu')).to.equal(0.2);
    expect(e.threshold('cpu', 0.05)).to.equal(0.4);
    expect(e.threshold('latency', 0.05)).to.equal(0.05);
    expect(e.toJSON()).to.deep.equal({ cpu: { peak: 0.2, pending: [0] }, memory: { peak: 0.3, pending: [0] } });
  });

  it('equals the Map of pending arrays bit for bit, step by step and through saved states (property)', () => {
    const change = fc.oneof(fc.double(), fc.constant(-0), fc.constant(Number.POSITIVE_INFINITY), fc.double({ min: -2, max: 2, noNaN: true }));
    const step = fc.record({ input: fc.constantFrom('cpu', 'memory', 'latency', 'error_rate'), change, save: fc.integer({ min: 0, max: 15 }).map((k) => k === 0) });
    const config = fc.record({ halfLifeSteps: fc.integer({ min: 1, max: 6000 }), margin: fc.double({ min: 0, max: 4, noNaN: true }), lagSteps: fc.integer({ min: 1, max: 12 }) });
    fc.assert(
      fc.property(config, fc.array(step, { minLength: 60, maxLength: 300, size: 'max' }), (cfg, steps) => {
        let rows = new ChangeEnvelope(cfg);
        const reference = new ReferenceEnvelope(cfg);
        for (const { input, change: c, save } of steps) {
          expect(Object.is(rows.threshold(input, 0.05), reference.threshold(input, 0.05))).to.equal(true);
          rows.observe(input, c);
          reference.observe(input, c);
          expect(rows.toJSON()).to.deep.equal(reference.toJSON());
          if (save) rows = ChangeEnvelope.fromJSON(JSON.parse(JSON.stringify(rows.toJSON())) as ChangeEnvelopeState, cfg);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a saved state with more pending changes than the lag keeps the newest lagSteps of them', () => {
    const e = ChangeEnvelope.fromJSON({ cpu: { peak: 0, pending: [5, 4, 3, 2, 1] } }, { ...DEFAULT_ENVELOPE, lagSteps: 3, halfLifeSteps: 1 });
    expect(e.toJSON()).to.deep.equal({ cpu: { peak: 0, pending: [3, 2, 1] } });
    e.observe('cpu', 0);
    expect(e.peak('cpu')).to.equal(3);
  });
});
