import { expect } from 'chai';
import { ClassicLevel } from 'classic-level';
import { RetentionSweeper } from '../../../api-server/src/engine/retention-sweeper.js';
import { KpiRollup } from '../../../api-server/src/engine/kpi-rollup.js';
import type { KpiPoint } from '../../../api-server/src/storage/analysis-store.js';
import { AnalysisStore } from '../../../api-server/src/storage/analysis-store.js';
import { makeTempDir } from '../../support/temp-dir.js';

const DAY = 86_400_000;
const point = (t: number, fused: number): KpiPoint => ({ t, fused_r: fused, health: 1, stress: 0, fatigue: 0, mood: 1, pressure: 0.5, humidity: 0, contagion: 0, resilience: 1, entropy: 0, velocity: 0 });

describe('KPI history: rollups and retention (real LevelDB)', () => {
  it('rolls raw steps up to 1 min, 5 min and 1 h means, each written once when its bucket is complete', () => {
    const r = new KpiRollup();
    const out = [];
    for (let i = 0; i < 4 * 60 + 1; i += 1) out.push(...r.add('a/Deployment/b', point(i * 15_000, i % 4)));
    const oneMinute = out.filter((x) => x.tier === '1m');
    expect(oneMinute).to.have.length(60);
    expect(oneMinute[0]!.point.fused_r).to.equal(1.5); // mean of 0,1,2,3
    expect(oneMinute[0]!.point.t).to.equal(0);
    expect(out.filter((x) => x.tier === '5m')).to.have.length(11);
    expect(out.filter((x) => x.tier === '1h')).to.have.length(0); // the first hour is not complete until a later hour starts
  });

  it('deletes each tier past its retention, capped by storage.retention.kpis_days', async () => {
    const dir = await makeTempDir('retention');
    const db = new ClassicLevel<string, string>(dir.path);
    await db.open();
    try {
      const store = new AnalysisStore(db);
      const now = 1000 * DAY;
      const history = [
        { tier: 'raw' as const, key: 'a/Deployment/b', point: point(now - 8 * DAY, 1) },
        { tier: 'raw' as const, key: 'a/Deployment/b', point: point(now - 6 * DAY, 1) },
        { tier: '1m' as const, key: 'a/Deployment/b', point: point(now - 31 * DAY, 1) },
        { tier: '1h' as const, key: 'a/Deployment/b', point: point(now - 100 * DAY, 1) },
        { tier: '1h' as const, key: 'a/Deployment/b', point: point(now - 10 * DAY, 1) },
      ];
      await store.writeTick({ snapshots: [], history, anomalies: [], ruptures: [], fingerprints: [] });
      const sweeper = new RetentionSweeper(store, 90, () => now, (e) => {
        throw e;
      });
      expect(await sweeper.sweep()).to.equal(3); // raw 8 d, 1m 31 d, 1h 100 d (> kpis_days 90)
      expect(await store.history('raw', 'a/Deployment/b', 0, now)).to.have.length(1);
      expect(await store.history('1h', 'a/Deployment/b', 0, now)).to.have.length(1);
    } finally {
      await db.close();
      await dir.remove();
    }
  });
});
