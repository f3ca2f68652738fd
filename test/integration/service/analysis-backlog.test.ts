import { expect } from 'chai';
import { eventually, startTestService } from '../../support/service.js';
import { otlpMetrics } from '../../support/otlp-builders.js';
import { pushTimeseries } from 'prometheus-remote-write';

/** n points 15 s apart from `startMs` */
const points = (startMs: number, n: number): [number, number][] => Array.from({ length: n }, (_, i) => [startMs + i * 15_000, 0.3 + 0.01 * Math.sin(i)]);

describe('standalone service: the analysis backlog bound (SVC_INGEST_MAX_WAITING_BUCKETS)', function () {
  this.timeout(60_000);

  it('at the bound refuses whole requests with 429 analysis_backlog and Retry-After one tick, stores nothing of them, and takes them once a tick has analysed the backlog', async () => {
    // no tick for 10 s: the backfill below stays waiting while the refusals are checked
    const svc = await startTestService({ args: ['--tick-seconds', '10', '--ingest-max-waiting-buckets', '1000'] });
    try {
      const core = svc.server.context.core;
      const waiting = (): number => core.waitingBuckets?.() ?? Number.NaN;
      const holds = (key: string): boolean => core.workloadKeys().includes(key);
      const start = Date.now() - 6 * 3_600_000;
      // 1 100 buckets of workload a: below the bound when it arrives, so it is taken whole
      expect((await svc.post('/v1/metrics', otlpMetrics({ namespace: 'shop', deployment: 'a' }, { cpu_percent: points(start, 1100) }), svc.otlp)).status).to.equal(200);
      await eventually(async () => (waiting() === 1100 ? true : undefined));

      // now at the bound: OTLP, remote-write and the contract's JSON ingest are refused whole
      const refused = await svc.post('/v1/metrics', otlpMetrics({ namespace: 'shop', deployment: 'b' }, { cpu_percent: points(start, 3) }), svc.otlp);
      expect(refused.status).to.equal(429);
      expect(refused.body).to.deep.include({ code: 'analysis_backlog' });
      expect((refused.body as { error: string }).error).to.contain('1100 workload-buckets behind').and.contain('SVC_INGEST_MAX_WAITING_BUCKETS');
      expect(refused.headers.get('retry-after')).to.equal('10');
      const rw = await pushTimeseries([{ labels: { __name__: 'cpu_percent', namespace: 'shop', deployment: 'c' }, samples: [{ value: 0.5, timestamp: start }] }], { url: `${svc.api}/write` });
      expect(rw.status).to.equal(429);
      expect(holds('shop/Deployment/b')).to.equal(false);
      expect(holds('shop/Deployment/c')).to.equal(false);
      expect(waiting()).to.equal(1100);
      const metrics = (await svc.get('/metrics')).body as string;
      // 3 OTLP points and 1 remote-write sample, each counted once
      expect(metrics).to.match(/^rpt_ingest_dropped_total\{reason="analysis_backlog"\} 4$/m);

      // the first tick analyses the backlog; the retried request is then taken and analysed
      await eventually(async () => (waiting() === 0 ? true : undefined), 40_000, 'the backlog analysed');
      // a's last bucket was analysed (a snapshot's time is its bucket's end)
      const last = start + 1099 * 15_000;
      expect(core.snapshot('shop/Deployment/a')?.timeMs).to.equal(last - (last % 15_000) + 15_000);
      const retried = await svc.post('/v1/metrics', otlpMetrics({ namespace: 'shop', deployment: 'b' }, { cpu_percent: points(start, 3) }), svc.otlp);
      expect(retried.status).to.equal(200);
      await eventually(async () => (holds('shop/Deployment/b') ? true : undefined));
    } finally {
      await svc.stop();
    }
  });
});
