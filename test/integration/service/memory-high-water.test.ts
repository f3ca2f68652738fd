import { expect } from 'chai';
import { eventually, startTestService } from '../../support/service.js';
import { otlpMetrics } from '../../support/otlp-builders.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { freePort } from '../../support/free-port.js';

interface Health {
  workloads: number;
  memory: { rss_bytes: number; limit_bytes: number | null; limit_source: string; high_water_bytes: number | null; refusing_new_workloads: boolean; workloads_refused: number };
}

/** n points 15 s apart from `startMs` */
const points = (startMs: number, n: number): [number, number][] => Array.from({ length: n }, (_, i) => [startMs + i * 15_000, 0.3 + 0.01 * Math.sin(i)]);

describe('standalone service: the memory high-water guard', function () {
  this.timeout(60_000);

  it('above the mark refuses new workloads with a 429 naming the reason, counts them, and keeps serving the known ones', async () => {
    const dir = await makeTempDir('high-water');
    try {
      const start = Date.now() - 30 * 60_000;
      // below the mark (a limit of 1 PB): workload a is accepted, analysed and stored
      const first = await startTestService({ dataDir: dir.path, args: ['--memory-limit-bytes', String(2 ** 50)] });
      expect((await first.post('/v1/metrics', otlpMetrics({ namespace: 'shop', deployment: 'a' }, { cpu_percent: points(start, 40) }), first.otlp)).status).to.equal(200);
      await eventually(async () => ((first.server.context.core.snapshot('shop/Deployment/a')?.timeMs ?? 0) > 0 ? true : undefined));
      expect(((await first.get('/health')).body as Health).memory.refusing_new_workloads).to.equal(false);
      await first.stop();

      // the same data with a 1 MB limit: every resident size is above 0.85 MB, so the guard refuses from the start
      const otlpHttpPort = await freePort();
      const second = await startTestService({ dataDir: dir.path, args: ['--memory-limit-bytes', String(1 << 20), '--memory-high-water', '0.85', '--otlp-http-port', String(otlpHttpPort)] });
      try {
        const health = (await second.get('/health')).body as Health;
        expect(health.workloads).to.equal(1);
        expect(health.memory.limit_bytes).to.equal(1 << 20);
        expect(health.memory.limit_source).to.equal('setting');
        expect(health.memory.high_water_bytes).to.equal(Math.floor((1 << 20) * 0.85));
        expect(health.memory.refusing_new_workloads).to.equal(true);
        expect(health.memory.rss_bytes).to.be.greaterThan(1 << 20);

        // a new workload alone: nothing taken, 429 naming the reason
        const refused = await second.post('/v1/metrics', otlpMetrics({ namespace: 'shop', deployment: 'b' }, { cpu_percent: points(start, 5) }), second.otlp);
        expect(refused.status).to.equal(429);
        const body = refused.body as { code: string; error: string };
        expect(body.code).to.equal('memory_high_water');
        expect(body.error).to.contain('high-water mark').and.contain('setting limit 1 MB');
        expect(refused.headers.get('retry-after')).to.equal('60');
        // the standard OTLP/HTTP listener refuses the same way (5 points of workload d), never a silent 200
        const standard = await fetch(`http://127.0.0.1:${otlpHttpPort}/v1/metrics`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(otlpMetrics({ namespace: 'shop', deployment: 'd' }, { cpu_percent: points(start, 5) })),
        });
        expect(standard.status).to.equal(429);
        expect(standard.headers.get('retry-after')).to.equal('60');

        // one request for the known workload a and the new c: a's points are taken, c is refused
        const mixed = otlpMetrics({ namespace: 'shop', deployment: 'a' }, { cpu_percent: points(start + 40 * 15_000, 8) });
        mixed.resourceMetrics.push(...otlpMetrics({ namespace: 'shop', deployment: 'c' }, { cpu_percent: points(start, 5) }).resourceMetrics);
        expect((await second.post('/v1/metrics', mixed, second.otlp)).status).to.equal(429);
        // the known workload alone: accepted, and analysed on
        const before = second.server.context.core.snapshot('shop/Deployment/a')!.timeMs;
        expect((await second.post('/v1/metrics', otlpMetrics({ namespace: 'shop', deployment: 'a' }, { cpu_percent: points(start + 48 * 15_000, 4) }), second.otlp)).status).to.equal(200);
        const after = await eventually(async () => {
          const t = second.server.context.core.snapshot('shop/Deployment/a')!.timeMs;
          // the buckets of the mixed request and of this one are analysed
          return t >= start + 50 * 15_000 ? t : undefined;
        });
        expect(after).to.be.greaterThan(before);
        expect((await second.get('/rupture/shop/Deployment/a')).status).to.equal(200);

        const h = (await second.get('/health')).body as Health;
        expect(h.workloads).to.equal(1);
        expect(h.memory.workloads_refused).to.equal(3);
        const metrics = (await second.get('/metrics')).body as string;
        expect(metrics).to.match(/^rpt_workloads_refused_total 3$/m);
        expect(metrics).to.match(/^rpt_ingest_dropped_total\{reason="memory_high_water"\} 15$/m);
        expect(second.server.context.core.workloadKeys()).to.deep.equal(['shop/Deployment/a']);
      } finally {
        await second.stop();
      }
    } finally {
      await dir.remove();
    }
  });
});
