/**
 * Protobuf wire format written by hand (varints, length-delimited fields, fixed64 doubles, packed
 * uint32), so tests can build requests without the library the service decodes them with.
 */

export function varint(n: number | bigint): Buffer {
  let v = BigInt.asUintN(64, BigInt(n));
  const bytes: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) byte |= 0x80;
    bytes.push(byte);
  } while (v !== 0n);
  return Buffer.from(bytes);
}

const tag = (field: number, wireType: number): Buffer => varint((field << 3) | wireType);

/** wire type 2: a string, bytes or an embedded message */
export function lengthDelimited(field: number, payload: Buffer | string): Buffer {
  const bytes = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  return Buffer.concat([tag(field, 2), varint(bytes.length), bytes]);
}

/** wire type 0: int32/int64/uint32/enum/bool */
export function varintField(field: number, n: number | bigint): Buffer {
  return Buffer.concat([tag(field, 0), varint(n)]);
}

/** wire type 1: a double */
export function doubleField(field: number, value: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeDoubleLE(value, 0);
  return Buffer.concat([tag(field, 1), b]);
}

/** a packed repeated uint32 */
export function packedField(field: number, values: readonly number[]): Buffer {
  return lengthDelimited(field, Buffer.concat(values.map((v) => varint(v))));
}
