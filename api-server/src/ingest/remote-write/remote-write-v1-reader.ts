/**
 * Remote-Write 1.0 `prometheus.WriteRequest` read field by field with protobufjs's Reader, straight
 * into the series shape (remote-write-series.ts), instead of through the decoded message objects:
 * no Label and Sample message objects, no Long per timestamp, label strings decoded once per thread
 * (protobuf-fields.ts), exemplars and histograms counted and skipped. It is the hot part of every
 * remote-write request (docs/ingest-performance.md).
 *
 * Wire rules as protobuf's: fields in any order, unknown fields and fields of another wire type
 * skipped, a repeated field's entries appended, the last of a singular field kept. A length or
 * varint running past its message is a DecodeError. Timestamps are int64 read as a number: exact
 * within ±2^53 ms, rounded beyond (no valid sample lies there).
 */
import { DecodeError } from '../../model/records.js';
import type { RemoteSeries, WireSample } from './remote-write-series.js';
import { endOfField, endsAt, FIXED64, int64Number, LENGTH_DELIMITED, readerOf, readString, VARINT, type Reader } from './protobuf-fields.js';

function readLabel(reader: Reader, buffer: Buffer, end: number, labels: Map<string, string>): void {
  let name = '';
  let value = '';
  while (reader.pos < end) {
    const tag = reader.uint32();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 1 && wire === LENGTH_DELIMITED) name = readString(reader, buffer);
    else if (field === 2 && wire === LENGTH_DELIMITED) value = readString(reader, buffer);
    else reader.skipType(wire);
  }
  labels.set(name, value);
}

function readSample(reader: Reader, end: number): WireSample {
  let value = 0;
  let timestamp = 0;
  while (reader.pos < end) {
    const tag = reader.uint32();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 1 && wire === FIXED64) value = reader.double();
    else if (field === 2 && wire === VARINT) timestamp = int64Number(reader);
    else reader.skipType(wire);
  }
  return { value, timestamp };
}

function readSeries(reader: Reader, buffer: Buffer, end: number): RemoteSeries {
  const labels = new Map<string, string>();
  const samples: WireSample[] = [];
  let exemplars = 0;
  let histograms = 0;
  while (reader.pos < end) {
    const tag = reader.uint32();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (wire === LENGTH_DELIMITED && (field === 1 || field === 2)) {
      const fieldEnd = endOfField(reader);
      if (field === 1) readLabel(reader, buffer, fieldEnd, labels);
      else samples.push(readSample(reader, fieldEnd));
      endsAt(reader, fieldEnd);
    } else {
      if (wire === LENGTH_DELIMITED && field === 3) exemplars += 1;
      else if (wire === LENGTH_DELIMITED && field === 4) histograms += 1;
      reader.skipType(wire);
    }
  }
  return { labels, samples, histograms, exemplars, createdMs: 0 };
}

/** the series of a Remote-Write 1.0 body (snappy-uncompressed); a body that does not decode is a DecodeError */
export function readWriteRequestV1(bytes: Uint8Array): RemoteSeries[] {
  const { reader, buffer } = readerOf(bytes);
  const out: RemoteSeries[] = [];
  try {
    while (reader.pos < reader.len) {
      const tag = reader.uint32();
      const field = tag >>> 3;
      const wire = tag & 7;
      if (field === 0) throw new RangeError('field number 0');
      if (field === 1 && wire === LENGTH_DELIMITED) {
        const end = endOfField(reader);
        out.push(readSeries(reader, buffer, end));
        endsAt(reader, end);
      } else reader.skipType(wire);
    }
  } catch (error) {
    throw new DecodeError(`body is not a protobuf prometheus.WriteRequest: ${(error as Error).message}`, undefined);
  }
  return out;
}
