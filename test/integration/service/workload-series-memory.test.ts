import { expect } from 'chai';
import { eventually, startTestService } from '../../support/service.js';
import { otlpMetrics } from '../../support/otlp-builders.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { SIGNAL_NAMES } from '../../../api-server/src/model/signals.js';

/**
 * The service's per-workload holders made compact for memory (docs/memory.md, "The V8 heap per
 * workload, settled"): the raw tier's open buckets and the per-workload gauges, through a real
 * service on LevelDB on disk.
 */
describe('standalone service: raw tier and per-workload gauges after a backfill (real LevelDB)', function () {
  this.timeout(90_000);

  it('stores every 15-s raw mean and the steps\' KPI points, and exposes one svc_kpi series per workload and signal', async () => {
    const dir = await makeTempDir('workload-series-memory');
    try {
      const svc = await startTestService({ dataDir: dir.path });
      try {
        const end = Math.floor(Date.now() / 60_000) * 60_000;
        const value = (i: number): number => 0.3 + 0.01 * Math.sin(i);
        for (const name of ['a', 'b']) {
          const points: [number, number][] = Array.from({ length: 120 }, (_, i) => [end - (120 - i) * 15_000, value(i)]);
          expect((await svc.post('/v1/metrics', otlpMetrics({ namespace: 'shop', deployment: name }, { cpu_percent: points }), svc.otlp)).status).to.equal(200);
        }
        const store = svc.server.context.store;
        // a backfill's catch-up tick outputs the snapshots of its last steps (here the last two): a 1-minute rollup once a later minute starts
        // the raw tier's 15-s means are handed over as later buckets start: all but the newest
        await eventually(
          async () => ((await store.rawPoints('shop/Deployment/b', 'cpu_percent', 0, end)).length >= 119 && (await store.history('raw', 'shop/Deployment/b', 0, end)).length >= 1 ? true : undefined),
          45_000,
          '119 raw means and a stored step of shop/Deployment/b',
        );
        for (const key of ['shop/Deployment/a', 'shop/Deployment/b']) {
          const rawMeans = await store.rawPoints(key, 'cpu_percent', 0, end);
          expect(rawMeans.map((m) => m.t)).to.deep.equal(Array.from({ length: 119 }, (_, i) => end - (120 - i) * 15_000));
          for (const [i, m] of rawMeans.entries()) expect(m.mean).to.be.closeTo(value(i), 1e-12);
          // a stored step's KPI point, as the rollup is handed it (its 1-minute means: test/unit/engine/kpi-rollup.test.ts)
          const steps = await store.history('raw', key, 0, end);
          expect(Object.keys(steps[0]!)).to.deep.equal(['t', 'fused_r', 'health', 'stress', 'fatigue', 'mood', 'pressure', 'humidity', 'contagion', 'resilience', 'entropy', 'velocity']);
        }

        const text = await (await fetch(`${svc.api}/metrics`)).text();
        for (const name of ['a', 'b']) {
          const line = (signal: string): string[] => text.split('\n').filter((l) => l.startsWith(`svc_kpi{namespace="shop",kind="Deployment",workload="${name}",signal="${signal}"} `));
          for (const signal of [...SIGNAL_NAMES, 'fused_rupture_index']) expect(line(signal), signal).to.have.length(1);
          const health = line('health_score')[0]!.split(' ')[1];
          expect(text.split('\n')).to.include(`rpt_kpi_healthscore{host="shop/Deployment/${name}"} ${health}`);
        }
      } finally {
        await svc.stop();
      }
    } finally {
      await dir.remove();
    }
  });
});
