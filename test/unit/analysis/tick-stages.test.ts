import { expect } from 'chai';
import fc from 'fast-check';
import { criticalEtaMinutes } from '../../../api-server/src/analysis/stages/explain-stage.js';
import { HealthHistory, healthForecastStep, nearMissStep } from '../../../api-server/src/analysis/stages/forecast-stage.js';
import { FingerprintStage } from '../../../api-server/src/analysis/stages/fingerprint-stage.js';
import { traceStep } from '../../../api-server/src/analysis/stages/trace-stage.js';
import { OpenBucket } from '../../../api-server/src/analysis/buckets/workload-buckets.js';
import { explainOf, snapshotOf } from '../../support/analysis-fixtures.js';

describe('analysis tick stages (analysis/stages/)', () => {
  it('critical ETA: an open rupture its explain record’s (754 s → 12 min; basis none → 0), else the input trend’s (125 s → 2 min), else none', () => {
    const open = explainOf(snapshotOf('ns/Deployment/a'), { closedAtMs: null, etaBasis: 'input-trend', ttfSeconds: 754 });
    expect(criticalEtaMinutes(open, 125)).to.equal(12);
    expect(criticalEtaMinutes({ ...open, etaBasis: 'none' }, 125)).to.equal(0);
    expect(criticalEtaMinutes({ ...open, closedAtMs: 1000 }, 125)).to.equal(2);
    expect(criticalEtaMinutes(null, 125)).to.equal(2);
    expect(criticalEtaMinutes(null, null)).to.equal(null);
  });

  it('the health history keeps the last 60 values, oldest first, as a ring once full', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 200, size: 'max' }), (values) => {
        const h = new HealthHistory();
        for (const v of values) h.push(v);
        expect(h.values()).to.deep.equal(values.slice(-60));
        expect(HealthHistory.of(values).values()).to.deep.equal(values.slice(-60));
      }),
    );
  });

  it('an input ETA of 754 s sets the forecast’s critical ETA to 12 minutes; none leaves it as forecast', () => {
    expect(healthForecastStep(new HealthHistory(), 0.9, true, 15_000, 754).criticalEtaMinutes).to.equal(12);
    const same = new HealthHistory();
    same.push(0.9);
    expect(healthForecastStep(new HealthHistory(), 0.9, true, 15_000, null)).to.deep.equal(same.forecast(true, 15_000));
  });

  it('the near-miss tracker exists from the first FusedR ≥ 2, not before', () => {
    expect(nearMissStep(null, 1.99, 15_000)).to.equal(null);
    const t = nearMissStep(null, 2, 15_000);
    expect(t).to.not.equal(null);
    expect(nearMissStep(t, 0.5, 30_000)).to.equal(t);
  });

  it('fingerprints are wanted once calibrated at FusedR > 3, or to match once one exists', () => {
    expect(FingerprintStage.wanted(null, false, 5)).to.equal(false);
    expect(FingerprintStage.wanted(null, true, 3)).to.equal(false);
    expect(FingerprintStage.wanted(null, true, 3.01)).to.equal(true);
    expect(FingerprintStage.wanted(FingerprintStage.empty('ns/Deployment/a'), true, 0.5)).to.equal(false);
  });

  it('traces: no span window, no trace source (traceR and traceRA null)', () => {
    const r = traceStep(null, new OpenBucket(3), 60_000);
    expect(r.traceR).to.equal(null);
    expect(r.traceRA).to.equal(null);
  });
});
