import { expect } from 'chai';
import fc from 'fast-check';
import type { SignalReading } from '../../../api-server/src/analysis/contract.js';
import { buildNarrative, narrativeObject, type NarrativeInput } from '../../../api-server/src/analysis/explain/narrative.js';
import { explainOf, snapshotOf } from '../../support/analysis-fixtures.js';
import type { SignalName } from '../../../api-server/src/model/signals.js';
import { SIGNAL_NAMES } from '../../../api-server/src/model/signals.js';

function signals(values: Partial<Record<SignalName, [number, string]>>): Record<SignalName, SignalReading> {
  const out = {} as Record<SignalName, SignalReading>;
  for (const s of SIGNAL_NAMES) {
    const [value, state] = values[s] ?? [0, 'calm'];
    out[s] = { value, state };
  }
  return out;
}

const BASE: NarrativeInput = {
  name: 'cart',
  fusedR: 3.456,
  confidence: 0.873,
  signals: signals({
    stress: [0.72, 'stressed'],
    fatigue: [0.66, 'exhausted'],
    mood: [0.3, 'neutral'],
    pressure: [0.55, 'rising'],
    humidity: [0.1, 'humid'],
    contagion: [0.65, 'epidemic'],
    entropy: [0.2, 'fluctuating'],
    velocity: [0.05, 'steady'],
    health_score: [0.345, 'poor'],
  }),
  contagionSources: [
    { service: 'payments', errorRate: 0.4, calls: 10 },
    { service: 'checkout', errorRate: 0.25, calls: 100 },
  ],
  metricR: 4.2,
  logR: 1.1,
  traceR: 0.8,
  primaryPipeline: 'metric',
  alphaBurst: 0.00123,
  alphaStable: 0.0001,
  recommendation: { type: 'alert', params: { reason: 'circuit_break', dependency: 'payments' }, tier: 2, text: 'Circuit-break the failing dependency payments.' },
  ttfSeconds: 754,
  contextLines: ['Context: deploy (v42) at 2026-11-22T11:47:30.000Z, 12 min before the rupture'],
};

