/**
 * Remote-write protobuf messages to one series shape, for both protocol versions: 1.0
 * `prometheus.WriteRequest` (labels as name/value pairs) and 2.0 `io.prometheus.write.v2.Request`
 * (labels as pairs of references into the request's symbols table, per-sample start timestamps).
 * Bodies are already snappy-uncompressed; a message that does not decode, or a reference outside
 * the symbols table, is a DecodeError naming the field.
 */
import protobuf from 'protobufjs';
import { protoPath } from '../proto-files.js';
import { DecodeError } from '../../model/records.js';
import { readWriteRequestV1 } from './remote-write-v1-reader.js';

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
export const V2_REQUEST = v2Root.lookupType('io.prometheus.write.v2.Request');

interface V2Series {
  labelsRefs: number[];
  samples: WireSample[];
  histograms: unknown[];
  exemplars: unknown[];
  createdTimestamp?: Int64;
}

function decodeMessage<T>(type: protobuf.Type, bytes: Buffer): T {
  try {
    return type.decode(bytes) as unknown as T;
  } catch (error) {
    throw new DecodeError(`body is not a protobuf ${type.fullName.slice(1)}: ${(error as Error).message}`, undefined);
  }
}

/** Remote-Write 1.0: read field by field (remote-write-v1-reader.ts), not through protobufjs's message objects */
export const seriesOfV1 = readWriteRequestV1;

export function seriesOfV2(bytes: Buffer): RemoteSeries[] {
  const message = decodeMessage<{ symbols?: string[]; timeseries?: V2Series[] }>(V2_REQUEST, bytes);
  const symbols = message.symbols ?? [];
  const series = message.timeseries ?? [];
  const out: RemoteSeries[] = new Array<RemoteSeries>(series.length);
  for (let i = 0; i < series.length; i += 1) {
    const s = series[i] as V2Series;
    const refs = s.labelsRefs;
    if (refs.length % 2 !== 0) throw new DecodeError(`timeseries[${i}].labels_refs has ${refs.length} references; name/value pairs need an even number`, `timeseries[${i}].labels_refs`);
    const labels = new Map<string, string>();
    for (let r = 0; r < refs.length; r += 2) {
      const name = symbols[refs[r] as number];
      const value = symbols[refs[r + 1] as number];
      if (name === undefined || value === undefined) {
        const bad = name === undefined ? (refs[r] as number) : (refs[r + 1] as number);
        throw new DecodeError(`timeseries[${i}].labels_refs[${name === undefined ? r : r + 1}] is ${bad}, outside the symbols table of ${symbols.length}`, `timeseries[${i}].labels_refs`);
      }
      labels.set(name, value);
    }
    out[i] = { labels, samples: s.samples, histograms: s.histograms.length, exemplars: s.exemplars.length, createdMs: toMs(s.createdTimestamp) };
  }
  return out;
}
