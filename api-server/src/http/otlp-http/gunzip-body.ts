/**
 * gzip request bodies with a bound on what they inflate to: beyond `limit` bytes uncompressed the
 * request is a 413 (the limit applies after decompression, so a small bomb is refused), corrupt
 * gzip is a 400 naming the reason.
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { badRequest, HttpError } from '../../model/http-errors.js';

const gunzipAsync = promisify(gunzip);

export async function gunzipBounded(body: Buffer, limit: number): Promise<Buffer> {
  try {
    return await gunzipAsync(body, { maxOutputLength: limit });
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    if (e.code === 'ERR_BUFFER_TOO_LARGE') {
      throw new HttpError(413, 'payload_too_large', `request body larger than the limit of ${limit} bytes after gzip decompression`);
    }
    throw badRequest(`body is not valid gzip (Content-Encoding: gzip): ${e.message}`);
  }
}
