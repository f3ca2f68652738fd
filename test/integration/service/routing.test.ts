import { expect } from 'chai';
import { startTestService } from '../../support/service.js';

describe('routing and the production no-key rule (api.md §1.3, §1.5, §1.7)', function () {
  this.timeout(30_000);

  it('405 with Allow for a known path, 404 for unknown routes and trailing slashes, JSON bodies', async () => {
    const svc = await startTestService();
    try {
      const del = await fetch(`${svc.api}/ruptures`, { method: 'DELETE' });
      expect(del.status).to.equal(405);
      expect(del.headers.get('allow')).to.contain('GET');
      expect(await del.json()).to.include({ code: 'method_not_allowed' });
      expect((await fetch(`${svc.api}/ruptures/`)).status).to.equal(404);
      const unknown = await fetch(`${svc.api}/nope`);
      expect(unknown.status).to.equal(404);
      expect(await unknown.json()).to.deep.equal({ error: 'not found', code: 'not_found' });
      expect((await fetch(`${svc.otlp}/v1/metrics`)).status).to.equal(405);
      expect((await fetch(`${svc.otlp}/nope`, { method: 'POST' })).status).to.equal(404);
    } finally {
      await svc.stop();
      await svc.remove();
    }
  });

  it('NODE_ENV=production without a key: API calls 503 naming the fix; health, ready and metrics open', async () => {
    const svc = await startTestService({ env: { NODE_ENV: 'production' } });
    try {
      const r = await fetch(`${svc.api}/ruptures`);
      expect(r.status).to.equal(503);
      expect(((await r.json()) as { error: string }).error).to.equal('no API key configured: set SVC_API_KEY or --api-key');
      expect((await fetch(`${svc.otlp}/v1/metrics`, { method: 'POST', body: '{}' })).status).to.equal(503);
      for (const path of ['/health', '/ready', '/metrics']) expect((await fetch(`${svc.api}${path}`)).status).to.equal(200);
    } finally {
      await svc.stop();
      await svc.remove();
    }
  });
});
