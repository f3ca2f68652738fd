/**
 * Remote-Write 2.0 `io.prometheus.write.v2.Request` read field by field (as the 1.0 reader,
 * remote-write-v1-reader.ts): the symbols through the thread's interned strings, each series' label
 * references (packed or not), its samples with their start timestamps, histograms and exemplars
 * counted and skipped, metadata skipped. The symbols may come after the series on the wire, so the
 * references resolve once the whole request is read: an odd count, or a reference outside the
 * symbols table, is a DecodeError naming `timeseries[i].labels_refs`, as before.
 */
import { DecodeError } from '../../model/records.js';
import type { RemoteSeries, WireSample } from './remote-write-series.js';
import { endOfField, endsAt, FIXED64, int64Number, LENGTH_DELIMITED, readerOf, readString, VARINT, type Reader } from './protobuf-fields.js';

interface ReadSeries {
  refs: number[];
  samples: WireSample[];
  histograms: number;
  exemplars: number;
  createdMs: number;
}

function readSample(reader: Reader, end: number): WireSample {
  let value = 0;
  let timestamp = 0;
  let startTimestamp = 0;
  while (reader.pos < end) {
    const tag = reader.uint32();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 1 && wire === FIXED64) value = reader.double();
    else if (field === 2 && wire === VARINT) timestamp = int64Number(reader);
    else if (field === 3 && wire === VARINT) startTimestamp = int64Number(reader);
    else reader.skipType(wire);
  }
  return { value, timestamp, startTimestamp };
}

function readSeries(reader: Reader, end: number): ReadSeries {
  const s: ReadSeries = { refs: [], samples: [], histograms: 0, exemplars: 0, createdMs: 0 };
  while (reader.pos < end) {
    const tag = reader.uint32();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 1 && wire === LENGTH_DELIMITED) {
      const refsEnd = endOfField(reader);
      while (reader.pos < refsEnd) s.refs.push(reader.uint32());
      endsAt(reader, refsEnd);
    } else if (field === 1 && wire === VARINT) s.refs.push(reader.uint32());
    else if (field === 2 && wire === LENGTH_DELIMITED) {
      const sampleEnd = endOfField(reader);
      s.samples.push(readSample(reader, sampleEnd));
      endsAt(reader, sampleEnd);
    } else if (field === 6 && wire === VARINT) s.createdMs = int64Number(reader);
    else {
      if (field === 3 && wire === LENGTH_DELIMITED) s.histograms += 1;
      else if (field === 4 && wire === LENGTH_DELIMITED) s.exemplars += 1;
      reader.skipType(wire);
    }
  }
  return s;
}

function resolve(read: ReadSeries, i: number, symbols: readonly string[]): RemoteSeries {
  const refs = read.refs;
  if (refs.length % 2 !== 0) throw new DecodeError(`timeseries[${i}].labels_refs has ${refs.length} references; name/value pairs need an even number`, `timeseries[${i}].labels_refs`);
  const labels = new Map<string, string>();
  for (let r = 0; r < refs.length; r += 2) {
    const name = symbols[refs[r] as number];
    const value = symbols[refs[r + 1] as number];
    if (name === undefined || value === undefined) {
      const at = name === undefined ? r : r + 1;
      throw new DecodeError(`timeseries[${i}].labels_refs[${at}] is ${refs[at] as number}, outside the symbols table of ${symbols.length}`, `timeseries[${i}].labels_refs`);
    }
    labels.set(name, value);
  }
  return { labels, samples: read.samples, histograms: read.histograms, exemplars: read.exemplars, createdMs: read.createdMs };
}

/** the series of a Remote-Write 2.0 body (snappy-uncompressed); a body that does not decode is a DecodeError */
export function readRequestV2(bytes: Uint8Array): RemoteSeries[] {
  const { reader, buffer } = readerOf(bytes);
  const symbols: string[] = [];
  const series: ReadSeries[] = [];
  try {
    while (reader.pos < reader.len) {
      const tag = reader.uint32();
      const field = tag >>> 3;
      const wire = tag & 7;
      if (field === 0) throw new RangeError('field number 0');
      if (field === 4 && wire === LENGTH_DELIMITED) symbols.push(readString(reader, buffer));
      else if (field === 5 && wire === LENGTH_DELIMITED) {
        const end = endOfField(reader);
        series.push(readSeries(reader, end));
        endsAt(reader, end);
      } else reader.skipType(wire);
    }
  } catch (error) {
    throw new DecodeError(`body is not a protobuf io.prometheus.write.v2.Request: ${(error as Error).message}`, undefined);
  }
  return series.map((s, i) => resolve(s, i, symbols));
}
