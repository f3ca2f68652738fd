/**
 * Collections between ticks (engine/heap-trim.ts) in the real service process: with --expose-gc
 * (as npm start, the image and the manifests run it) the first steady tick after a backfill's
 * catch-up is followed by a collection, logged with V8's heap before and after and counted in
 * /metrics; without the flag the service says at start that it will not collect.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { eventually } from '../../support/service.js';
import { otlpMetrics } from '../../support/otlp-builders.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { startReplica } from '../../support/replica-process.js';

interface Trimmed {
  msg: string;
  reason: string;
  heap_used_before_mb: number;
  heap_used_after_mb: number;
  pause_ms: number;
  buckets_per_workload: number;
  workloads: number;
}

/** n points 15 s apart from `startMs` */
const points = (startMs: number, n: number): [number, number][] => Array.from({ length: n }, (_, i) => [startMs + i * 15_000, 0.3 + 0.01 * Math.sin(i)]);

const logLines = (log: string): { msg?: string }[] =>
  log
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { msg?: string });

describe("standalone service: V8's heap collected once a backfill is caught up", function () {
  this.timeout(120_000);

  it('with --expose-gc a backfill is followed by a logged collection; without it the service says so', async () => {
    const dir = await makeTempDir('heap-trim');
    try {
      const config = join(dir.path, 'config.yaml');
      await writeFile(config, '{}\n');
      const svc = await startReplica(config, join(dir.path, 'data'), {}, ['--expose-gc']);
      try {
        expect(svc.log()).to.not.contain('without --expose-gc');
        // 20 workloads, each 200 buckets behind, the last point a second ago: a tick steps the
        // closed buckets (a catch-up), a later one the last bucket once it closes (steady)
        const start = Date.now() - 199 * 15_000 - 1_000;
        const body = otlpMetrics({ namespace: 'shop', deployment: 'w0' }, { cpu_percent: points(start, 200), memory_percent: points(start, 200) });
        for (let w = 1; w < 20; w++) body.resourceMetrics.push(...otlpMetrics({ namespace: 'shop', deployment: `w${w}` }, { cpu_percent: points(start, 200), memory_percent: points(start, 200) }).resourceMetrics);
        const posted = await fetch(`${svc.otlp}/v1/metrics`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        expect(posted.status).to.equal(200);
        const trimmed = await eventually(async () => logLines(svc.log()).find((l): l is Trimmed => l.msg === "collected V8's heap after the tick"), 60_000, 'a collection after the catch-up').catch((error: unknown) => {
          // what the service said, for the failure's reader
          console.error(svc.log().slice(-4000));
          throw error;
        });
        expect(trimmed.reason).to.equal('caught_up');
        expect(trimmed.buckets_per_workload).to.be.below(2);
        // the tick after the catch-up steps the last buckets once they close, or nothing when it
        // comes first (a loaded machine, CI: 0 workloads): either ends the catch-up
        expect(trimmed.workloads).to.be.within(0, 20);
        expect(trimmed.pause_ms).to.be.at.least(0);
        expect(trimmed.heap_used_after_mb).to.be.at.most(trimmed.heap_used_before_mb);
        const metrics = await (await fetch(`${svc.api}/metrics`)).text();
        expect(Number(/^rpt_heap_collections_total\{reason="caught_up"\} (\d+)$/m.exec(metrics)?.[1])).to.be.at.least(1);
        expect(Number(/^rpt_heap_collection_seconds_total\{reason="caught_up"\} (\S+)$/m.exec(metrics)?.[1])).to.be.greaterThan(0);
        // and every workload was analysed to its last bucket
        const last = start + 199 * 15_000;
        await eventually(async () => {
          const r = await fetch(`${svc.api}/rupture/shop/Deployment/w19`);
          if (r.status !== 200) return undefined;
          const snapshot = (await r.json()) as { timestamp: string };
          return Date.parse(snapshot.timestamp) >= last - 15_000 ? true : undefined;
        }, 60_000, 'the backfill analysed');
      } finally {
        await svc.kill('SIGTERM');
      }

      const plain = await startReplica(config, join(dir.path, 'data-plain'));
      try {
        expect(logLines(plain.log()).some((l) => (l.msg ?? '').includes('without --expose-gc'))).to.equal(true);
      } finally {
        await plain.kill('SIGTERM');
      }
    } finally {
      await dir.remove();
    }
  });
});
