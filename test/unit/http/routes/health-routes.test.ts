import { expect } from 'chai';
import { useTestService } from '../../../support/service.js';

describe('http/routes/health-routes: /health, /version, /ready and /metrics, open without the key', function () {
  this.timeout(30_000);
  const svc = useTestService({ key: 'health-key', args: ['--edition', 'autopilot'] });
  const open = async (path: string) => fetch(`${svc.api}${path}`);

  it('/health and /version: the same document; status, edition, authentication and counters as they are', async () => {
    const health = (await (await open('/health')).json()) as Record<string, unknown>;
    expect(health).to.deep.include({
      status: 'ok',
      rupture_detection: 'active',
      edition: 'autopilot',
      authentication: 'required',
      emergency_stop: false,
      workloads: 0,
      ingest_queue: 0,
    });
    expect(health['version']).to.be.a('string').and.not.equal('');
    expect(health['uptime_seconds']).to.be.a('number').within(0, 60);
    expect(health['memory']).to.include.keys('rss_bytes', 'limit_bytes', 'high_water', 'refusing_new_workloads');
    expect(health).not.to.have.property('cluster');
    const version = (await (await open('/version')).json()) as Record<string, unknown>;
    expect({ ...version, uptime_seconds: 0, memory: null }).to.deep.equal({ ...health, uptime_seconds: 0, memory: null });
  });

  it('/ready is 200 once started; /metrics is the Prometheus text with the version series', async () => {
    const ready = await open('/ready');
    expect(ready.status).to.equal(200);
    expect(await ready.json()).to.deep.equal({ status: 'ready' });
    const health = (await (await open('/health')).json()) as { version: string };
    const metrics = await open('/metrics');
    expect(metrics.status).to.equal(200);
    expect(metrics.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
    expect(await metrics.text()).to.contain(`rpt_version_info{version="${health.version}"} 1`);
  });

  it('the other routes still need the key', async () => {
    expect((await open('/ruptures')).status).to.equal(401);
    expect((await svc.get('/ruptures')).status).to.equal(200);
  });
});
