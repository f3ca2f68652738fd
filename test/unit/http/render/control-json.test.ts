import { expect } from 'chai';
import { contextEventJson, suppressionJson } from '../../../../api-server/src/http/render/control-json.js';

const T = Date.UTC(2026, 10, 27, 0, 0, 0);

describe('http/render/control-json: suppressions and context events', () => {
  const suppression = {
    id: 'sup_000000000001',
    workload: 'shop/*',
    startMs: T,
    endMs: T + 3_600_000,
    reason: 'deploy',
    signals: ['stress'],
    createdAtMs: T - 60_000,
    owner: null,
  };

  it('renders a suppression with ISO times and active for start <= now < end', () => {
    expect(suppressionJson(suppression, T)).to.deep.equal({
      id: 'sup_000000000001',
      workload: 'shop/*',
      start: '2026-11-27T00:00:00.000Z',
      end: '2026-11-27T01:00:00.000Z',
      reason: 'deploy',
      signals: ['stress'],
      active: true,
      created_at: '2026-11-26T23:59:00.000Z',
      owner: null,
    });
    expect(suppressionJson(suppression, T - 1).active).to.equal(false);
    expect(suppressionJson(suppression, T + 3_599_999).active).to.equal(true);
    expect(suppressionJson(suppression, T + 3_600_000).active).to.equal(false);
  });

  it('renders a context event with ISO times', () => {
    expect(contextEventJson({ id: 'ctx_1', workload: 'shop/Deployment/cart', event: 'deploy', description: 'v2', timeMs: T, createdAtMs: T + 1 })).to.deep.equal({
      id: 'ctx_1',
      workload: 'shop/Deployment/cart',
      event: 'deploy',
      description: 'v2',
      timestamp: '2026-11-27T00:00:00.000Z',
      created_at: '2026-11-27T00:00:00.001Z',
    });
  });
});
