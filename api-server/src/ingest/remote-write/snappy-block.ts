/**
 * Snappy block-format decompression with a guard: the uncompressed length is the varint at the
 * start of the block and is checked against the limit before anything is allocated, so a small
 * body claiming gigabytes is refused (a decompression bomb), and corrupt input is a DecodeError.
 */
import { uncompressSync } from 'snappy';
import { DecodeError } from '../../model/records.js';

export function declaredLength(block: Buffer): number {
  let result = 0;
  let shift = 0;
  for (let i = 0; i < Math.min(block.length, 5); i += 1) {
    const byte = block[i] as number;
    result += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return result;
    shift += 7;
  }
  throw new DecodeError('body is not snappy block data: bad length header', undefined);
}

export function uncompressSnappy(block: Buffer, limit: number): Buffer {
  if (block.length === 0) throw new DecodeError('body is empty; a snappy-compressed protobuf WriteRequest is required', undefined);
  const length = declaredLength(block);
  if (length > limit) throw new DecodeError(`snappy body declares ${length} bytes uncompressed, over the limit of ${limit}`, undefined);
  try {
    return uncompressSync(block, { asBuffer: true }) as Buffer;
  } catch (error) {
    throw new DecodeError(`body is not valid snappy block data: ${(error as Error).message}`, undefined);
  }
}
