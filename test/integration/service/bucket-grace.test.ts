/**
 * A workload's metrics, logs and spans come as separate requests. Without a grace (standalone
 * default) a tick between them analyses the buckets from the metrics alone and the later sources
 * are refused as late, counted in rpt_ingest_dropped_total{reason="late"}; with
 * SVC_BUCKET_GRACE_SECONDS they still count and the workload ruptures.
 */
import { expect } from 'chai';
import { RUPTURING_LOG_LINES, RUPTURING_SPANS, postRupturingHistory } from '../../support/rupture-history.js';
import { eventually, startTestService, type TestService } from '../../support/service.js';

const STEP = 15_000;

interface Rupture {
  status: string;
  state: string;
  fused_rupture_index: number;
}

const droppedLate = async (svc: TestService): Promise<number | undefined> => {
  const text = await (await fetch(`${svc.api}/metrics`)).text();
  const m = /rpt_ingest_dropped_total\{reason="late"\} (\d+)/.exec(text);
  return m === null ? undefined : Number(m[1]);
};

describe('standalone service: the logs and spans of a backfill posted after its metrics were analysed', function () {
  this.timeout(90_000);
  const services: TestService[] = [];
  after(async () => {
    for (const s of services) {
      await s.stop();
      await s.remove();
    }
  });

  it('without a grace: refused as late, counted, and FusedR stays 0 with one source', async () => {
    const svc = await startTestService();
    services.push(svc);
    // one bucket further back, so that every bucket of the history is closed at the first tick
    const endMs = Math.floor(Date.now() / STEP) * STEP - STEP;
    await postRupturingHistory(svc, 'late', 'api', endMs, async () => {
      await eventually(async () => (((await svc.get('/rupture/late/Deployment/api')).body as Rupture).status === 'active' ? true : undefined), 30_000, 'the metrics analysed');
    });
    const late = await eventually(async () => {
      const n = await droppedLate(svc);
      return n === RUPTURING_LOG_LINES + RUPTURING_SPANS ? n : undefined;
    }, 10_000, 'every log line and span counted as late');
    expect(late).to.equal(RUPTURING_LOG_LINES + RUPTURING_SPANS);
    expect(((await svc.get('/rupture/late/Deployment/api')).body as Rupture).fused_rupture_index).to.equal(0);
  });

  it('with SVC_BUCKET_GRACE_SECONDS: the same sources count, nothing is late, the workload ruptures', async () => {
    const svc = await startTestService({ env: { SVC_BUCKET_GRACE_SECONDS: '5' } });
    services.push(svc);
    const endMs = Math.floor(Date.now() / STEP) * STEP - STEP;
    // several 0.2-s ticks pass between the metrics and the rest
    await postRupturingHistory(svc, 'grace', 'api', endMs, () => new Promise((resolve) => setTimeout(resolve, 1_000)));
    const rupture = await eventually(async () => {
      const body = (await svc.get('/rupture/grace/Deployment/api')).body as Rupture;
      return ['warning', 'critical', 'emergency'].includes(body.state) ? body : undefined;
    }, 40_000, 'the workload to leave the normal band');
    expect(rupture.fused_rupture_index).to.be.greaterThan(1.5);
    expect(await droppedLate(svc)).to.equal(undefined);
  });
});
