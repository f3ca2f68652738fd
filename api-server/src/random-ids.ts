/**
 * 12 lowercase hex characters from the CSPRNG for ids (ruptures, anomalies, actions, control
 * objects). The random bytes are drawn in blocks: one `randomBytes` call per id was 6 % of the CPU
 * of a remote-write load whose random values open an anomaly id per series and step.
 */
import { randomBytes } from 'node:crypto';

const ID_BYTES = 6;
const BLOCK_IDS = 1024;

let block = Buffer.alloc(0);
let offset = 0;

export function newHexId(): string {
  if (offset + ID_BYTES > block.length) {
    block = randomBytes(ID_BYTES * BLOCK_IDS);
    offset = 0;
  }
  const id = block.toString('hex', offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return id;
}
