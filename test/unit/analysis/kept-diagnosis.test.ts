import { expect } from 'chai';
import type { Diagnosis } from '../../../api-server/src/analysis/explain/diagnosis.js';
import { keptDiagnosis } from '../../../api-server/src/analysis/stages/explain-stage.js';
import { explainOf, snapshotOf } from '../../support/analysis-fixtures.js';

const base = { trafficRising: false, afterDeploy: false, deploy: null, projected30Min: null };
const undetermined: Diagnosis = { ...base, kind: 'undetermined', factor: null, summary: 'no input moved enough to name a cause', dependency: null, etaSeconds: null };
const burn: Diagnosis = { ...base, kind: 'latency-burn', factor: 'latency', summary: 'latency 153 ms → 304 ms in 57 min, +159 ms/h', dependency: null, etaSeconds: 900, projected30Min: 0.66 };

describe('keptDiagnosis: an open episode keeps the cause it named', () => {
  const snapshot = snapshotOf('eval/Deployment/latency-burn-0', { timeMs: 1_000_000, ruptureId: 'r_00000000000a' });
  const named = explainOf(snapshot, { diagnosis: burn, updatedAtMs: 1_000_000 });

  it('an undetermined step keeps the named cause, its ETA counted down by the 5 min since (900 s → 600 s)', () => {
    const kept = keptDiagnosis(undetermined, named, 'r_00000000000a', 1_300_000);
    expect(kept.kind).to.equal('latency-burn');
    expect(kept.summary).to.equal(burn.summary);
    expect(kept.etaSeconds).to.equal(600);
    // past the ETA it stays at 0, never negative
    expect(keptDiagnosis(undetermined, named, 'r_00000000000a', 2_500_000).etaSeconds).to.equal(0);
  });

  it('a named diagnosis replaces the previous one; nothing is kept across episodes, after a close or from an undetermined record', () => {
    const creep: Diagnosis = { ...burn, kind: 'error-creep', factor: 'error_rate', summary: 'error rate 1 % → 9 %' };
    expect(keptDiagnosis(creep, named, 'r_00000000000a', 1_300_000)).to.equal(creep);
    expect(keptDiagnosis(undetermined, named, 'r_00000000000b', 1_300_000)).to.equal(undetermined);
    expect(keptDiagnosis(undetermined, { ...named, closedAtMs: 1_200_000 }, 'r_00000000000a', 1_300_000)).to.equal(undetermined);
    expect(keptDiagnosis(undetermined, { ...named, diagnosis: undetermined }, 'r_00000000000a', 1_300_000)).to.equal(undetermined);
    expect(keptDiagnosis(undetermined, null, 'r_00000000000a', 1_300_000)).to.equal(undetermined);
  });

  it('a dependency keeps its null ETA', () => {
    const dep: Diagnosis = { ...burn, kind: 'failing-dependency', factor: 'dependency:store', dependency: 'store', etaSeconds: null };
    expect(keptDiagnosis(undetermined, { ...named, diagnosis: dep }, 'r_00000000000a', 1_300_000).etaSeconds).to.equal(null);
  });
});
