import { expect } from 'chai';
import { mayCreateAction } from '../../../api-server/src/actions/creation-gate.js';
import { snapshotOf } from '../../support/analysis-fixtures.js';

describe('actions: the creation gate (sustained, confirmed critical on fresh telemetry)', () => {
  const key = 'shop/Deployment/api';
  it('creates only after 2 minutes of announced critical with FusedR still ≥ 2.5', () => {
    expect(mayCreateAction(snapshotOf(key, { fusedR: 3, criticalForMs: 119_999 }))).to.equal(false);
    expect(mayCreateAction(snapshotOf(key, { fusedR: 3, criticalForMs: 120_000 }))).to.equal(true);
    expect(mayCreateAction(snapshotOf(key, { fusedR: 2.4, criticalForMs: 600_000 }))).to.equal(false);
    expect(mayCreateAction(snapshotOf(key, { fusedR: 3, criticalForMs: undefined }))).to.equal(false);
  });

  it('no action on stale telemetry (metricR absent), below critical, or while calibrating', () => {
    const sources = { metricR: null, logR: 3, traceR: null, traceRA: null, primaryMetric: null, alphaBurst: 0, alphaStable: 0 };
    expect(mayCreateAction(snapshotOf(key, { fusedR: 3, criticalForMs: 600_000, sources }))).to.equal(false);
    expect(mayCreateAction(snapshotOf(key, { fusedR: 3, criticalForMs: 600_000, state: 'warning' }))).to.equal(false);
    expect(mayCreateAction(snapshotOf(key, { fusedR: 3, criticalForMs: 600_000, status: 'calibrating' }))).to.equal(false);
  });
});