describe('narrative (analytics.md §8.6)', () => {
  it('opens with the announced state, not the band of a FusedR that fell inside the episode', () => {
    // FusedR 0.52 is the stable band; the decision layer announced emergency (an error rate out of line)
    expect(buildNarrative({ ...BASE, fusedR: 0.52, state: 'emergency' }).split('\n')[0]).to.equal('cart is in emergency state (FusedR=0.52, confidence=87%).');
    expect(buildNarrative({ ...BASE, fusedR: 0.52 }).split('\n')[0]).to.equal('cart is in stable state (FusedR=0.52, confidence=87%).');
  });

  it('writes every paragraph of a known critical cascade state', () => {
    const text = buildNarrative(BASE);
    expect(text.split('\n\n')).to.deep.equal([
      'cart is in critical state (FusedR=3.46, confidence=87%).\nContext: deploy (v42) at 2026-11-22T11:47:30.000Z, 12 min before the rupture',
      [
        'Signal analysis:',
        '- stress 0.72 (stressed): heavy load',
        // 0.66/0.05 × 15/3600 = 0.055 h (binary 0.0549…)
        '- fatigue 0.66 (exhausted): accumulated over about 0.05 h',
        '- pressure 0.55 (rising): rate of change escalating',
        '- contagion 0.65 (epidemic): errors propagating',
        '- mood 0.30 (neutral): user experience degraded',
        '- health_score 0.34 (poor)',
      ].join('\n'),
      'This is a cascade rupture, not an isolated event: errors are propagating from checkout (error rate 0.25), payments (error rate 0.40) (contagion=0.65).',
      'Dominant pipeline: metric (metricR=4.20, 5-min slope 0.00123/s against 60-min slope 0.0001/s).',
      'Recommended action: Circuit-break the failing dependency payments.',
      'Estimated time to failure: 12 minutes.',
    ]);
  });

  it('names upstream contagion below 0.6, else trace and log causes', () => {
    const upstream = buildNarrative({ ...BASE, signals: { ...BASE.signals, contagion: { value: 0.45, state: 'spreading' } } });
    expect(upstream).to.contain('Contagion from upstream: checkout (error rate 0.25), payments (error rate 0.40) (contagion=0.45).');
    const noSources = { ...BASE, contagionSources: [], signals: { ...BASE.signals, contagion: { value: 0.2, state: 'isolated' } } };
    expect(buildNarrative({ ...noSources, traceR: 1.6 })).to.contain('Dependency degradation: trace errors and latency put traceR at 1.60.');
    expect(buildNarrative({ ...noSources, logR: 2.5 })).to.contain('Log burst: error and warning lines at 2.50x the baseline (logR=2.50).');
    const plain = buildNarrative({ ...noSources, signals: { ...noSources.signals, fatigue: { value: 0.35, state: 'tired' } } });
    expect(plain.split('\n\n')).to.have.length(5);
    expect(plain).to.contain('- fatigue 0.35 (tired): building');
    // contagion below 0.3 ignores sources
    expect(buildNarrative({ ...BASE, signals: { ...BASE.signals, contagion: { value: 0.29, state: 'isolated' } } })).to.not.contain('upstream');
  });

  it('writes the dominant pipeline, ttf in seconds, "now" at 0 and omits ttf at the 6-h cap', () => {
    expect(buildNarrative({ ...BASE, primaryPipeline: 'log' })).to.contain('Dominant pipeline: log (logR=1.10).');
    expect(buildNarrative({ ...BASE, primaryPipeline: 'trace' })).to.contain('Dominant pipeline: trace (traceR=0.80).');
    expect(buildNarrative({ ...BASE, alphaStable: 0 })).to.contain('Dominant pipeline: metric (metricR=4.20).');
    expect(buildNarrative({ ...BASE, ttfSeconds: 45 })).to.contain('Estimated time to failure: 45 seconds.');
    expect(buildNarrative({ ...BASE, ttfSeconds: 60 })).to.contain('Estimated time to failure: 1 minute.');
    expect(buildNarrative({ ...BASE, ttfSeconds: 3600 })).to.contain('Estimated time to failure: 60 minutes.');
    expect(buildNarrative({ ...BASE, ttfSeconds: 21_599 })).to.contain('Estimated time to failure: 359 minutes.');
    expect(buildNarrative({ ...BASE, ttfSeconds: 21_600 })).to.not.contain('Estimated time');
    expect(buildNarrative({ ...BASE, ttfSeconds: 0 })).to.contain('Estimated time to failure: now.');
    expect(buildNarrative({ ...BASE, confidence: null, fusedR: 5 }).split('\n')[0]).to.equal('cart is in emergency state (FusedR=5.00).');
  });

  it('gives the narrative object of a record', () => {
    const r = explainOf(snapshotOf('shop/Deployment/cart'), { fusedR: 2.0, narrative: 'x', ttfSeconds: 120, topFactor: 'fatigue', primaryPipeline: 'log' });
    expect(narrativeObject(r)).to.deep.equal({ narrative: 'x', severity: 'warning', primaryPipeline: 'log', topFactor: 'fatigue', ttfSeconds: 120 });
  });

  it('never writes NaN or Infinity', () => {
    const num = fc.oneof(fc.double(), fc.double({ min: 0, max: 1 }));
    fc.assert(
      fc.property(fc.array(num, { minLength: 17, maxLength: 17, size: 'max' }), (v) => {
        const sig = {} as Record<SignalName, SignalReading>;
        SIGNAL_NAMES.forEach((s, i) => (sig[s] = { value: v[i], state: 'x' }));
        const text = buildNarrative({
          ...BASE,
          signals: sig,
          fusedR: v[10],
          confidence: v[11],
          metricR: v[12],
          logR: v[13],
          traceR: v[14],
          alphaBurst: v[15],
          ttfSeconds: v[16],
          contagionSources: [{ service: 'a', errorRate: v[0], calls: 1 }],
        });
        if (/NaN|Infinity/.test(text)) throw new Error(text);
      }),
    );
  });
});
