/**
 * Issue 8 part 4: one NAB file through the real service. The rows go in over the remote-write
 * JSON ingest with their own 2014 timestamps (the service's clock follows the replay, so no row
 * is too old or in the future), and the anomalies read back from /api/v2/anomalies are exactly
 * the firings of the offline detectors (`SeriesDetectors`, what `npm run eval:nab` runs) on the
 * same values after the 96 calibration steps.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { SeriesDetectors } from '../../../api-server/src/analysis/anomaly/index.js';
import { BUCKET_MS, bucketRows, type BucketPoint } from '../../../tools/nab/bucket-rows.js';
import { eventually, useTestService } from '../../support/service.js';

const FILE = new URL('../../fixtures/nab/ec2_request_latency_system_failure.csv', import.meta.url);
const WORKLOAD = 'nab/Deployment/ec2-request-latency';
const METRIC = 'nab_request_latency';
const CALIBRATION_STEPS = 96;
const CHUNK = 200;

interface Row {
  t: number;
  v: number;
}

interface Firing {
  timestamp: string;
  method: string;
  score: number;
  value: number;
  expected: number;
}

const r3 = (x: number): number => Math.round(x * 1e3) / 1e3;
const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;
const iso = (ms: number): string => new Date(ms).toISOString();

function readRows(): Row[] {
  return readFileSync(FILE, 'utf8')
    .split('\n')
    .slice(1)
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const [t, v] = l.split(',');
      return { t: Date.parse(`${(t ?? '').trim().replace(' ', 'T')}Z`), v: Number(v) };
    });
}

/** The service's unit rule for a general gauge above 1 (a percentage): v / 100. */
const asServiceValue = (v: number): number => (v > 1 ? v / 100 : v);

function offlineFirings(rows: readonly Row[]): Firing[] {
  const points = bucketRows(rows.map((r) => r.t), rows.map((r) => asServiceValue(r.v)));
  const detectors = new SeriesDetectors();
  const out: Firing[] = [];
  points.forEach((p, i) => {
    const result = detectors.observe(p.value, (p.endMs - (points[0] as BucketPoint).endMs) / 1000);
    if (i + 1 < CALIBRATION_STEPS) return; // the service raises no anomalies while calibrating
    for (const f of result.firings) {
      out.push({ timestamp: iso(p.endMs), method: f.method, score: r3(f.score), value: r4(f.value), expected: r4(f.expected) });
    }
  });
  return out;
}

const order = (a: Firing, b: Firing): number => a.timestamp.localeCompare(b.timestamp) || a.method.localeCompare(b.method);

describe('NAB replay through the real service (remote-write JSON → /api/v2/anomalies)', function () {
  this.timeout(120_000);
  const rows = readRows();
  let clock = (rows[0] as Row).t;

  const svc = useTestService({ now: () => clock });

  it('raises exactly the offline detectors’ firings, with their scores, at the rows’ times', async () => {
    expect(rows).to.have.length(4032);
    for (let start = 0; start < rows.length; start += CHUNK) {
      const chunk = rows.slice(start, start + CHUNK);
      const last = chunk[chunk.length - 1] as Row;
      clock = last.t;
      const body = {
        timeseries: [
          {
            Labels: [
              { Name: '__name__', Value: METRIC },
              { Name: 'host', Value: WORKLOAD },
            ],
            Samples: chunk.map((r) => ({ Value: r.v, Timestamp: r.t })),
          },
        ],
      };
      const res = await fetch(`${svc.api}/write`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status, await res.text()).to.equal(204);
      // every bucket but the chunk's last is closed by a later sample; the last closes with the next chunk
      const done = iso((chunk.length > 1 ? (chunk[chunk.length - 2] as Row).t : last.t) + BUCKET_MS);
      await eventually(async () => {
        const snap = await svc.get(`/rupture/${WORKLOAD}`);
        const ts = (snap.body as { timestamp?: string } | undefined)?.timestamp;
        return snap.status === 200 && ts !== undefined && ts >= done ? true : undefined;
      }, 20_000, `the step of ${done}`);
    }
    clock = (rows[rows.length - 1] as Row).t + 2 * BUCKET_MS + 1;
    const end = iso((rows[rows.length - 1] as Row).t + BUCKET_MS);
    await eventually(async () => {
      const snap = await svc.get(`/rupture/${WORKLOAD}`);
      return (snap.body as { timestamp?: string }).timestamp === end ? true : undefined;
    }, 20_000, 'the last step');

    const expected = offlineFirings(rows).sort(order);
    const served: Firing[] = [];
    const until = clock;
    // /anomalies answers newest first, at most 1000 a page: page back with `since` windows of a day
    for (let from = (rows[0] as Row).t; from <= until; from += 86_400_000) {
      const res = await svc.get(`/anomalies/${WORKLOAD}?since=${encodeURIComponent(iso(from))}&limit=1000`);
      expect(res.status).to.equal(200);
      const page = (res.body as { anomalies: (Firing & { metric: string })[] }).anomalies;
      expect(page.length, 'a page below the 1000 limit').to.be.lessThan(1000);
      for (const a of page) {
        if (a.metric !== METRIC || Date.parse(a.timestamp) >= from + 86_400_000) continue;
        served.push({ timestamp: a.timestamp, method: a.method, score: a.score, value: a.value, expected: a.expected });
      }
    }
    served.sort(order);
    expect(expected.length, 'the file raises offline firings').to.be.greaterThan(10);
    expect(served).to.deep.equal(expected);
  });
});
