import { expect } from 'chai';
import fc from 'fast-check';
import { otlpEncodingOf, partialSuccess } from '../../../api-server/src/http/otlp-http/otlp-http-answers.js';
import { countOutsideTimeWindow } from '../../../api-server/src/pipeline/time-window.js';
import { emptyBatch } from '../../../api-server/src/model/records.js';

describe('OTLP/HTTP answers: partial_success and the time window', () => {
  it('nothing dropped → partial_success unset; otherwise the sum and both reasons', () => {
    expect(partialSuccess('metrics', 0, 0)).to.equal(undefined);
    const p = partialSuccess('metrics', 2, 1)!;
    expect(p.rejected).to.equal(3);
    expect(p.errorMessage).to.contain('2 data points were dropped because their resource names no workload').and.contain('1 data points were dropped because their time').and.contain('milliseconds');
    expect(partialSuccess('traces', 0, 4)!.errorMessage).to.match(/^4 spans were dropped/);
  });

  it('the media types of OTLP/HTTP', () => {
    expect(['application/x-protobuf', 'application/json', 'text/plain', ''].map(otlpEncodingOf)).to.deep.equal(['protobuf', 'json', undefined, undefined]);
  });

  it('a time in milliseconds read as nanoseconds is outside the window; a time in nanoseconds inside (hand-checked)', () => {
    const now = 1_700_000_000_000;
    const batch = emptyBatch();
    batch.metrics.push({ workload: 'a/Deployment/b', pod: undefined, name: 'x', value: 1, timeMs: now / 1e6 }, { workload: 'a/Deployment/b', pod: undefined, name: 'x', value: 1, timeMs: now - 1000 });
    batch.spans.push({ workload: 'a/Deployment/b', service: 'b', traceId: '', spanId: '', parentSpanId: '', name: '', kind: 0, startMs: now + 301_000, endMs: now + 302_000, statusCode: 0 });
    expect(countOutsideTimeWindow(batch, now)).to.equal(2);
  });

  it('counts exactly the records outside [now - 7 d, now + 5 min] (property)', () => {
    const now = 1_700_000_000_000;
    fc.assert(
      fc.property(fc.array(fc.integer({ min: now - 8 * 86_400_000, max: now + 600_000 }), { maxLength: 50, size: 'max' }), (times) => {
        const batch = emptyBatch();
        for (const t of times) batch.logs.push({ workload: 'w/host/x', pod: undefined, timeMs: t, severityNumber: 0, severityText: '', body: '' });
        expect(countOutsideTimeWindow(batch, now)).to.equal(times.filter((t) => t < now - 7 * 86_400_000 || t > now + 300_000).length);
      }),
    );
  });
});
