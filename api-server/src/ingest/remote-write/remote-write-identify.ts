/**
 * The stateless part of a remote-write protobuf decode, from the body as sent to identified
 * samples: snappy, the protobuf message of the version, validation and workload identity. The
 * same function runs on the event loop and in a decode worker (remote-write-decode-worker.ts).
 */
import type { IdentifiedSamples, TimeWindow } from './remote-write-samples.js';
import { identifySamples } from './remote-write-samples.js';
import type { RemoteSeries, RemoteWriteVersion } from './remote-write-series.js';
import { seriesOfV1, seriesOfV2 } from './remote-write-series.js';
import { uncompressSnappy } from './snappy-block.js';

export const UNCOMPRESSED_LIMIT = 64 * 1024 * 1024;

/** the series of a body as sent; throws DecodeError when it is not snappy or not the version's protobuf message */
export function seriesOfBody(body: Buffer, version: RemoteWriteVersion): RemoteSeries[] {
  const raw = uncompressSnappy(body, UNCOMPRESSED_LIMIT);
  return version === 'v2' ? seriesOfV2(raw) : seriesOfV1(raw);
}

/** throws DecodeError as seriesOfBody does */
export function identifyBody(body: Buffer, version: RemoteWriteVersion, window: TimeWindow | undefined): IdentifiedSamples {
  return identifySamples(seriesOfBody(body, version), window);
}
