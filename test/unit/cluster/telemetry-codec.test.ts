/** Telemetry records of the cluster topic: one per workload, round-trips exactly, refuses malformed values by field. */
import { expect } from 'chai';
import fc from 'fast-check';
import { decodeTelemetry, encodeTelemetry, groupByWorkload, latestTimeMs, TelemetryRecordError } from '../../../api-server/src/cluster/telemetry-codec.js';
import { partitionOf } from '../../../api-server/src/cluster/workload-partition.js';
import type { DecodedBatch } from '../../../api-server/src/model/records.js';

const workload = fc.constantFrom('shop/Deployment/cart', 'shop/Deployment/api', 'ops/StatefulSet/db');
const finite = fc.double({ noNaN: true, noDefaultInfinity: true });
const pod = fc.option(fc.string({ maxLength: 8 }), { nil: undefined });
const batch = fc.record({
  metrics: fc.array(fc.record({ workload, pod, name: fc.string({ maxLength: 10 }), value: finite, timeMs: finite }), { maxLength: 8 }),
  logs: fc.array(fc.record({ workload, pod, timeMs: finite, severityNumber: fc.integer({ min: 0, max: 24 }), severityText: fc.string({ maxLength: 5 }), body: fc.string({ maxLength: 20 }) }), { maxLength: 5 }),
  spans: fc.array(
    fc.record({
      workload,
      service: fc.string({ maxLength: 6 }),
      traceId: fc.stringMatching(/^[0-9a-f]{0,32}$/),
      spanId: fc.stringMatching(/^[0-9a-f]{0,16}$/),
      parentSpanId: fc.stringMatching(/^[0-9a-f]{0,16}$/),
      name: fc.string({ maxLength: 8 }),
      kind: fc.integer({ min: 0, max: 5 }),
      startMs: finite,
      endMs: finite,
      statusCode: fc.integer({ min: 0, max: 2 }),
    }),
    { maxLength: 5 },
  ),
  rejected: fc.constant(0),
});

describe('cluster telemetry records', () => {
  it('round-trips every workload group exactly, in arrival order (property)', () => {
    fc.assert(
      fc.property(batch, (b: DecodedBatch) => {
        const { groups, nonFinite } = groupByWorkload(b);
        expect(nonFinite).to.equal(0);
        let metrics = 0;
        for (const [key, group] of groups) {
          const back = decodeTelemetry(key, encodeTelemetry(group));
          // -0 becomes 0 in JSON: compare through JSON
          expect(JSON.stringify(back)).to.equal(JSON.stringify(group));
          metrics += back.metrics.length;
        }
        expect(metrics).to.equal(b.metrics.length);
      }),
    );
  });

  it('leaves out and counts records with non-finite numbers', () => {
    const { groups, nonFinite } = groupByWorkload({
      metrics: [
        { workload: 'a/Deployment/x', pod: undefined, name: 'cpu', value: Number.NaN, timeMs: 1 },
        { workload: 'a/Deployment/x', pod: undefined, name: 'cpu', value: 0.5, timeMs: 2 },
      ],
      logs: [{ workload: 'a/Deployment/x', pod: undefined, timeMs: Number.POSITIVE_INFINITY, severityNumber: 9, severityText: '', body: '' }],
      spans: [],
      rejected: 0,
    });
    expect(nonFinite).to.equal(2);
    expect(groups.get('a/Deployment/x')?.metrics).to.have.length(1);
  });

  it('refuses malformed values, naming the field', () => {
    const refuse = (value: string): string => {
      try {
        decodeTelemetry('a/Deployment/x', value);
      } catch (error) {
        expect(error).to.be.instanceOf(TelemetryRecordError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refuse('not json')).to.equal('value: not JSON');
    expect(refuse('[]')).to.equal('value: must be an object');
    expect(refuse('{"m":{}}')).to.equal('m: must be an array');
    expect(refuse('{"m":[[null,"cpu",1]]}')).to.equal('m[0]: must be a tuple of 4');
    expect(refuse('{"m":[[null,"cpu","1",2]]}')).to.match(/^m\[0\]: /);
    expect(refuse('{"l":[[null,1,9,"",5]]}')).to.match(/^l\[0\]: /);
    expect(refuse('{"s":[["s","t","i","","n",1,2,3,"x"]]}')).to.match(/^s\[0\]: /);
  });

  it('gives the latest sample time across metrics, logs and span ends', () => {
    const t = decodeTelemetry('a/Deployment/x', '{"m":[[null,"cpu",1,100]],"l":[[null,300,9,"",""]],"s":[["s","t","i","","n",1,150,250,0]]}');
    expect(latestTimeMs(t)).to.equal(300);
    expect(latestTimeMs({ metrics: [], logs: [], spans: [] })).to.equal(Number.NEGATIVE_INFINITY);
  });

  it('puts a workload on one partition in range, the same every time (property)', () => {
    expect(partitionOf('shop/Deployment/cart', 12)).to.equal(partitionOf('shop/Deployment/cart', 12));
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: 1024 }), (key, n) => {
        const p = partitionOf(key, n);
        expect(Number.isInteger(p) && p >= 0 && p < n).to.equal(true);
      }),
    );
  });
});
