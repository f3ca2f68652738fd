import { expect } from 'chai';
import { ClassicLevel } from 'classic-level';
import { AnalysisCoreImpl } from '../../../api-server/src/analysis/analysis-core.js';
import type { AnomalyEvent } from '../../../api-server/src/analysis/contract.js';
import { localReads } from '../../../api-server/src/reads/workload-reads.js';
import { AnalysisStore, type KpiPoint } from '../../../api-server/src/storage/analysis-store.js';
import { explainOf, snapshotOf } from '../../support/analysis-fixtures.js';
import { makeTempDir } from '../../support/temp-dir.js';

const T = 1_700_000_000_000;
const W = 'shop/Deployment/cart';
const anomaly = (id: string, offsetMs: number, metric: string): AnomalyEvent => ({
  id,
  workload: W,
  metric,
  method: 'mad',
  severity: 'warning',
  value: 1,
  expected: 0,
  score: 4,
  consensus: false,
  timeMs: T + offsetMs,
});
const kpi = (t: number): KpiPoint => ({ t, fused_r: 1, health: 1, stress: 0, fatigue: 0, mood: 1, pressure: 0.5, humidity: 0, contagion: 0, resilience: 1, entropy: 0, velocity: 0 });

describe('reads/workload-reads: standalone reads from the local analysis and LevelDB', () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  let db: ClassicLevel<string, string>;
  let store: AnalysisStore;
  let core: AnalysisCoreImpl;
  before(async () => {
    dir = await makeTempDir('workload-reads');
    db = new ClassicLevel<string, string>(dir.path);
    await db.open();
    store = new AnalysisStore(db);
    core = new AnalysisCoreImpl({ newHexId: () => '0000000000ab' });
    core.observeMetric({ workload: W, pod: undefined, name: 'cpu_percent', value: 40, timeMs: T });
    await store.writeTick({
      snapshots: [],
      history: [
        { tier: 'raw', key: W, point: kpi(T) },
        { tier: 'raw', key: W, point: kpi(T + 15_000) },
        { tier: 'raw', key: 'other/Deployment/x', point: kpi(T) },
      ],
      anomalies: [anomaly('an_1', 0, 'cpu_percent'), anomaly('an_2', 1_000, 'memory_percent'), anomaly('an_3', 2_000, 'cpu_percent')],
      ruptures: [explainOf(snapshotOf(W), { ruptureId: 'r_00000000stored' })],
      fingerprints: [],
    });
  });
  after(async () => {
    await db.close();
    await dir.remove();
  });

  it('reads workloads from the analysis core', () => {
    const reads = localReads(core, store);
    expect(reads.workloadKeys()).to.deep.equal(core.workloadKeys());
    expect(reads.workloadKeys()).to.include(W);
    expect(reads.snapshot('nobody/Deployment/x')).to.equal(undefined);
  });

  it('reads anomalies newest first, since a time, limited and filtered, from the store', async () => {
    const reads = localReads(core, store);
    expect((await reads.anomalies(T, 10)).map((a) => a.id)).to.deep.equal(['an_3', 'an_2', 'an_1']);
    expect((await reads.anomalies(T + 1, 10)).map((a) => a.id)).to.deep.equal(['an_3', 'an_2']);
    expect((await reads.anomalies(T, 1)).map((a) => a.id)).to.deep.equal(['an_3']);
    expect((await reads.anomalies(T, 10, (a) => a.metric === 'cpu_percent')).map((a) => a.id)).to.deep.equal(['an_3', 'an_1']);
  });

  it('answers an explain record the analysis no longer holds from the store, and undefined for an unknown id', async () => {
    const reads = localReads(core, store);
    expect((await reads.explain('r_00000000stored'))?.workload).to.equal(W);
    expect(await reads.explain('r_000000unknown')).to.equal(undefined);
  });

  it('reads one workload\'s history of one tier between two times, oldest first', async () => {
    const reads = localReads(core, store);
    expect((await reads.history('raw', W, T, T + 15_000)).map((p) => p.t)).to.deep.equal([T, T + 15_000]);
    expect((await reads.history('raw', W, T + 1, T + 60_000)).map((p) => p.t)).to.deep.equal([T + 15_000]);
    expect(await reads.history('1m', W, T, T + 60_000)).to.deep.equal([]);
  });
});
