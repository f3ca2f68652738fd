import { expect } from 'chai';
import { OPEN_ROUTES_AT_ROOT } from '../../../../api-server/src/http/routes/misdirected-routes.js';
import { useTestService } from '../../../support/service.js';

describe('http/routes/misdirected-routes: requests on a port that does not serve them say where they belong', function () {
  this.timeout(30_000);
  const svc = useTestService();

  it('GET /metrics, /health, /ready, /version at the root of the REST and dashboard ports: 404 naming /api/v2 and the REST port', async () => {
    const rest = svc.server.ports.rest;
    for (const port of [rest, svc.server.ports.dashboard]) {
      for (const path of OPEN_ROUTES_AT_ROOT) {
        const r = await fetch(`http://127.0.0.1:${port}${path}`);
        expect(r.status, `${port}${path}`).to.equal(404);
        expect(await r.json(), `${port}${path}`).to.deep.equal({
          error: `${path} is served under /api/v2: GET /api/v2${path}`,
          code: 'not_found',
          hint: `use http://<host>:${rest}/api/v2${path} (the REST port ${rest}; the dashboard port answers it too)`,
          path: `/api/v2${path}`,
          rest_port: rest,
        });
      }
    }
  });

  it('OTLP posted to /v1/{metrics,logs,traces} at the root of the REST port: 404 naming the OTLP port', async () => {
    const otlp = svc.server.ports.otlp;
    for (const signal of ['metrics', 'logs', 'traces']) {
      const r = await fetch(`http://127.0.0.1:${svc.server.ports.rest}/v1/${signal}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(r.status, signal).to.equal(404);
      expect(await r.json(), signal).to.deep.equal({
        error: `OTLP is not served on this port: POST /v1/${signal} to the OTLP port ${otlp}`,
        code: 'not_found',
        hint: `send OTLP/HTTP to http://<host>:${otlp}/v1/${signal} (SVC_OTLP_PORT); this port serves the /api/v2 REST routes`,
        otlp_port: otlp,
      });
    }
  });
});
