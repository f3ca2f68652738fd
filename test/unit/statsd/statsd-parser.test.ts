import { expect } from 'chai';
import fc from 'fast-check';
import { StatsdParser } from '../../../api-server/src/ingest/statsd/statsd-parser.js';

const NOW = 1_800_000_000_000;

describe('StatsD / DogStatsD lines', () => {
  it('gauges with deltas, counters with sample rate, timers and sets; tags resolve the workload', () => {
    const p = new StatsdParser();
    const tags = '#namespace:shop,deployment:cart';
    const r = p.parse(
      [`cpu_percent:40|g|${tags}`, `cpu_percent:+5|g|${tags}`, `cpu_percent:-15|g|${tags}`, `requests:3|c|@0.5|${tags}`, `latency_ms:120|ms|${tags}`, `users:alice|s|${tags}`, `users:bob|s|${tags}`, `users:alice|s|${tags}`].join('\n'),
      NOW,
    );
    expect(r.badLines).to.equal(0);
    expect(r.metrics.map((m) => [m.name, m.value])).to.deep.equal([
      ['cpu_percent', 40],
      ['cpu_percent', 45],
      ['cpu_percent', 30],
      ['requests', 6],
      ['latency_ms', 120],
      ['users', 1],
      ['users', 2],
      ['users', 2],
    ]);
    for (const m of r.metrics) expect(m.workload).to.equal('shop/Deployment/cart');
  });

  it('identity from service, kind with workload, host; no tags → default/host/unknown; T sets the time', () => {
    const p = new StatsdParser();
    const r = p.parse(['a:1|g|#namespace:pay,service:api', 'a:1|g|#namespace:pay,workload:db,kind:StatefulSet', 'a:1|g|#host:web-01', 'a:1|g', 'a:1|g|T1700000000'].join('\n'), NOW);
    expect(r.metrics.map((m) => m.workload)).to.deep.equal(['pay/host/api', 'pay/StatefulSet/db', 'default/host/web-01', 'default/host/unknown', 'default/host/unknown']);
    expect(r.metrics[4]!.timeMs).to.equal(1_700_000_000_000);
  });

  it('bad lines are counted and skipped, the rest of the datagram still counts', () => {
    const p = new StatsdParser();
    const r = p.parse(['ok:1|g', 'novalue|g', 'x:abc|c', 'y:1|zz', 'z:1|c|@2', 'w:1|g|#host:a/b/c/d', 'ok:2|g'].join('\n'), NOW);
    expect(r.badLines).to.equal(5);
    expect(r.metrics.map((m) => m.value)).to.deep.equal([1, 2]);
  });

  it('never throws and never yields a non-finite value for any datagram (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300, size: 'max' }), (text) => {
        const r = new StatsdParser().parse(text, NOW);
        for (const m of r.metrics) expect(Number.isFinite(m.value)).to.equal(true);
      }),
      { numRuns: 2000 },
    );
  });
});
