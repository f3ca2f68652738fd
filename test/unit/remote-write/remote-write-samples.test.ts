import { expect } from 'chai';
import fc from 'fast-check';
import { PrometheusNameMapper } from '../../../api-server/src/ingest/remote-write/prometheus-names.js';
import { identifySamples, mapIdentified, recordsOfSeries } from '../../../api-server/src/ingest/remote-write/remote-write-samples.js';
import type { RemoteSeries } from '../../../api-server/src/ingest/remote-write/remote-write-series.js';

const series = (labels: Record<string, string>, samples: [number, number, number?][], extra: Partial<RemoteSeries> = {}): RemoteSeries => ({
  labels: new Map(Object.entries(labels)),
  samples: samples.map(([value, timestamp, startTimestamp]) => ({ value, timestamp, ...(startTimestamp === undefined ? {} : { startTimestamp }) })),
  histograms: 0,
  exemplars: 0,
  createdMs: 0,
  ...extra,
});

const T = 1_700_000_000_000;
const window = { oldestMs: T - 7 * 86_400_000, newestMs: T + 300_000 };

describe('remote-write samples to records and the written counts', () => {
  it('counts written, invalid values and invalid timestamps (hand-checked)', () => {
    const api = { __name__: 'process_open_fds', namespace: 'ns', deployment: 'api' };
    const out = recordsOfSeries(
      [
        series(api, [[1, T], [Number.NaN, T + 1], [Number.POSITIVE_INFINITY, T + 2], [2, T * 1000], [3, T - 8 * 86_400_000]]),
        series({ __name__: 'x', host: 'not a/valid/host/key/at/all' }, [[1, T]]), // host that is no workload: filtered
        series({ job: 'nameless' }, [[1, T]], { histograms: 2, exemplars: 3 }), // no __name__: filtered
      ],
      new PrometheusNameMapper(),
      window,
    );
    expect(out.written).to.deep.equal({ samples: 4, histograms: 2, exemplars: 3 }); // 1 + NaN + 2 filtered
    expect([out.invalidValues, out.invalidTimestamps]).to.deep.equal([1, 2]);
    expect(out.batch.metrics.map((m) => [m.workload, m.name, m.value, m.timeMs])).to.deep.equal([['ns/Deployment/api', 'process.open_file_descriptors', 1, T]]);
    expect(out.batch.rejected).to.equal(5); // 3 invalid + 2 filtered
  });

  it('a changed start timestamp is a counter reset: no rate across it, even when the value grew', () => {
    const cpu = { __name__: 'container_cpu_usage_seconds_total', namespace: 'ns', deployment: 'api' };
    const same = recordsOfSeries([series(cpu, [[100, T, T - 60_000], [106, T + 15_000, T - 60_000]])], new PrometheusNameMapper(), window);
    expect(same.batch.metrics.map((m) => [m.name, m.value])).to.deep.equal([['cpu_percent', 0.4]]); // 6 s of CPU over 15 s
    const restarted = recordsOfSeries([series(cpu, [[100, T, T - 60_000], [160, T + 15_000, T + 1_000]])], new PrometheusNameMapper(), window);
    expect(restarted.batch.metrics).to.deep.equal([]);
    const created = recordsOfSeries([series(cpu, [[100, T], [106, T + 15_000]], { createdMs: T - 60_000 })], new PrometheusNameMapper(), window);
    expect(created.batch.metrics).to.have.length(1);
  });

  it('every sample is either written or invalid; stored values are finite and inside the window (property)', () => {
    const value = fc.oneof(fc.double(), fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY));
    const time = fc.oneof(fc.integer({ min: window.oldestMs - 1000, max: window.newestMs + 1000 }), fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }));
    const labels = fc.record({ __name__: fc.constantFrom('process_open_fds', 'node_load1', 'custom_gauge', ''), namespace: fc.constantFrom('a', 'b'), deployment: fc.constantFrom('x', 'y') });
    fc.assert(
      fc.property(fc.array(fc.tuple(labels, fc.array(fc.tuple(value, time), { maxLength: 6 })), { maxLength: 6 }), (input) => {
        const all = input.map(([l, s]) => series(l, s));
        const total = all.reduce((n, s) => n + s.samples.length, 0);
        const out = recordsOfSeries(all, new PrometheusNameMapper(), window);
        expect(out.written.samples + out.invalidValues + out.invalidTimestamps).to.equal(total);
        for (const m of out.batch.metrics) {
          expect(Number.isFinite(m.value)).to.equal(true);
          expect(m.timeMs).to.be.within(window.oldestMs, window.newestMs);
        }
      }),
      { numRuns: 300 },
    );
  });
  it('one pass on the event loop and the two steps of a decode worker give the same outcome, counter rates included (property)', () => {
    const labels = fc.record({ __name__: fc.constantFrom('process_open_fds', 'http_requests_total', 'container_cpu_usage_seconds_total', 'custom_gauge', ''), namespace: fc.constantFrom('a', 'b'), deployment: fc.constantFrom('x', 'y'), pod: fc.constantFrom('p0', 'p1') });
    const sample = fc.tuple(fc.oneof(fc.double({ min: 0, max: 1e6 }), fc.constant(Number.NaN)), fc.integer({ min: window.oldestMs - 1000, max: window.newestMs + 1000 }));
    fc.assert(
      fc.property(fc.array(fc.array(fc.tuple(labels, fc.array(sample, { maxLength: 4 })), { maxLength: 5 }), { minLength: 1, maxLength: 3 }), (requests) => {
        const onePass = new PrometheusNameMapper();
        const twoSteps = new PrometheusNameMapper();
        for (const request of requests) {
          const all = request.map(([l, s]) => series(l, s));
          expect(mapIdentified(identifySamples(all, window), twoSteps)).to.deep.equal(recordsOfSeries(all, onePass, window));
        }
      }),
      { numRuns: 200 },
    );
  });
});
