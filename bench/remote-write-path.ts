/**
 * Where a remote-write request's time goes on its way to the analysis buffers (issue 33,
 * docs/ingest-performance.md), per request of the shared comparison's shape (84 workloads × 6
 * metrics, one sample each, 4 labels per series, snappy): snappy, the protobuf decode, validation
 * and identity (all three run in a decode worker in the service), the name mapping and the drain
 * into the analysis buffers and the raw tier (both on the event loop); then the whole decode through
 * a pool of 2 workers with 8 requests in flight, as 8 connections send them.
 *
 * Run: `node --import tsx bench/remote-write-path.ts` (or through `npm run bench`).
 */
import { pathToFileURL } from 'node:url';
import { AnalysisCoreImpl } from '../api-server/src/analysis/analysis-core.js';
import { PrometheusNameMapper } from '../api-server/src/ingest/remote-write/prometheus-names.js';
import { RemoteWriteDecodePool } from '../api-server/src/ingest/remote-write/remote-write-decode-pool.js';
import { identifyBody, UNCOMPRESSED_LIMIT } from '../api-server/src/ingest/remote-write/remote-write-identify.js';
import { identifySamples, mapIdentified } from '../api-server/src/ingest/remote-write/remote-write-samples.js';
import type { IdentifiedSamples } from '../api-server/src/ingest/remote-write/remote-write-samples.js';
import { seriesOfV1 } from '../api-server/src/ingest/remote-write/remote-write-series.js';
import { uncompressSnappy } from '../api-server/src/ingest/remote-write/snappy-block.js';
import type { DecodedBatch } from '../api-server/src/model/records.js';
import { IngestPipeline } from '../api-server/src/pipeline/ingest-pipeline.js';
import { remoteWriteBody } from './memory/remote-write-body.js';

const WORKLOADS = 84;
const STEPS = 60;

type Row = { name: string; value: string };

function perRequest(label: string, n: number, work: () => void): Row {
  const start = performance.now();
  work();
  const us = ((performance.now() - start) * 1000) / n;
  return { name: `remote-write path: ${label}, µs per request of ${WORKLOADS * 6} samples`, value: us.toFixed(0) };
}

/** each part over every request, in order (the service's pipeline and analysis buffers are fresh per call) */
function parts(bodies: Buffer[]): Row[] {
  const n = bodies.length;
  const rows: Row[] = [];
  let raws: Buffer[] = [];
  rows.push(perRequest('snappy (worker)', n, () => (raws = bodies.map((b) => uncompressSnappy(b, UNCOMPRESSED_LIMIT)))));
  let series: ReturnType<typeof seriesOfV1>[] = [];
  rows.push(perRequest('protobuf decode (worker)', n, () => (series = raws.map((r) => seriesOfV1(r)))));
  let ids: IdentifiedSamples[] = [];
  rows.push(perRequest('validation and identity (worker)', n, () => (ids = series.map((s) => identifySamples(s, undefined)))));
  const names = new PrometheusNameMapper();
  let batches: DecodedBatch[] = [];
  rows.push(perRequest('name mapping (event loop)', n, () => (batches = ids.map((i) => mapIdentified(i, names).batch))));
  const core = new AnalysisCoreImpl({ newHexId: () => '000000000000' });
  const pipeline = new IngestPipeline(core, { accepted: () => undefined, dropped: () => undefined }, Date.now);
  rows.push(
    perRequest('drain into the analysis buffers and the raw tier (event loop)', n, () => {
      for (const b of batches) {
        pipeline.offer(b);
        pipeline.drain();
      }
    }),
  );
  return rows;
}

export async function runRemoteWritePathBench(): Promise<Row[]> {
  const t0 = Date.now() - 2 * STEPS * 15_000;
  const warmUp = Array.from({ length: STEPS }, (_, s) => remoteWriteBody(WORKLOADS, s, t0 + s * 15_000));
  const bodies = Array.from({ length: STEPS }, (_, s) => remoteWriteBody(WORKLOADS, STEPS + s, t0 + (STEPS + s) * 15_000));
  const n = bodies.length;
  parts(warmUp);
  const rows = parts(bodies);
  const pool = new RemoteWriteDecodePool(2);
  try {
    await Promise.all(bodies.slice(0, 8).map((b) => pool.identify(b, 'v1', undefined))); // workers started and warm
    const rounds = 5;
    const start = performance.now();
    for (let r = 0; r < rounds; r++) {
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < n) await pool.identify(bodies[next++]!, 'v1', undefined);
        }),
      );
    }
    const samplesPerS = (rounds * n * WORKLOADS * 6) / ((performance.now() - start) / 1000);
    rows.push({ name: 'remote-write path: samples/s decoded by a pool of 2 workers, 8 requests in flight', value: String(Math.round(samplesPerS)) });
  } finally {
    await pool.close();
  }
  // the same body decoded on the event loop, for comparison with the pool's rate
  const start = performance.now();
  for (const b of bodies) identifyBody(b, 'v1', undefined);
  rows.push({ name: 'remote-write path: samples/s decoded on the event loop alone', value: String(Math.round((n * WORKLOADS * 6) / ((performance.now() - start) / 1000))) });
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await runRemoteWritePathBench()) console.log(`${row.name.padEnd(100)} ${row.value}`);
}
