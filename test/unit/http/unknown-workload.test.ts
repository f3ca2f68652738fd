/** The 404 of a workload lookup and its hint (api-server/src/http/unknown-workload.ts). */
import { expect } from 'chai';
import { segmentsName, unknownWorkload } from '../../../api-server/src/http/unknown-workload.js';
import type { Injection } from '../../../api-server/src/simulation/injector.js';

const injection: Injection = {
  id: 'abc123',
  pattern: 'memory-leak',
  workload: 'demo/Deployment/payment-api',
  durationMinutes: 10,
  origin: undefined,
  startedAtMs: Date.UTC(2026, 10, 27, 1, 0, 0),
  endsAtMs: Date.UTC(2026, 10, 27, 1, 10, 0),
};

describe('unknownWorkload', () => {
  it('every lookup form names the simulated workload; other names do not', () => {
    for (const segments of [['demo', 'Deployment', 'payment-api'], ['demo', 'payment-api'], ['payment-api'], ['demo/payment-api']]) {
      expect(segmentsName(injection.workload, segments), segments.join(' ')).to.equal(true);
    }
    for (const segments of [['demo', 'StatefulSet', 'payment-api'], ['shop', 'payment-api'], ['cart'], ['shop/payment-api']]) {
      expect(segmentsName(injection.workload, segments), segments.join(' ')).to.equal(false);
    }
  });

  it('while a simulation of the workload runs: 404, code not_found, the injection and when it started', () => {
    const error = unknownWorkload('unknown workload: demo/payment-api', ['demo', 'payment-api'], [injection]);
    expect(error.status).to.equal(404);
    const body = error.body();
    expect(body).to.include({ error: 'unknown workload: demo/payment-api', code: 'not_found', injection_id: 'abc123' });
    expect(body['hint']).to.contain('a simulation of demo/Deployment/payment-api started at 2026-11-27T01:00:00.000Z');
    expect(body['hint']).to.contain('retry in a few seconds');
  });

  it('without a simulation: the general hint, no injection id', () => {
    const body = unknownWorkload('unknown workload: shop/cart', ['shop', 'cart'], [injection]).body();
    expect(body).to.not.have.property('injection_id');
    expect(body['hint']).to.contain('no telemetry has arrived for this workload');
  });
});
