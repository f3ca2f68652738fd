/**
 * Remote-write protobuf messages to one series shape, for both protocol versions: 1.0
 * `prometheus.WriteRequest` (labels as name/value pairs) and 2.0 `io.prometheus.write.v2.Request`
 * (labels as pairs of references into the request's symbols table, per-sample start timestamps).
 * Bodies are already snappy-uncompressed; a message that does not decode, or a reference outside
 * the symbols table, is a DecodeError naming the field.
 */
import protobuf from 'protobufjs';
import { protoPath } from '../proto-files.js';
import { readWriteRequestV1 } from './remote-write-v1-reader.js';
import { readRequestV2 } from './remote-write-v2-reader.js';

type Int64 = number | { toNumber(): number };

export interface WireSample {
  value: number;
  timestamp: Int64;
  /** 2.0 only: when the counter started (0 or absent: not set) */
  startTimestamp?: Int64;
}

export interface RemoteSeries {
  labels: Map<string, string>;
  samples: WireSample[];
  /** native histogram samples (counted for the written headers, not analysed) */
  histograms: number;
  exemplars: number;
  /** 2.0 series-level start of the counter in ms (0: not set) */
  createdMs: number;
}

export type RemoteWriteVersion = 'v1' | 'v2';

export const toMs = (t: Int64 | undefined): number => (t === undefined ? 0 : typeof t === 'number' ? t : t.toNumber());

const v1Root = protobuf.loadSync(protoPath('prometheus/remote-write.proto'));
const v2Root = protobuf.loadSync(protoPath('prometheus/remote-write-v2.proto'));
/** the 1.0 message type (the reader's reference in its tests; encoders) */
export const V1_REQUEST = v1Root.lookupType('prometheus.WriteRequest');
/** the 2.0 message type (the reader's reference in its tests; encoders) */
export const V2_REQUEST = v2Root.lookupType('io.prometheus.write.v2.Request');

/** Remote-Write 1.0: read field by field (remote-write-v1-reader.ts), not through protobufjs's message objects */
export const seriesOfV1 = readWriteRequestV1;

/** Remote-Write 2.0: read field by field (remote-write-v2-reader.ts) */
export const seriesOfV2 = readRequestV2;
