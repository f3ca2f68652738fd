import { expect } from 'chai';
import { anomalyJson, kpiJson, listItemJson, refOf, snapshotJson } from '../../../../api-server/src/http/render/snapshot-json.js';
import { snapshotOf } from '../../../support/analysis-fixtures.js';
import { SIGNAL_NAMES } from '../../../../api-server/src/model/signals.js';

const T = Date.UTC(2026, 10, 27);

describe('http/render/snapshot-json: snapshots, KPI readings and anomalies', () => {
  it('refOf parses a key, and reads anything else as a default/host name', () => {
    expect(refOf('shop/Deployment/cart')).to.deep.equal({ namespace: 'shop', kind: 'Deployment', name: 'cart' });
    expect(refOf('node-1')).to.deep.equal({ namespace: 'default', kind: 'host', name: 'node-1' });
  });

  it('rounds FusedR and confidence to 3 places, signals and health to 4, calibration to whole numbers', () => {
    const signals = Object.fromEntries(SIGNAL_NAMES.map((s) => [s, { value: 0.123456, state: 'calm' }])) as ReturnType<typeof snapshotOf>['signals'];
    const s = snapshotOf('default/host/node-1', { timeMs: T, fusedR: 2.34567, confidence: 0.98765, calibrationProgress: 42.6, calibrationEtaMinutes: 7.4, signals });
    const json = snapshotJson(s);
    expect(json).to.deep.include({ host: 'node-1', fused_rupture_index: 2.346, health_score: 0.1235, confidence: 0.988, calibration_progress: 43, calibration_eta_minutes: 7, timestamp: '2026-11-27T00:00:00.000Z' });
    expect(json.workload).to.deep.equal({ namespace: 'default', kind: 'host', name: 'node-1' });
    for (const name of SIGNAL_NAMES.filter((n) => n !== 'health_score')) expect(json[name], name).to.deep.equal({ value: 0.1235, state: 'calm' });
    expect(json).to.not.have.property('sources');
  });

  it('renders a pattern match with its note only when it has one', () => {
    const match = { similarity: 0.91234, matchedRuptureId: 'r_00000000000c', matchedAtMs: T };
    expect(snapshotJson(snapshotOf('a/Deployment/b', { patternMatch: match })).pattern_match).to.deep.equal({
      similarity: 0.912,
      matched_rupture_id: 'r_00000000000c',
      matched_at: '2026-11-27T00:00:00.000Z',
    });
    expect(snapshotJson(snapshotOf('a/Deployment/b', { patternMatch: { ...match, resolutionNote: 'restarted' } })).pattern_match).to.include({ resolution_note: 'restarted' });
    expect(snapshotJson(snapshotOf('a/Deployment/b')).pattern_match).to.equal(null);
  });

  it('a list item carries the summary fields only', () => {
    expect(Object.keys(listItemJson(snapshotOf('a/Deployment/b'))).sort()).to.deep.equal(
      ['calibration_eta_minutes', 'calibration_progress', 'fused_rupture_index', 'health_score', 'phase', 'rupture_id', 'state', 'status', 'timestamp', 'workload'],
    );
  });

  it('a KPI reading names the host on legacy routes and the workload otherwise', () => {
    const s = snapshotOf('default/host/node-1', { timeMs: T });
    expect(kpiJson(s, 'stress', true)).to.deep.equal({ signal: 'stress', host: 'node-1', value: 0.5, state: 'nervous', timestamp: '2026-11-27T00:00:00.000Z' });
    expect(kpiJson(s, 'stress', false)).to.deep.include({ workload: { namespace: 'default', kind: 'host', name: 'node-1' } });
  });

  it('renders an anomaly with value and expected to 4 places, score to 3', () => {
    const json = anomalyJson({ id: 'an_1', workload: 'shop/Deployment/cart', metric: 'cpu', method: 'mad', severity: 'critical', value: 91.234567, expected: 40.00004, score: 6.54321, consensus: true, timeMs: T });
    expect(json).to.deep.equal({
      id: 'an_1',
      host: 'shop/Deployment/cart',
      workload: { namespace: 'shop', kind: 'Deployment', name: 'cart' },
      metric: 'cpu',
      method: 'mad',
      severity: 'critical',
      value: 91.2346,
      expected: 40,
      score: 6.543,
      consensus: true,
      timestamp: '2026-11-27T00:00:00.000Z',
    });
  });
});
