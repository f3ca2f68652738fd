/**
 * Two checkouts' stateless remote-write decode side by side in one process (issue 33,
 * docs/ingest-performance.md): the comparison's request shape (84 workloads × 6 metrics, one sample
 * each, snappy) through each checkout's `identifyBody` (snappy, the 1.0 message, validation,
 * identity), 60 requests × 10 per round, the checkouts alternating for 6 rounds, samples/s per round.
 *
 *   node --import tsx bench/remote-write-decode-ab.ts <dirA> <dirB>
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as IdentifyModule from '../api-server/src/ingest/remote-write/remote-write-identify.js';
import { remoteWriteBody } from './memory/remote-write-body.js';

const dirs = process.argv.slice(2);
if (dirs.length === 0) throw new Error('usage: remote-write-decode-ab.ts <dirA> [<dirB> ...]');
const modules = await Promise.all(
  dirs.map((d) => import(pathToFileURL(resolve(d, 'api-server/src/ingest/remote-write/remote-write-identify.ts')).href) as Promise<typeof IdentifyModule>),
);
const t0 = Date.now() - 3_600_000;
const bodies = Array.from({ length: 60 }, (_, r) => remoteWriteBody(84, r, t0 + r * 15_000));
for (let round = 0; round < 6; round++) {
  modules.forEach((m, i) => {
    const start = performance.now();
    let samples = 0;
    for (let rep = 0; rep < 10; rep++) for (const body of bodies) samples += m.identifyBody(body, 'v1', undefined).count;
    console.log(`${dirs[i]} round ${round}: ${Math.round((samples / (performance.now() - start)) * 1000)} samples/s`);
  });
}
