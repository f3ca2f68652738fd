/**
 * The field-level reads the remote-write readers share (remote-write-v1-reader.ts,
 * remote-write-v2-reader.ts), over protobufjs's Reader: an int64 as a number without a Long, the end
 * of a length-delimited field, a string through the thread's interned strings. A length or varint
 * running past the buffer throws RangeError; the readers turn it into a DecodeError.
 */
import protobuf from 'protobufjs';
import { InternedStrings } from './interned-strings.js';

export type Reader = protobuf.Reader;

export const VARINT = 0;
export const FIXED64 = 1;
export const LENGTH_DELIMITED = 2;
const TWO_32 = 2 ** 32;

/** a reader over `bytes` and the Buffer view its strings are decoded from */
export function readerOf(bytes: Uint8Array): { reader: Reader; buffer: Buffer } {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { reader: protobuf.Reader.create(buffer), buffer };
}

/** the next byte of a varint; throws at the end of the buffer */
function varintByte(reader: Reader): number {
  if (reader.pos >= reader.len) throw new RangeError('varint runs past the end of its message');
  return reader.buf[reader.pos++] as number;
}

/** an int64 varint as a number: its two 32-bit halves as protobufjs's LongBits reads them, without a Long */
export function int64Number(reader: Reader): number {
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
export function endOfField(reader: Reader): number {
  const length = reader.uint32();
  const end = reader.pos + length;
  if (end > reader.len) throw new RangeError(`a field of ${length} bytes runs past the end of its message`);
  return end;
}

/** throws when a nested message's reads went past its length */
export function endsAt(reader: Reader, end: number): void {
  if (reader.pos !== end) throw new RangeError('a message runs past its length');
}

/** the label names, values and symbols of every request this thread reads (one table per thread) */
const interned = new InternedStrings();

/** a length-delimited string field, through the interned strings */
export function readString(reader: Reader, buffer: Buffer): string {
  const end = endOfField(reader);
  const s = interned.get(buffer, reader.pos, end);
  reader.pos = end;
  return s;
}
