import { expect } from 'chai';
import fc from 'fast-check';
import { AnalysisCoreImpl } from '../../../api-server/src/analysis/analysis-core.js';

const ORIGIN = 1_700_000_000_000 - (1_700_000_000_000 % 15_000);

/** every number reachable in a JSON-like value is finite */
function assertFinite(value: unknown, path: string): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`non-finite ${value} at ${path}`);
  } else if (Array.isArray(value)) value.forEach((v, i) => assertFinite(v, `${path}[${i}]`));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) assertFinite(v, `${path}.${k}`);
}

const names = ['cpu_percent', 'memory_percent', 'latency_ms', 'error_rate', 'timeout_rate', 'request_rate', 'load_avg_1', 'cpu_count', 'gc_pause_ms', 'restarts', 'process.open_file_descriptors', 'disk_percent', 'weird.metric'];
const anyValue = fc.oneof(fc.double(), fc.constantFrom(NaN, Infinity, -Infinity, Number.MAX_VALUE, -Number.MAX_VALUE, 0, 1e-320), fc.double({ min: 0, max: 100, noNaN: true }));

describe('analysis property: no NaN or Infinity ever leaves the analysis', function () {
  this.timeout(120_000);

  it('for any finite or non-finite metric values, log and span fields, FusedR in [0, 10] and every output number finite', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.constantFrom(...names), anyValue, fc.constantFrom('p1', 'p2', undefined)), { minLength: 1, maxLength: 200, size: 'max' }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: -5, max: 30 }), fc.constantFrom('', 'ERROR', 'warn')), { maxLength: 40, size: 'max' }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), anyValue, fc.integer({ min: 0, max: 2 })), { maxLength: 40, size: 'max' }),
        (metrics, logs, spans) => {
          const core = new AnalysisCoreImpl({ newHexId: () => 'abcdefabcdef', config: { calibrationSteps: 5 } });
          const key = 'p/Deployment/w';
          for (const [b, name, value, pod] of metrics) core.observeMetric({ workload: key, pod, name, value, timeMs: ORIGIN + b * 15_000 });
          for (const [b, sev, text] of logs) core.observeLog({ workload: key, pod: undefined, timeMs: ORIGIN + b * 15_000, severityNumber: sev, severityText: text, body: 'x' });
          spans.forEach(([b, duration, status], i) =>
            core.observeSpan({ workload: key, service: 'w', traceId: 't', spanId: `s${i}`, parentSpanId: i > 0 ? `s${i - 1}` : '', name: 'n', kind: 1, startMs: ORIGIN + b * 15_000, endMs: ORIGIN + b * 15_000 + duration, statusCode: status }),
          );
          const out = core.step(ORIGIN + 60 * 15_000);
          assertFinite(out, 'step');
          for (const s of out.snapshots) expect(s.fusedR).to.be.within(0, 10);
          assertFinite(core.snapshot(key), 'snapshot');
          assertFinite(core.forecast(key, 'cpu_percent', 60) ?? null, 'forecast');
          const exported = core.exportWorkload(key);
          // every sample rejected (non-finite values only, no logs or spans): no workload, nothing to export
          if (exported === undefined) expect(core.snapshot(key)).to.equal(undefined);
          else assertFinite(JSON.parse(JSON.stringify(exported)), 'export');
        },
      ),
      { numRuns: 60 },
    );
  });
});
