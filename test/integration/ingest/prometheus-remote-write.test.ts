import { expect } from 'chai';
import type { PrometheusServer } from '../../support/prometheus-server.js';
import { startPrometheus } from '../../support/prometheus-server.js';
import type { TestService } from '../../support/service.js';
import { eventually, startTestService } from '../../support/service.js';

describe('a real Prometheus remote-writing to /api/v2/write', function () {
  this.timeout(120_000);
  let svc: TestService;
  let prometheus: PrometheusServer;
  before(async () => {
    svc = await startTestService({ key: 'prom-key' });
    prometheus = await startPrometheus({ url: `${svc.api}/write`, bearer: 'prom-key', labels: { namespace: 'prom', deployment: 'self' } });
  });
  after(async () => {
    await prometheus.stop();
    await svc.stop();
    await svc.remove();
  });

  it('its own metrics (NaN summary quantiles, stale markers and all) are written with no failed or retried sample, and its workload appears', async () => {
    // several send rounds: every sample Prometheus read from its WAL has been sent and answered
    const sent = await eventually(async () => {
      const n = await prometheus.selfMetric('prometheus_remote_storage_samples_total');
      return n > 2000 ? n : undefined;
    }, 60_000, 'Prometheus to send 2000 samples');
    expect(sent).to.be.greaterThan(2000);
    expect(await prometheus.selfMetric('prometheus_remote_storage_samples_failed_total')).to.equal(0);
    expect(await prometheus.selfMetric('prometheus_remote_storage_samples_retried_total')).to.equal(0);
    await eventually(async () => ((await svc.get('/rupture/prom/Deployment/self')).status === 200 ? true : undefined), 20_000, 'prom/Deployment/self');
  });
});
