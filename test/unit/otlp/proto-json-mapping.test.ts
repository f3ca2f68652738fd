import { expect } from 'chai';
import fc from 'fast-check';
import { decodeMetricsDocument } from '../../../api-server/src/ingest/otlp-json/otlp-json-decoders.js';
import { camelCase, fromProtoJsonMapping } from '../../../api-server/src/ingest/otlp-json/proto-json-mapping.js';
import { DecodeError } from '../../../api-server/src/model/records.js';

const snake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** renames every key to the proto file's snake_case and quotes every intValue, as a protobuf JSON encoder may */
function toMappingForm(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toMappingForm);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [snake(k), k === 'intValue' && typeof v === 'number' ? String(v) : toMappingForm(v)]));
}

describe('OTLP/JSON protobuf mapping → the strict decoders\' shape', () => {
  it('renames proto field names, unquotes intValue, maps enum names (hand-checked)', () => {
    const doc = {
      resource_spans: [
        {
          scope_spans: [
            {
              spans: [{ trace_id: 'ab'.repeat(16), kind: 'SPAN_KIND_SERVER', status: { code: 'STATUS_CODE_ERROR' }, attributes: [{ key: 'pid', value: { int_value: '23640' } }] }],
            },
          ],
        },
      ],
      resourceLogs: [{ scopeLogs: [{ logRecords: [{ severityNumber: 'SEVERITY_NUMBER_WARN', severity_text: 'WARN' }] }] }],
    };
    expect(fromProtoJsonMapping(doc)).to.deep.equal({
      resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: 'ab'.repeat(16), kind: 2, status: { code: 2 }, attributes: [{ key: 'pid', value: { intValue: 23640 } }] }] }] }],
      resourceLogs: [{ scopeLogs: [{ logRecords: [{ severityNumber: 13, severityText: 'WARN' }] }] }],
    });
    expect(camelCase('time_unix_nano')).to.equal('timeUnixNano');
    expect(camelCase('timeUnixNano')).to.equal('timeUnixNano');
  });

  it('doubles written as "NaN" / "Infinity" become numbers the decoders drop and count', () => {
    const doc = fromProtoJsonMapping({ resourceMetrics: [{ resource: { attributes: [{ key: 'k8s.deployment.name', value: { stringValue: 'a' } }] }, scopeMetrics: [{ metrics: [{ name: 'm', gauge: { dataPoints: [{ timeUnixNano: '1', asDouble: 'NaN' }, { timeUnixNano: '1', asDouble: '-Infinity' }, { timeUnixNano: '1', asDouble: 2 }] } }] }] }] });
    const batch = decodeMetricsDocument(doc);
    expect([batch.metrics.map((m) => m.value), batch.rejected]).to.deep.equal([[2], 2]);
  });

  it('refuses an intValue or enum that is neither a number nor its string form, naming the field', () => {
    const bad = () => fromProtoJsonMapping({ resourceMetrics: [{ resource: { attributes: [{ key: 'k', value: { intValue: '12.5' } }] } }] });
    expect(bad).to.throw(DecodeError).with.property('field', 'resourceMetrics[0].resource.attributes[0].value.intValue');
    const kind = () => fromProtoJsonMapping({ spans: [{ kind: 'SERVER' }] });
    expect(kind).to.throw(DecodeError, 'spans[0].kind must be an enum number or one of SPAN_KIND_UNSPECIFIED..SPAN_KIND_CONSUMER');
  });

  it('keeps a `__proto__` key a plain own key', () => {
    const out = fromProtoJsonMapping(JSON.parse('{"__proto__":{"polluted":1},"a_b":1}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).to.equal(Object.prototype);
    expect(Object.keys(out)).to.deep.equal(['__proto__', 'aB']);
    expect(({} as Record<string, unknown>)['polluted']).to.equal(undefined);
  });

  it('a metrics request in the contract\'s form and in the mapping\'s form decode to the same records (property)', () => {
    const attribute = fc.record({ key: fc.constantFrom('k8s.namespace.name', 'k8s.deployment.name', 'process.pid', 'cpu'), value: fc.oneof(fc.record({ stringValue: fc.stringMatching(/^[a-z]{1,6}$/) }), fc.record({ intValue: fc.integer({ min: -1e9, max: 1e9 }) })) });
    const point = fc.record({ timeUnixNano: fc.bigInt({ min: 0n, max: 2n ** 62n }).map(String), asDouble: fc.double({ noNaN: true, noDefaultInfinity: true }), attributes: fc.array(attribute, { maxLength: 3 }) });
    // gauge and sum: `sum` is also a double field name of histogram points, the mapping must tell them apart
    const metric = fc
      .record({ name: fc.constantFrom('a', 'b.c'), kind: fc.constantFrom('gauge', 'sum'), points: fc.array(point, { maxLength: 3 }) })
      .map(({ name, kind, points }) => ({ name, [kind]: { dataPoints: points } }));
    const doc = fc.record({
      resourceMetrics: fc.array(
        fc.record({ resource: fc.record({ attributes: fc.array(attribute, { maxLength: 4 }) }), scopeMetrics: fc.array(fc.record({ metrics: fc.array(metric, { maxLength: 3 }) }), { maxLength: 2 }) }),
        { maxLength: 3 },
      ),
    });
    fc.assert(
      fc.property(doc, (d) => {
        expect(fromProtoJsonMapping(d)).to.deep.equal(d);
        expect(decodeMetricsDocument(fromProtoJsonMapping(toMappingForm(d)))).to.deep.equal(decodeMetricsDocument(d));
      }),
      { numRuns: 200 },
    );
  });
});
