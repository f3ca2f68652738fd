/**
 * Remote-Write 1.0 `prometheus.WriteRequest` read field by field with protobufjs's Reader, straight
 * into the series shape (remote-write-series.ts), instead of through the decoded message objects:
 * no Label and Sample message objects, no Long per timestamp, label strings decoded once per thread
 * (interned-strings.ts), exemplars and histograms counted and skipped. It is the hot part of every remote-write request (docs/ingest-performance.md).
 *
 * Wire rules as protobuf's: fields in any order, unknown fields and fields of another wire type
 * skipped, a repeated field's entries appended, the last of a singular field kept. A length or
 * varint running past its message is a DecodeError. Timestamps are int64 read as a number: exact
 * within ±2^53 ms, rounded beyond (no valid sample lies there).
 */
import protobuf from 'protobufjs';
import { DecodeError } from '../../model/records.js';
import type { RemoteSeries, WireSample } from './remote-write-series.js';
import { InternedStrings } from './interned-strings.js';

type Reader = protobuf.Reader;

const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;
const TWO_32 = 2 ** 32;

/** the next byte of a varint; throws at the end of the buffer */
function varintByte(reader: Reader): number {
  if (reader.pos >= reader.len) throw new RangeError('varint runs past the end of its message');
  return reader.buf[reader.pos++] as number;
}

/** an int64 varint as a number: its two 32-bit halves as protobufjs's LongBits reads them, without a Long */
function int64Number(reader: Reader): number {
  let lo = 0;
  let hi = 0;
  let byte = 0;
  for (let i = 0; i < 4; i++) {
    byte = varintByte(reader);
    lo |= (byte & 0x7f) << (7 * i);
    if (byte < 0x80) return lo >>> 0;
  }
  byte = varintByte(reader);
  lo |= (byte & 0x7f) << 28;
  hi |= (byte & 0x7f) >> 4;
  if (byte < 0x80) return hi * TWO_32 + (lo >>> 0);
  for (let i = 0; i < 5; i++) {
    byte = varintByte(reader);
    hi |= (byte & 0x7f) << (7 * i + 3);
    if (byte < 0x80) return (hi | 0) * TWO_32 + (lo >>> 0);
  }
  throw new RangeError('varint longer than 10 bytes');
}

/** the end offset of a length-delimited field whose length is next */
function endOfField(reader: Reader): number {
  const length = reader.uint32();
  const end = reader.pos + length;
  if (end > reader.len) throw new RangeError(`a field of ${length} bytes runs past the end of its message`);
  return end;
}

/** the label names and values of every request this thread reads (one table per thread) */
const interned = new InternedStrings();

/** a length-delimited string field, through the interned strings */
function readString(reader: Reader, buffer: Buffer): string {
  const end = endOfField(reader);
  const s = interned.get(buffer, reader.pos, end);
  reader.pos = end;
  return s;
}

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
      if (reader.pos !== fieldEnd) throw new RangeError('a message runs past its length');
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
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const reader = protobuf.Reader.create(buffer);
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
        if (reader.pos !== end) throw new RangeError('a message runs past its length');
      } else reader.skipType(wire);
    }
  } catch (error) {
    throw new DecodeError(`body is not a protobuf prometheus.WriteRequest: ${(error as Error).message}`, undefined);
  }
  return out;
}
