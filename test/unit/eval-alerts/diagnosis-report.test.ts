import { expect } from 'chai';
import type { WorkloadResult } from '../../../tools/eval-alerts/score.js';
import { diagnosisRows, medianEtaError30, readCheckpoint } from '../../../tools/eval-alerts/diagnosis-report.js';

function failing(name: string, behaviour: string, checkpoints: { minutesBefore: number; ttf: number | null; factor: string; type: string; reason?: string }[]): WorkloadResult {
  return {
    seed: 1,
    name,
    behaviour,
    kind: 'failing',
    days: 1,
    bandEvents: 0,
    escalationsWarning: 0,
    escalationsCritical: 0,
    criticalAnomalies: 0,
    criticalAnomaliesByMetric: {},
    actions: 0,
    failure: {
      onsetMs: 0,
      failureMs: 0,
      slow: true,
      detected: true,
      leadMinutes: 30,
      bandChangesInEpisode: 1,
      escalationsBeforeOnset: 0,
      episodeEvents: [{ type: 'critical', minutesAfterOnset: 10 }],
      checkpoints: checkpoints.map((c) => ({
        minutesBefore: c.minutesBefore,
        rupture: { health_forecast: { critical_eta_minutes: 0 } },
        narrative: {
          top_factor: c.factor,
          ttf_seconds: c.ttf ?? 21_600,
          diagnosis: { eta_basis: c.ttf === null ? 'none' : 'input-trend' },
          recommendation: { type: c.type, params: c.reason === undefined ? {} : { reason: c.reason } },
        },
        actions: [],
      })),
    },
  };
}

describe('eval:alerts diagnosis report', () => {
  it('judges the latest reading before the failure and the ETA error per checkpoint', () => {
    const leak = failing('leak-0', 'memory_leak', [
      { minutesBefore: 60, ttf: 50 * 60, factor: 'cpu', type: 'scale' },
      { minutesBefore: 30, ttf: 34 * 60, factor: 'memory', type: 'restart' },
      { minutesBefore: 15, ttf: 12 * 60, factor: 'memory', type: 'restart' },
      { minutesBefore: 0, ttf: 0, factor: 'memory', type: 'restart' },
    ]);
    const creep = failing('creep-0', 'error_creep', [
      { minutesBefore: 30, ttf: null, factor: 'error_rate', type: 'alert', reason: 'investigate' },
      { minutesBefore: 15, ttf: 40 * 60, factor: 'error_rate', type: 'alert', reason: 'investigate' },
    ]);
    const [l, c] = diagnosisRows([leak, creep]);
    expect(l).to.include({ kind: 'memory_leak', factorRight: 1, actionRight: 1 });
    // |50 − 60| = 10, |34 − 30| = 4, |12 − 15| = 3
    expect(l!.eta[60]).to.deep.equal({ median: 10, n: 1, of: 1 });
    expect(l!.eta[30]).to.deep.equal({ median: 4, n: 1, of: 1 });
    expect(l!.eta[15]).to.deep.equal({ median: 3, n: 1, of: 1 });
    expect(c).to.include({ kind: 'error_creep', factorRight: 1, actionRight: 1 });
    expect(c!.eta[30]).to.deep.equal({ median: null, n: 0, of: 1 });
    expect(medianEtaError30([leak, creep])).to.deep.equal({ median: 4, n: 1, of: 2 });
  });

  it('reads no estimate from a basis of none and falls back to the snapshot critical ETA', () => {
    expect(readCheckpoint({ minutesBefore: 30, rupture: { health_forecast: { critical_eta_minutes: 25 } }, narrative: null, actions: [] })).to.deep.include({ etaMinutes: 25, topFactor: null, action: null });
  });
});
